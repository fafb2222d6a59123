import MediaFormats
import LibrarySources
import TestSupport
import XCTest

final class AtomicFileWriterTests: XCTestCase {
    func testWritesAndRenamesIntoPlace() throws {
        let dir = try Fixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.bin").path
        try AtomicFileWriter.write([1, 2, 3], to: path, permissions: 0o600)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data([1, 2, 3]))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["out.bin"])
    }

    func testAnAbortedWriteLeavesNothingUnderTheFinalName() throws {
        let dir = try Fixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("photo.jpg").path
        do {
            let writer = try AtomicFileWriter(destination: path)
            try writer.write([UInt8](repeating: 7, count: 1000))
            // Simulated failure mid-copy: the writer is dropped without commit.
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testNoReplaceRefusesToClobber() throws {
        let dir = try Fixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("a").path
        try AtomicFileWriter.write([1], to: path)
        XCTAssertThrowsError(try AtomicFileWriter.write([2], to: path, replace: false))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data([1]))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["a"])
    }
}
