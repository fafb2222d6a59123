import Foundation
import Library
import LibraryCore
import LibraryIndex
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// Issue 31.5: ratings and flags where the folder cannot be written live in livegrid's index (schema 4), and
/// leave with exported copies as sidecars; a writable folder keeps its sidecar.
final class TriageStoreTests: XCTestCase {
    private var dir: URL!
    private var indexPath: String!

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory("livegrid-triage-store")
        indexPath = dir.appendingPathComponent("cache/library-index.sqlite").path
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)   // try?: a temporary folder
    }

    private func fill(_ folder: URL) throws {
        for name in ["train.jpg", "train.mov"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: folder.appendingPathComponent(name).path)
        }
    }

    private func livePhoto(in folder: URL) throws -> LibraryItem {
        let items = try LibraryScanner.scan(directory: folder.path).items
        return try XCTUnwrap(items.first { $0.kind == .live }, "\(items.map(\.displayName))")
    }

    func testARatingInAReadOnlyFolderGoesToTheIndexAndSurvivesAReopen() throws {
        let folder = try ReadOnlyFolder(at: dir.appendingPathComponent("readonly"), fill: fill)
        defer { folder.remove() }
        let before = folder.names
        let item = try livePhoto(in: folder.url)
        let store = TriageStore(index: { [indexPath] in LibraryIndex(path: indexPath!) })
        let picked = TriageState(rating: 4, flag: .pick)

        XCTAssertEqual(try store.write(picked, for: item), .index(reason: TriageStore.readOnlyReason))
        XCTAssertEqual(folder.names, before, "no sidecar, no temporary in the read-only folder")
        // A new store on a new connection: what the next run of livegrid sees.
        let reopened = TriageStore(index: { [indexPath] in LibraryIndex(path: indexPath!) })
        XCTAssertEqual(reopened.read([item])[item.id], picked)
        XCTAssertEqual(reopened.indexedState(of: item), picked)

        // Unrating leaves no row behind.
        try reopened.write(.unrated, for: item)
        XCTAssertNil(reopened.read([item])[item.id])
        XCTAssertEqual(LibraryIndex(path: indexPath).allTriageRows(), [], "no litter in the index either")
    }

    func testAWritableFolderKeepsItsSidecarAndTheIndexStaysEmpty() throws {
        let folder = dir.appendingPathComponent("writable")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try fill(folder)
        let item = try livePhoto(in: folder)
        let store = TriageStore(index: { [indexPath] in LibraryIndex(path: indexPath!) })
        XCTAssertEqual(try store.write(TriageState(rating: 2), for: item), .sidecar)
        XCTAssertEqual(try SidecarTriageStore.read(sidecar: folder.appendingPathComponent("train.jpg.xmp").path),
                       TriageState(rating: 2))
        XCTAssertEqual(LibraryIndex(path: indexPath).allTriageRows(), [])
    }

    func testWithoutAnIndexAReadOnlyFolderSaysTheRatingWasNotSaved() throws {
        let folder = try ReadOnlyFolder(at: dir.appendingPathComponent("readonly"), fill: fill)
        defer { folder.remove() }
        let item = try livePhoto(in: folder.url)
        XCTAssertThrowsError(try TriageStore.sidecarsOnly.write(TriageState(rating: 1), for: item)) { error in
            XCTAssertTrue("\(error)".contains("this folder is read-only and the library index is off"), "\(error)")
        }
    }

    func testARemoteRatingIsKeptByURLAndNotGivenToAReplacedFile() throws {
        let store = TriageStore(index: { [indexPath] in LibraryIndex(path: indexPath!) })
        let file = MediaFile(path: "IMG_1.JPG", size: 1234, modificationTime: 0, info: MediaInfo(format: .jpeg))
        let location = TriageStore.location(ofRemote: "https://example.org/photos/IMG%201.JPG")
        XCTAssertEqual(location, "https://example.org/photos/IMG 1.JPG", "the browser's URLs and scan's names agree")
        let subject = TriageStore.RemoteSubject(itemID: "IMG_1.JPG", location: location, file: file, displayName: "IMG_1.JPG")
        try store.write(TriageState(flag: .reject), remote: subject)
        XCTAssertEqual(store.read(remote: [subject]), ["IMG_1.JPG": TriageState(flag: .reject)])
        var unknownSize = subject
        unknownSize.file.size = 0   // a listing without sizes
        XCTAssertEqual(store.read(remote: [unknownSize]).count, 1, "an unknown size does not hide the rating")
        var replaced = subject
        replaced.file.size = 999
        XCTAssertEqual(store.read(remote: [replaced]), [:], "another file at the same URL is not the rated one")
    }

    func testAnExportWritesTheIndexedRatingBesideTheStillOfTheCopiedPair() throws {
        let folder = try ReadOnlyFolder(at: dir.appendingPathComponent("readonly"), fill: fill)
        defer { folder.remove() }
        let item = try livePhoto(in: folder.url)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        var plan = ExportPlan(items: [item], destination: out.path)
        plan.ratings[item.id] = TriageState(rating: 5, flag: .pick)
        let report = try ExportRunner().run(plan)
        XCTAssertEqual(report.failedCount, 0, report.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(),
                       ["train.jpg", "train.jpg.xmp", "train.mov"])
        XCTAssertEqual(try SidecarTriageStore.read(sidecar: out.appendingPathComponent("train.jpg.xmp").path),
                       TriageState(rating: 5, flag: .pick))
    }

    func testADamagedIndexIsMovedAsideNotDeletedSinceItMayHoldRatings() throws {
        try LibraryIndex(path: indexPath).storeTriage(TriageRow(location: "/x/IMG_1.JPG", size: 1,
                                                                modificationNanoseconds: nil, rating: 5, flag: 1))
        let garbage = Data(repeating: 0x5A, count: 64 * 1024)
        try garbage.write(to: URL(fileURLWithPath: indexPath))
        let index = LibraryIndex(path: indexPath)
        XCTAssertTrue(index.isUsable)
        let warning = try XCTUnwrap(index.warning)
        XCTAssertTrue(warning.contains("damaged") && warning.contains("moved aside") && warning.contains("rebuilt"), warning)
        XCTAssertEqual(FileManager.default.contents(atPath: indexPath + ".moved-aside"), garbage,
                       "the damaged file is kept for recovery")
    }

    func testASchema3IndexKeepsItsProbesAndGainsTheTriageTable() throws {
        let sqlite = try MissingRequirement.path(of: "sqlite3", for: "makes a schema 3 index")
        let library = dir.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try fill(library)
        _ = try LibraryScanner.scan(directory: library.path, index: LibraryIndex(path: indexPath))
        // Back to what livegrid before schema 4 left: no triage table, version 3.
        let downgraded = try ExternalTool.runProgram(sqlite, [indexPath, "DROP TABLE triage; PRAGMA user_version = 3;"])
        XCTAssertEqual(downgraded.status, 0, downgraded.err)
        let index = LibraryIndex(path: indexPath)
        XCTAssertNil(index.warning)
        XCTAssertEqual(index.count, 2, "the probes are kept by the migration")
        let rescan = try LibraryScanner.scan(directory: library.path, index: index)
        XCTAssertEqual(rescan.probedFiles, 0, "nothing probed again")
        try index.storeTriage(TriageRow(location: "/x/IMG_1.JPG", size: 1, modificationNanoseconds: nil, rating: 3, flag: 0))
        XCTAssertEqual(index.allTriageRows().map(\.rating), [3])
        let version = try ExternalTool.runProgram(sqlite, [indexPath, "PRAGMA user_version;"])
        XCTAssertEqual(version.out.trimmingCharacters(in: .whitespacesAndNewlines), "4")
    }
}
