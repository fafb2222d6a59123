@testable import Imaging
import XCTest

final class StudioAdjustmentsTests: XCTestCase {
    func testCropIsCentredEvenAndRelativeToEachPicture() {
        let square = StudioAdjustments(aspectRatio: (1, 1))
        XCTAssertEqual(square.cropSize(width: 1920, height: 1080)?.width, 1080)
        XCTAssertEqual(square.cropSize(width: 1920, height: 1080)?.height, 1080)
        XCTAssertEqual(square.cropSize(width: 3024, height: 4032)?.height, 3024)
        let portrait = StudioAdjustments(aspectRatio: (4, 5))
        let size = portrait.cropSize(width: 1441, height: 1081)
        XCTAssertEqual(size?.width, 864)
        XCTAssertEqual(size?.height, 1080)
        XCTAssertNil(StudioAdjustments().cropSize(width: 10, height: 10))
    }

    func testFiltersPutTheCropLastAndSkipNeutralValues() {
        XCTAssertEqual(StudioAdjustments().filters(width: 100, height: 100), [])
        let all = StudioAdjustments(aspectRatio: (1, 1), exposure: -1, contrast: 1.2, saturation: 1, blackAndWhite: true)
        let chain = all.filters(width: 200, height: 100)
        XCTAssertEqual(chain.last, "crop=100:100")
        XCTAssertTrue(chain[0].hasPrefix("colorlevels=romax=0.5"), chain[0])
        XCTAssertTrue(chain.contains("hue=s=0"))
        XCTAssertTrue(chain.contains { $0.hasPrefix("eq=contrast=1.2") })
    }

    func testOutOfRangeValuesAreExplained() {
        XCTAssertNotNil(StudioAdjustments(exposure: 9).problem)
        XCTAssertNotNil(StudioAdjustments(contrast: -1).problem)
        XCTAssertNotNil(StudioAdjustments(saturation: .nan).problem)
        XCTAssertNotNil(StudioAdjustments(aspectRatio: (0, 1)).problem)
        XCTAssertNil(StudioAdjustments(aspectRatio: (16, 9), exposure: 1).problem)
    }
}
