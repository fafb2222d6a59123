import Imaging
import XCTest

final class PNGCodecTests: XCTestCase {
    func testRoundTripWithTextChunks() throws {
        var frame = PixelFrame(width: 3, height: 2, fill: (10, 20, 30, 255))
        frame.rgba[4] = 200; frame.rgba[7] = 128
        let png = try PNGCodec.encode(frame, text: [("Thumb::URI", "file:///x.jpg"), ("Thumb::MTime", "1234")])
        XCTAssertEqual(PNGChunks.textEntries(of: png), ["Thumb::URI": "file:///x.jpg", "Thumb::MTime": "1234"])
        let back = try PNGCodec.decode(png)
        XCTAssertEqual(back.size, frame.size)
        XCTAssertEqual(back.rgba, frame.rgba)
    }

    func testGarbageIsAnError() {
        XCTAssertThrowsError(try PNGCodec.decode([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
        XCTAssertThrowsError(try PNGCodec.decode([]))
        XCTAssertEqual(PNGChunks.textEntries(of: [1, 2, 3]), [:])
    }
}
