import XCTest

final class VideoPlaybackSmokeTests: XCTestCase {
    func testModuleBuilds() {
        XCTAssertTrue(true)
    }
}
