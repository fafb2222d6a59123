import Imaging
import XCTest

final class PixelFrameResizeTests: XCTestCase {
    func testAreaAverageOfTwoByTwoBlocks() {
        // 4x2: left half black, right half white -> 2x1: black, white; 1x1: mid grey.
        var f = PixelFrame(width: 4, height: 2, fill: (0, 0, 0, 255))
        for y in 0..<2 { for x in 2..<4 { for c in 0..<3 { f.rgba[(y * 4 + x) * 4 + c] = 255 } } }
        let half = f.resized(to: PixelSize(width: 2, height: 1))
        XCTAssertEqual(Array(half.rgba[0..<4]), [0, 0, 0, 255])
        XCTAssertEqual(Array(half.rgba[4..<8]), [255, 255, 255, 255])
        let one = f.resized(to: PixelSize(width: 1, height: 1))
        XCTAssertEqual(Int(one.rgba[0]), 128, accuracy: 1)
    }

    func testNonIntegerRatioKeepsASolidColour() {
        let f = PixelFrame(width: 97, height: 61, fill: (12, 34, 56, 255))
        let r = f.resized(to: PixelSize(width: 30, height: 19))
        XCTAssertEqual(r.size, PixelSize(width: 30, height: 19))
        XCTAssertTrue(stride(from: 0, to: r.rgba.count, by: 4).allSatisfy { r.rgba[$0] == 12 && r.rgba[$0 + 2] == 56 })
    }

    func testFittedKeepsAspectAndNeverEnlarges() {
        let f = PixelFrame(width: 400, height: 300)
        XCTAssertEqual(f.fitted(in: PixelSize(square: 128)).size, PixelSize(width: 128, height: 96))
        XCTAssertEqual(f.fitted(in: PixelSize(square: 1000)).size, f.size)
    }
}
