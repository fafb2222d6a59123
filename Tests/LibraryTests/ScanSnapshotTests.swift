import Foundation
@testable import Library
import LibraryCore
import LibraryIndex
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// Issue 17 item 3: a known library's whole view comes from its last scan (`ScanSnapshot`), which the scan then
/// checks. Unchanged, the result is the snapshot and equals a plain scan; changed in any way behind its back, the
/// result is the usual scan's; a damaged snapshot is never shown.
final class ScanSnapshotTests: XCTestCase {
    private var dir: URL!
    private var library: URL!
    private var indexPath: String!

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory("livegrid-snapshot")
        library = dir.appendingPathComponent("library")
        indexPath = dir.appendingPathComponent("cache/livegrid/library-index.sqlite").path
        for folder in ["", "2023/07", "2023/08"] {
            try FileManager.default.createDirectory(at: library.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for (source, name) in [("train.jpg", "IMG_0001.JPG"), ("train.mov", "IMG_0001.MOV"),
                               ("motion-photo-v1.jpeg", "2023/07/PXL_0002.jpg"), ("train.jpg", "2023/07/IMG_0003.JPG"),
                               ("train.jpg", "2023/08/copy of IMG_0001.JPG"), ("train.mov", "2023/08/lone.MOV"),
                               ("train.jpg", "2023/08/ünïcode.jpg")] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(source),
                                             toPath: library.appendingPathComponent(name).path)
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// A progressive scan through the index (first screen of one file, so there is always a first report);
    /// its reports and milestones.
    private func scan(recursive: Bool = true) throws -> (scan: LibraryScan, reports: [LibraryScanProgress], milestones: [String]) {
        var reports: [LibraryScanProgress] = []
        var milestones: [String] = []
        let scan = try LibraryScanner.scanProgressively(directory: library.path, recursive: recursive,
                                                        index: LibraryIndex(path: indexPath), firstScreen: 1,
                                                        remembersInBackground: false,
                                                        milestone: { milestones.append($0) }) { reports.append($0) }
        return (scan, reports, milestones)
    }

    private func plain(recursive: Bool = true) throws -> LibraryScan {
        try LibraryScanner.scan(directory: library.path, recursive: recursive)
    }

    private var snapshotFiles: ScanSnapshotFiles { ScanSnapshotFiles(indexPath: indexPath) }
    private var snapshotPath: String {
        snapshotFiles.path(ScanSnapshot.library(root: library.path, recursive: true))
    }

    func testUnchangedLibraryIsShownWholeFromItsLastScanAndConfirmed() throws {
        let first = try scan()
        XCTAssertFalse(first.reports.contains(where: \.fromIndex), "nothing remembered yet")
        XCTAssertTrue(FileManager.default.fileExists(atPath: snapshotPath))
        let second = try scan()
        let expected = try plain()
        let whole = try XCTUnwrap(second.reports.first(where: \.fromIndex))
        XCTAssertEqual(whole.scan.items, expected.items, "the whole view is the library as it is")
        XCTAssertEqual(whole.listedFiles, expected.fileCount)
        XCTAssertTrue(second.milestones.contains("scan-confirmed"))
        XCTAssertEqual(second.scan.items, expected.items)
        XCTAssertEqual(second.scan.warnings, expected.warnings)
        XCTAssertEqual(second.scan.probedFiles, 0)
        // Not recursive: another snapshot, of the top folder alone.
        _ = try scan(recursive: false)
        let top = try scan(recursive: false)
        XCTAssertEqual(top.scan.items, try plain(recursive: false).items)
        XCTAssertTrue(top.milestones.contains("scan-confirmed"))
    }

    /// The browser's first screen is drawn before the last scan is decoded (decoding shares the cores its
    /// pictures need): the wait comes between the first report and the whole one.
    func testTheWholeViewIsReportedAfterTheWaitForTheFirstScreen() throws {
        _ = try scan()
        var events: [String] = []
        _ = try LibraryScanner.scanProgressively(directory: library.path, recursive: true, index: LibraryIndex(path: indexPath),
                                                 firstScreen: 1, remembersInBackground: false,
                                                 beforeRest: { events.append("wait") }) { report in
            events.append(report.fromIndex ? "whole" : "first screen")
        }
        XCTAssertEqual(events, ["first screen", "wait", "whole"])
    }

    /// A folder that fits on its first screen is never read back from a snapshot, so none is written (browsing
    /// small folders must not push a large library's out of the few kept); a confirmed snapshot counts as
    /// recently used.
    func testSmallFolderIsNotRememberedAndAConfirmedOneStaysRecent() throws {
        var reports = 0
        _ = try LibraryScanner.scanProgressively(directory: library.path, recursive: true, index: LibraryIndex(path: indexPath),
                                                 firstScreen: 100, remembersInBackground: false) { _ in reports += 1 }
        XCTAssertEqual(reports, 0, "one step: everything was on the first screen")
        XCTAssertFalse(FileManager.default.fileExists(atPath: snapshotPath))
        _ = try scan()
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: snapshotPath)
        XCTAssertTrue(try scan().milestones.contains("scan-confirmed"))
        let touched = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: snapshotPath)[.modificationDate] as? Date)
        XCTAssertGreaterThan(touched.timeIntervalSince(old), 86_400 * 365)
    }

    /// Every kind of change behind its back makes the check fail and the scan end the usual way, equal to a
    /// plain scan; the next run is confirmed again from the new snapshot.
    func testEveryChangeIsNoticedAndTheResultIsThePlainScan() throws {
        let changes: [(String, () throws -> Void)] = [
            ("touched", { try self.setModificationTime(of: "2023/07/IMG_0003.JPG", to: Date(timeIntervalSince1970: 1_600_000_000)) }),
            ("added", { try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"),
                                                         toPath: self.library.appendingPathComponent("2023/08/new.jpg").path) }),
            ("deleted", { try FileManager.default.removeItem(at: self.library.appendingPathComponent("IMG_0001.MOV")) }),
            ("renamed", { try FileManager.default.moveItem(at: self.library.appendingPathComponent("2023/07/PXL_0002.jpg"),
                                                           to: self.library.appendingPathComponent("2023/07/PXL_0009.jpg")) }),
            ("moved to another folder", { try FileManager.default.moveItem(
                at: self.library.appendingPathComponent("2023/08/lone.MOV"),
                to: self.library.appendingPathComponent("2023/07/lone.MOV")) }),
            ("replaced by another size", { try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("motion-photo-v1.jpeg")))
                .write(to: self.library.appendingPathComponent("2023/07/IMG_0003.JPG")) }),
            ("new folder", { try FileManager.default.createDirectory(at: self.library.appendingPathComponent("2024"),
                                                                    withIntermediateDirectories: true)
                             try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"),
                                                              toPath: self.library.appendingPathComponent("2024/a.jpg").path) }),
            ("folder emptied", { for name in try FileManager.default.contentsOfDirectory(atPath: self.library.appendingPathComponent("2024").path) {
                                     try FileManager.default.removeItem(at: self.library.appendingPathComponent("2024/" + name))
                                 } }),
        ]
        _ = try scan()
        for (what, change) in changes {
            try change()
            let expected = try plain()
            let changed = try scan()
            XCTAssertTrue(changed.reports.contains(where: \.fromIndex), "\(what): the last scan was shown first")
            XCTAssertTrue(changed.milestones.contains("scan-snapshot-stale"), "\(what): the check failed")
            XCTAssertFalse(changed.milestones.contains("scan-confirmed"), what)
            XCTAssertEqual(changed.scan.items, expected.items, what)
            XCTAssertEqual(changed.scan.warnings, expected.warnings, what)
            let again = try scan()
            XCTAssertTrue(again.milestones.contains("scan-confirmed"), "\(what): remembered anew")
            XCTAssertEqual(again.scan.items, expected.items, what)
        }
    }

    private func setModificationTime(of name: String, to date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: library.appendingPathComponent(name).path)
    }

    /// A snapshot cut anywhere, or with any byte changed, is not shown: the scan goes the usual way.
    func testDamagedSnapshotIsNeverShown() throws {
        _ = try scan()
        let good = try Data(contentsOf: URL(fileURLWithPath: snapshotPath))
        let expected = try plain()
        let bytes = [UInt8](good)
        XCTAssertNotNil(ScanSnapshot.decode(bytes, root: library.path, recursive: true))
        XCTAssertNil(ScanSnapshot.decode(bytes, root: library.path + "/", recursive: true), "another root's")
        XCTAssertNil(ScanSnapshot.decode(bytes, root: library.path, recursive: false), "another kind of scan's")
        var rng = SplitMix64(seed: 17)
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            XCTAssertNil(ScanSnapshot.decode(Array(bytes[..<cut]), root: library.path, recursive: true), "cut at \(cut)")
        }
        for _ in 0..<300 {
            var flipped = bytes
            let at = Int(rng.next() % UInt64(bytes.count))
            flipped[at] ^= UInt8(1 << (rng.next() % 8))
            XCTAssertNil(ScanSnapshot.decode(flipped, root: library.path, recursive: true), "byte \(at) flipped")
        }
        // The damaged file on disk: the scan is the plain one, and a good snapshot replaces it.
        var damaged = bytes
        damaged[bytes.count / 2] ^= 0x40
        try Data(damaged).write(to: URL(fileURLWithPath: snapshotPath))
        let afterDamage = try scan()
        XCTAssertFalse(afterDamage.reports.contains(where: \.fromIndex))
        XCTAssertEqual(afterDamage.scan.items, expected.items)
        XCTAssertTrue(try scan().milestones.contains("scan-confirmed"))
    }

    /// Only the last `limit` libraries' snapshots are kept, and a temporary a killed writer left is removed.
    func testOnlyTheLastLibrariesAreKept() throws {
        let files = snapshotFiles
        // A temporary named as livegrid's writer names them, by a process that has ended.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = files.folder + "/.scan-0000000000000000.snapshot.livegrid-\(ended.processIdentifier)-"
            + "\(TemporaryFileName.currentBoot)-00000001.tmp"
        try FileManager.default.createDirectory(atPath: files.folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: stale, contents: Data([1, 2, 3]))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: stale)
        for n in 0..<(ScanSnapshotFiles.limit + 3) {
            files.store([UInt8(n)], library: "library \(n)")
            // Stored one after another: mtimes a second apart decide which is oldest.
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: TimeInterval(1_700_000_000 + n))],
                                                  ofItemAtPath: files.path("library \(n)"))
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: files.folder)
        XCTAssertEqual(kept.filter { $0.hasSuffix(".snapshot") }.count, ScanSnapshotFiles.limit)
        XCTAssertFalse(kept.contains { $0.hasSuffix(".tmp") })
        XCTAssertNotNil(files.load(library: "library \(ScanSnapshotFiles.limit + 2)"))
        XCTAssertNil(files.load(library: "library 0"))
    }

    /// A snapshot is streamed into its file (room for its head first, the head written over it last); a writer
    /// that gives up or fails leaves no file and forgets the last one, and nothing is written past the room.
    func testAStreamedSnapshotIsWhatWasWrittenOrNothing() throws {
        let files = snapshotFiles
        try FileManager.default.createDirectory(atPath: files.folder, withIntermediateDirectories: true)  // as the index's
        files.store(library: "streamed") { output in
            try output.append([0, 0, 0])
            try output.append([4, 5])
            try output.overwrite([1, 2, 3], at: 0)
            XCTAssertThrowsError(try output.overwrite([9, 9], at: 4), "past what was written")
            return true
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: files.path("streamed"))), Data([1, 2, 3, 4, 5]))
        files.store(library: "streamed") { output in
            try output.append([7])
            return false
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: files.path("streamed")), "given up: the last one is forgotten")
        files.store([1], library: "failing")
        struct Failure: Error {}
        files.store(library: "failing") { output in
            try output.append([7])
            throw Failure()
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: files.path("failing")))
        let left = try FileManager.default.contentsOfDirectory(atPath: files.folder)
        XCTAssertFalse(left.contains { $0.hasSuffix(".tmp") }, "no temporary left: \(left)")
    }

    /// A file the scan could not stat (a dangling link named like a photo) is not known for sure: no snapshot is
    /// kept (an old one is forgotten), so every scan looks at it again.
    func testFileThatCannotBeStatedMeansNoSnapshot() throws {
        _ = try scan()
        XCTAssertTrue(FileManager.default.fileExists(atPath: snapshotPath))
        try FileManager.default.createSymbolicLink(atPath: library.appendingPathComponent("2023/08/gone.jpg").path,
                                                   withDestinationPath: "/nonexistent/livegrid/gone.jpg")
        let broken = try scan()
        XCTAssertEqual(broken.scan.items, try plain().items)
        XCTAssertFalse(FileManager.default.fileExists(atPath: snapshotPath), "the stale snapshot is forgotten")
        XCTAssertFalse(try scan().reports.contains(where: \.fromIndex))
    }

    func testModificationSecondsMatchStatForNegativeAndFractionalTimes() {
        XCTAssertEqual(LibraryScanner.modificationSeconds(1_500_000_000_250_000_000), 1_500_000_000.25)
        XCTAssertEqual(LibraryScanner.modificationSeconds(-1_500_000_000), -2 + 0.5)
        XCTAssertEqual(LibraryScanner.modificationSeconds(0), 0)
    }
}
