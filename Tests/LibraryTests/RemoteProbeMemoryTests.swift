import Foundation
import LibraryCore
import LibraryIndex
import MediaFormats
import TestSupport
import XCTest
@testable import Library

/// What `RemoteProbeMemory` writes to a real library index (SQLite in a temporary folder): header probes
/// stored in batches as they finish, and the rows of files a complete listing no longer shows forgotten.
final class RemoteProbeMemoryTests: XCTestCase {
    private func index() throws -> (LazyLibraryIndex, URL) {
        let work = try Fixtures.makeTemporaryDirectory("livegrid-probe-memory")
        return (LazyLibraryIndex(path: work.path + "/index.sqlite"), work)
    }

    private func entry(_ url: String, etag: String = "e1") throws -> RemoteEntry {
        let url = try XCTUnwrap(URL(string: url))
        return RemoteEntry(name: url.lastPathComponent, url: url, isDirectory: false, size: 100, etag: etag)
    }

    /// A scan of 200,000 files held every encoded row to its end (issue 30: the peak of 388 MB); rows are now
    /// in the index once a batch is full, before the probes end, and the rest at the end. A probe that failed on
    /// the network is not stored.
    func testHeaderRowsAreStoredBatchByBatchAsProbesFinish() throws {
        let (lazy, work) = try index()
        defer { try? FileManager.default.removeItem(at: work) }   // a leftover only costs /tmp space
        let memory = RemoteProbeMemory(index: lazy)
        var batch = RemoteProbeMemory.HeaderBatch(memory: memory, format: .s3, size: 3)
        for i in 0..<2 { batch.add(try entry("s3://b/p/\(i).jpg"), MediaInfo(format: .jpeg)) }
        XCTAssertEqual(lazy.value.remoteProbeCount, 0, "a batch not yet full waits")
        batch.add(try entry("s3://b/p/2.jpg"), MediaInfo(format: .jpeg))
        XCTAssertEqual(lazy.value.remoteProbeCount, 3, "a full batch is stored at once, before the end")
        var failed = MediaInfo(format: .jpeg)
        failed.problems.append(ParseProblem(.error, "remote", "the connection was reset"))
        batch.add(try entry("s3://b/p/3.jpg"), failed)
        batch.add(try entry("s3://b/p/4.jpg"), MediaInfo(format: .jpeg))
        XCTAssertEqual(lazy.value.remoteProbeCount, 3)
        batch.finish()
        XCTAssertEqual(lazy.value.remoteProbeLocations, ["s3://b/p/0.jpg", "s3://b/p/1.jpg", "s3://b/p/2.jpg", "s3://b/p/4.jpg"],
                       "the rest at the end; the network failure left out")
    }

    /// The prune keys on the folder's prefix and touches only its direct children: not a subfolder's rows, not
    /// a sibling prefix that starts with the same letters, not another kind's folder.
    func testPruneForgetsOnlyUnlistedDirectChildrenOfTheFolder() throws {
        let (lazy, work) = try index()
        defer { try? FileManager.default.removeItem(at: work) }   // a leftover only costs /tmp space
        let index = lazy.value
        let stored = ["s3://b/p/a.jpg", "s3://b/p/gone.jpg", "s3://b/p/sub/c.jpg", "s3://b/p-other/d.jpg", "s3://b/p0.jpg",
                      "s3://b/pa/e.jpg", "s3://b/p/100%25.jpg"]
        let row = RemoteProbeRow(validator: RemoteValidator(size: 1, etag: "e", modificationNanoseconds: nil), record: [1, 2])
        index.storeRemoteProbes(stored.map { ($0, row) }, kind: .header)
        index.storeRemoteProbes([("s3://b/p/gone.jpg", row)], kind: .preview)
        let removed = index.pruneRemoteProbes(folder: "s3://b/p/", keeping: ["s3://b/p/a.jpg", "s3://b/p/100%25.jpg"])
        XCTAssertEqual(removed, 2, "gone.jpg's header and preview rows")
        XCTAssertEqual(index.remoteProbeLocations, ["s3://b/p-other/d.jpg", "s3://b/p/100%25.jpg", "s3://b/p/a.jpg",
                                                    "s3://b/p/sub/c.jpg", "s3://b/p0.jpg", "s3://b/pa/e.jpg"])
        XCTAssertEqual(index.pruneRemoteProbes(folder: "s3://b/p", keeping: []), 0, "a folder location ends in a slash")
        XCTAssertEqual(index.remoteProbeCount, 6)
    }
}
