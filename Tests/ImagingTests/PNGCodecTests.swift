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

    /// The one-pass encode writes into libpng's upper bound: noise (which deflate cannot shrink, so the PNG is
    /// larger than the pixels) at odd sizes, opaque and not, fast and filtered, must still come out whole.
    func testIncompressiblePicturesEncodeWholeInOnePass() throws {
        var generator = SystemRandomNumberGenerator()
        for (width, height) in [(1, 1), (97, 61), (640, 3)] {
            for opaque in [true, false] {
                var frame = PixelFrame(width: width, height: height)
                for index in frame.rgba.indices { frame.rgba[index] = UInt8.random(in: 0...255, using: &generator) }
                if opaque { for alpha in stride(from: 3, to: frame.rgba.count, by: 4) { frame.rgba[alpha] = 255 } }
                for fast in [true, false] {
                    let png = try PNGCodec.encodePixels(frame, opaque: opaque, fast: fast)
                    XCTAssertGreaterThan(png.count, width * height * (opaque ? 3 : 4), "noise does not deflate")
                    XCTAssertEqual(try PNGCodec.decode(png).rgba, frame.rgba, "\(width)x\(height) opaque \(opaque) fast \(fast)")
                }
            }
        }
    }

    func testGarbageIsAnError() {
        XCTAssertThrowsError(try PNGCodec.decode([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
        XCTAssertThrowsError(try PNGCodec.decode([]))
        XCTAssertEqual(PNGChunks.textEntries(of: [1, 2, 3]), [:])
    }
}
