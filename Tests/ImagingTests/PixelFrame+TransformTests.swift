import Imaging
import XCTest

final class PixelFrameTransformTests: XCTestCase {
    /// A 3x2 frame whose pixel (x, y) has red = 10 * y + x, so positions can be read back.
    private let frame: PixelFrame = {
        var rgba: [UInt8] = []
        for y in 0..<2 { for x in 0..<3 { rgba += [UInt8(10 * y + x), 0, 0, 255] } }
        return PixelFrame(width: 3, height: 2, rgba: rgba)
    }()

    private func grid(_ f: PixelFrame) -> [[UInt8]] {
        (0..<f.height).map { y in (0..<f.width).map { x in f.rgba[(y * f.width + x) * 4] } }
    }

    func testRotations() {
        // Original:  0  1  2 / 10 11 12
        XCTAssertEqual(grid(frame.rotated(clockwiseDegrees: 90)), [[10, 0], [11, 1], [12, 2]])
        XCTAssertEqual(grid(frame.rotated(clockwiseDegrees: 180)), [[12, 11, 10], [2, 1, 0]])
        XCTAssertEqual(grid(frame.rotated(clockwiseDegrees: 270)), [[2, 12], [1, 11], [0, 10]])
        XCTAssertEqual(grid(frame.rotated(clockwiseDegrees: -90)), grid(frame.rotated(clockwiseDegrees: 270)))
        XCTAssertEqual(grid(frame.rotated(clockwiseDegrees: 360)), grid(frame))
    }

    func testFlipsAndDiagonals() {
        XCTAssertEqual(grid(frame.flippedHorizontally()), [[2, 1, 0], [12, 11, 10]])
        XCTAssertEqual(grid(frame.flippedVertically()), [[10, 11, 12], [0, 1, 2]])
        XCTAssertEqual(grid(frame.transposed()), [[0, 10], [1, 11], [2, 12]])
        XCTAssertEqual(grid(frame.transversed()), [[12, 2], [11, 1], [10, 0]])
    }

    func testExifOrientations() {
        XCTAssertEqual(grid(frame.applyingExifOrientation(1)), grid(frame))
        XCTAssertEqual(grid(frame.applyingExifOrientation(2)), grid(frame.flippedHorizontally()))
        XCTAssertEqual(grid(frame.applyingExifOrientation(3)), grid(frame.rotated(clockwiseDegrees: 180)))
        XCTAssertEqual(grid(frame.applyingExifOrientation(4)), grid(frame.flippedVertically()))
        XCTAssertEqual(grid(frame.applyingExifOrientation(5)), grid(frame.transposed()))
        XCTAssertEqual(grid(frame.applyingExifOrientation(6)), grid(frame.rotated(clockwiseDegrees: 90)))
        XCTAssertEqual(grid(frame.applyingExifOrientation(7)), grid(frame.transversed()))
        XCTAssertEqual(grid(frame.applyingExifOrientation(8)), grid(frame.rotated(clockwiseDegrees: 270)))
        XCTAssertEqual(grid(frame.applyingExifOrientation(0)), grid(frame))
        XCTAssertEqual(grid(frame.applyingExifOrientation(99)), grid(frame))
        // Orientation 7 equals "flip horizontally, then rotate 90° clockwise" (its Exif definition).
        XCTAssertEqual(grid(frame.applyingExifOrientation(7)), grid(frame.flippedHorizontally().rotated(clockwiseDegrees: 90)))
        XCTAssertEqual(grid(frame.applyingExifOrientation(5)), grid(frame.flippedHorizontally().rotated(clockwiseDegrees: 270)))
    }

    func testEmptyFrame() {
        let empty = PixelFrame(width: 0, height: 0, rgba: [])
        XCTAssertEqual(empty.rotated(clockwiseDegrees: 90).width, 0)
    }

    func testCompositionsOnALargerFrame() {
        var generator = SystemRandomNumberGenerator()
        let big = PixelFrame(width: 37, height: 23, rgba: (0..<(37 * 23 * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let fourTurns = big.rotated(clockwiseDegrees: 90).rotated(clockwiseDegrees: 90).rotated(clockwiseDegrees: 90).rotated(clockwiseDegrees: 90)
        XCTAssertEqual(fourTurns.rgba, big.rgba)
        XCTAssertEqual(big.rotated(clockwiseDegrees: 90).rotated(clockwiseDegrees: 270).rgba, big.rgba)
        XCTAssertEqual(big.transposed().transposed().rgba, big.rgba)
        XCTAssertEqual(big.transversed().rgba, big.transposed().rotated(clockwiseDegrees: 180).rgba)
        XCTAssertEqual(big.flippedHorizontally().flippedVertically().rgba, big.rotated(clockwiseDegrees: 180).rgba)
    }
}
