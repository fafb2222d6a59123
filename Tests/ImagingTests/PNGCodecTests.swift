import Imaging
import TestSupport
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

    /// A movie frame's PNG (issue 28.4): the real photo at a kitty frame's size, one Sub filter at zlib level 1.
    /// It decodes to the same pixels, and is smaller than libpng's unfiltered fast PNG (which it replaced for
    /// frames), within 10 % of the most-effort PNG.
    func testAMovieFramesPNGIsLosslessAndNearlyAsSmallAsTheMostEffortOne() throws {
        let photo = try ImageDecoder.decode(path: Fixtures.committed("train.jpg"), fitting: PixelSize(width: 293, height: 220)).frame
        let quick = try PNGCodec.encodeForSpeed(photo, opaque: true)
        XCTAssertEqual(try PNGCodec.decode(quick).rgba, photo.rgba)
        let unfiltered = try PNGCodec.encodePixels(photo, opaque: true, fast: true)
        let mostEffort = try PNGCodec.encodePixels(photo, opaque: true, fast: false)
        XCTAssertLessThan(quick.count, unfiltered.count)
        XCTAssertLessThan(Double(quick.count), Double(mostEffort.count) * 1.1, "\(quick.count) against \(mostEffort.count)")
        // With alpha, and noise (larger than its pixels) at an odd size: whole.
        var noise = PixelFrame(width: 97, height: 61)
        for index in noise.rgba.indices { noise.rgba[index] = UInt8.random(in: 0...255) }
        XCTAssertEqual(try PNGCodec.decode(PNGCodec.encodeForSpeed(noise, opaque: false)).rgba, noise.rgba)
    }

    func testGarbageIsAnError() {
        XCTAssertThrowsError(try PNGCodec.decode([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
        XCTAssertThrowsError(try PNGCodec.decode([]))
        XCTAssertEqual(PNGChunks.textEntries(of: [1, 2, 3]), [:])
    }
}
