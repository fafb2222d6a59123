import XCTest
@testable import MediaFormats

/// Sub-readers are windows on their parent's buffer (issue 17): they must read, bound and report offsets
/// exactly as the copies they replaced did.
final class ByteReaderWindowTests: XCTestCase {
    private let buffer: [UInt8] = Array(0..<32)

    func testSubReaderSeesOnlyItsWindowWithFileOffsets() throws {
        var outer = ByteReader(buffer, baseOffset: 1000)
        try outer.skip(4)
        var inner = try outer.subReader(8)
        XCTAssertEqual(outer.position, 12, "the parent skips the whole window")
        XCTAssertEqual(inner.count, 8)
        XCTAssertEqual(inner.baseOffset, 1004)
        XCTAssertEqual(inner.bytes, Array(4..<12))
        XCTAssertEqual(try inner.readU32(), 0x0405_0607)
        var nested = try inner.subReader(2)
        XCTAssertEqual(nested.fileOffset, 1008)
        XCTAssertEqual(try nested.readU16(), 0x0809)
        XCTAssertThrowsError(try nested.readU8(), "a window ends where it ends, not at the buffer's end")
        XCTAssertEqual(inner.remaining, 2)
        XCTAssertEqual(inner.peekU8(at: 2), nil)
        XCTAssertThrowsError(try inner.readU32()) { error in
            XCTAssertEqual(error as? MediaError, .truncated(at: 1010, needed: 2))
        }
    }

    func testSliceWindowAndCStringStayInsideTheWindow() throws {
        var outer = ByteReader([0x41, 0x42, 0x00, 0x43, 0x44, 0x45, 0x46, 0x47])
        try outer.skip(3)
        var inner = try outer.subReader(3)
        XCTAssertEqual(inner.slice(1, 2).map(Array.init), [0x44, 0x45])
        XCTAssertNil(inner.slice(2, 2), "a slice past the window is nil even though the buffer goes on")
        XCTAssertNil(inner.window(0, 4, baseOffset: 0))
        XCTAssertEqual(inner.window(1, 2, baseOffset: 99)?.bytes, [0x44, 0x45])
        XCTAssertEqual(try inner.readCString(), "CDE", "no NUL inside the window: the string stops at its end")
        XCTAssertTrue(inner.isAtEnd)
        try inner.seek(to: 1)
        XCTAssertThrowsError(try inner.readFourCC(), "two bytes remain in the window, not four")
        XCTAssertThrowsError(try inner.seek(to: 4))
    }
}
