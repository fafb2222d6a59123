import Foundation
import Library
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// Issue 15.3 (folders named like files) and 15.4 (names that are not UTF-8) in the scanner.
final class LibraryScannerNamesTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory("livegrid-names")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func place(_ fixture: String, at relative: String) throws {
        let target = dir.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.committed(fixture), toPath: target.path)
    }

    func testFoldersNamedLikeMediaFilesAreDescendedIntoAndNeverListed() throws {
        try place("train.jpg", at: "top.jpg")
        try place("motion-photo-v1.jpeg", at: "jpg/a.jpeg")
        try place("motion-photo-v1.jpeg", at: "heic/b.jpeg")
        try place("train.jpg", at: "trip.jpg/inner.jpg")
        try place("train.mov", at: "trip.jpg/inner.mov")
        try place("motion-photo-v1.jpeg", at: "trip.jpg/deeper.mov/c.jpeg")
        let flat = try LibraryScanner.scan(directory: dir.path)
        XCTAssertEqual(flat.items.map(\.displayName), ["top.jpg"], "a folder is not an item")
        XCTAssertEqual(flat.items.first?.warnings.contains { $0.contains("No such file") || $0.contains("Is a directory") }, false)

        let deep = try LibraryScanner.scan(directory: dir.path, recursive: true)
        XCTAssertEqual(Set(deep.items.map(\.displayName)), ["top.jpg", "a.jpeg", "b.jpeg", "inner.jpg", "c.jpeg"])
        XCTAssertEqual(deep.fileCount, 6)
        XCTAssertEqual(deep.items.first { $0.displayName == "inner.jpg" }?.kind, .live)
        XCTAssertEqual(deep.warnings, [])
    }

    func testSymbolicLinkLoopsEndAndLinkedFilesCount() throws {
        try place("train.jpg", at: "sub/a.jpg")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("sub/loop.jpg").path,
                                                   withDestinationPath: dir.path)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("sub/back").path,
                                                   withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.jpg").path,
                                                   withDestinationPath: "sub/a.jpg")
        XCTAssertEqual(mkfifo(dir.appendingPathComponent("pipe.jpg").path, 0o644), 0)
        let deep = try LibraryScanner.scan(directory: dir.path, recursive: true)
        XCTAssertEqual(deep.items.map(\.displayName).sorted(), ["a.jpg", "link.jpg"],
                       "a link to a folder is not followed; a FIFO named like a photo is not opened")
    }

    func testAFileNameThatIsNotUTF8IsListedProbedAndKeepsItsBytes() throws {
        let rawName: [UInt8] = Array("train".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8)
        let source = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg")))
        var rawPath = Array(dir.path.utf8) + [0x2F] + rawName + [0]
        let fd = rawPath.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_WRONLY | O_CREAT, 0o644) }
        }
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = source.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)

        let scan = try LibraryScanner.scan(directory: dir.path)
        let item = try XCTUnwrap(scan.items.first)
        XCTAssertEqual(item.still?.info.format, .jpeg, "probed, not 'No such file or directory': \(item.warnings)")
        XCTAssertEqual(item.still?.info.contentIdentifier, "E905E6C6-C747-4805-942F-9904A0281F02")
        XCTAssertEqual(PathBytes.bytes(of: item.displayName), rawName)
        XCTAssertEqual(VisibleText.escaped(item.displayName), "train\u{FFFD}\u{FFFD}.jpg")
        let report = ScanReport(scan)
        XCTAssertEqual(report.items.first?.files.first?.pathBase64, Data(Array(dir.path.utf8) + [0x2F] + rawName).base64EncodedString())
        XCTAssertTrue(try report.json().contains("train\u{FFFD}\u{FFFD}.jpg"))
        XCTAssertEqual(report.items.first?.nameBase64, Data(rawName).base64EncodedString())
        let plain = ScanReport(try LibraryScanner.scan(directory: Fixtures.committed(""))).items.first
        XCTAssertNil(plain?.files.first?.pathBase64)
        XCTAssertNil(plain?.nameBase64)
    }

    func testMissingAndNotADirectoryAreToldApart() {
        XCTAssertThrowsError(try LibraryScanner.scan(directory: dir.path + "/missing")) {
            XCTAssertEqual("\($0)", dir.path + "/missing does not exist")
        }
        _ = FileManager.default.createFile(atPath: dir.path + "/file.jpg", contents: Data())
        XCTAssertThrowsError(try LibraryScanner.scan(directory: dir.path + "/file.jpg")) {
            XCTAssertEqual("\($0)", dir.path + "/file.jpg is not a directory")
        }
    }

    func testTheTableKeepsColumnsAndCountsInEnglish() throws {
        try place("train.jpg", at: "a-name-that-is-much-longer-than-its-column-in-the-table.jpg")
        let lines = ScanReport(try LibraryScanner.scan(directory: dir.path)).tableLines()
        let row = try XCTUnwrap(lines.first { $0.hasPrefix("still") })
        // KIND is 7 columns, NAME 34: the truncated name ends in "…" and a space, then SIZE starts.
        let name = row.unicodeScalars.dropFirst(7).prefix(34)
        XCTAssertEqual(String(String.UnicodeScalarView(name)).last, " ", row)
        XCTAssertTrue(String(String.UnicodeScalarView(name)).hasSuffix("… "), row)
        XCTAssertTrue(row.contains("… 4032x3024"), row)
        XCTAssertTrue(lines.contains("1 item (0 live, 0 motion, 1 still, 0 video) from 1 file"), lines.joined(separator: "\n"))
    }
}
