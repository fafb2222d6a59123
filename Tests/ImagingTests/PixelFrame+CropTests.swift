import XCTest
@testable import Imaging

final class PixelFrameCropTests: XCTestCase {
    /// A frame whose every pixel says where it is: r = x, g = y, b = x ^ y.
    private func coordinateFrame(width: Int, height: Int) -> PixelFrame {
        var rgba = [UInt8]()
        for y in 0..<height {
            for x in 0..<width { rgba += [UInt8(x), UInt8(y), UInt8(x ^ y), 255] }
        }
        return PixelFrame(width: width, height: height, rgba: rgba)
    }

    func testCropKeepsExactlyThePixelsOfTheRectangle() {
        let frame = coordinateFrame(width: 40, height: 30)
        let crop = frame.cropped(to: PixelRect(x: 7, y: 11, width: 5, height: 3))
        XCTAssertEqual(crop.width, 5)
        XCTAssertEqual(crop.height, 3)
        for y in 0..<3 {
            for x in 0..<5 {
                let i = (y * 5 + x) * 4
                XCTAssertEqual(Array(crop.rgba[i..<i + 4]), [UInt8(7 + x), UInt8(11 + y), UInt8((7 + x) ^ (11 + y)), 255])
            }
        }
    }

    func testCropIsClippedToTheFrame() {
        let frame = coordinateFrame(width: 20, height: 10)
        let crop = frame.cropped(to: PixelRect(x: 15, y: -4, width: 10, height: 8))
        XCTAssertEqual(crop.width, 5)
        XCTAssertEqual(crop.height, 4)
        XCTAssertEqual(Array(crop.rgba[0..<4]), [15, 0, 15, 255])
        XCTAssertEqual(frame.cropped(to: PixelRect(x: 30, y: 0, width: 4, height: 4)).width, 0)
    }
}
