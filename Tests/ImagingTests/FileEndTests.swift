@testable import Imaging
import MediaFormats
import XCTest

/// "Ends early" is read from the file's last bytes: cut files are told apart, complete files with trailing
/// data (appended by some writers) are not called damaged.
final class FileEndTests: XCTestCase {
    private func cut(_ bytes: [UInt8], _ format: ContainerFormat) -> Bool {
        FileEnd.isCutShort(MemoryByteSource(bytes), format: format)
    }

    func testJPEG() {
        let body: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB] + [UInt8](repeating: 0x12, count: 300)
        XCTAssertTrue(cut(body, .jpeg))
        XCTAssertFalse(cut(body + [0xFF, 0xD9], .jpeg))
        XCTAssertFalse(cut(body + [0xFF, 0xD9, 0, 0, 0], .jpeg), "padding after EOI")
    }

    func testPNGWithAndWithoutIENDAndWithTrailingData() {
        let iend: [UInt8] = [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        let body = [UInt8](repeating: 7, count: 2000)
        XCTAssertTrue(cut(body, .png))
        XCTAssertFalse(cut(body + iend, .png))
        XCTAssertFalse(cut(body + iend + [UInt8](repeating: 1, count: 100), .png), "data appended after IEND")
    }

    func testGIFTrailerAfterZeroPadding() {
        XCTAssertTrue(cut(Array("GIF89a".utf8) + [1, 2, 3], .gif))
        XCTAssertFalse(cut(Array("GIF89a".utf8) + [1, 2, 0x3B], .gif))
        XCTAssertFalse(cut(Array("GIF89a".utf8) + [1, 2, 0x3B, 0, 0, 0], .gif))
    }

    func testRIFFAndBoxSizesPastTheEnd() {
        let webp = Array("RIFF".utf8) + [100, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [UInt8](repeating: 0, count: 40)
        XCTAssertTrue(cut(webp, .webp))
        XCTAssertFalse(cut(webp + [UInt8](repeating: 0, count: 52), .webp))
        let box: [UInt8] = [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0]
        XCTAssertFalse(cut(box, .heif))
        XCTAssertTrue(cut(box + [0, 0, 1, 0] + Array("mdat".utf8) + [1, 2, 3], .heif))
    }
}
