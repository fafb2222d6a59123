import Foundation
import Library
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// Issue 31.2 and 31.10 in the scanner: a scan that does not descend names the folder's subfolders (the
/// browser shows them as cells), and `scan -r`'s table has a FOLDER column.
final class LibraryScannerFoldersTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory("livegrid-folders")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func place(_ relative: String) throws {
        let target = dir.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: target.path)
    }

    func testAFolderScanNamesItsSubfoldersInNaturalOrder() throws {
        try place("top.jpg")
        try place("trip 10/a.jpg")
        try place("trip 9/b.jpg")
        try FileManager.default.createDirectory(atPath: dir.path + "/.hidden", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.path + "/empty", withIntermediateDirectories: true)
        let expected = ["empty", "trip 9", "trip 10"].map { dir.path + "/" + $0 }

        let scan = try LibraryScanner.scan(directory: dir.path)
        XCTAssertEqual(scan.folders, expected, "hidden folders left out, numbers compared as numbers")
        XCTAssertFalse(scan.recursive)
        XCTAssertEqual(scan.items.count, 1)
        let progressive = try LibraryScanner.scanProgressively(directory: dir.path, progress: { _ in })
        XCTAssertEqual(progressive.folders, expected)

        let recursive = try LibraryScanner.scan(directory: dir.path, recursive: true)
        XCTAssertEqual(recursive.folders, [], "-r shows every photo below instead")
        XCTAssertTrue(recursive.recursive)
        XCTAssertEqual(recursive.items.count, 3)
    }

    func testAFolderOfOnlySubfoldersNamesThem() throws {
        try place("2023/x.jpg")
        try place("2024/y.jpg")
        let scan = try LibraryScanner.scanProgressively(directory: dir.path, progress: { _ in })
        XCTAssertEqual(scan.items.count, 0)
        XCTAssertEqual(scan.folders.map { ($0 as NSString).lastPathComponent }, ["2023", "2024"])
    }

    func testTheRecursiveTableHasAFolderColumn() throws {
        try place("top.jpg")
        try place("2024/trip/a.jpg")
        let scan = try LibraryScanner.scan(directory: dir.path, recursive: true)
        let lines = ScanReport(scan).tableLines(folders: true)
        XCTAssertTrue(lines[0].hasPrefix("KIND   FOLDER "), lines[0])
        let rows = lines.filter { $0.hasPrefix("still") }
        XCTAssertTrue(rows.contains { $0.hasPrefix("still  2024/trip ") && $0.contains("a.jpg") }, rows.joined(separator: "\n"))
        XCTAssertTrue(rows.contains { $0.hasPrefix("still  .  ") && $0.contains("top.jpg") }, rows.joined(separator: "\n"))
        XCTAssertFalse(ScanReport(scan).tableLines()[0].contains("FOLDER"), "only with -r")
    }
}
