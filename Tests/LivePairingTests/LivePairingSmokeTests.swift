import XCTest

final class LivePairingSmokeTests: XCTestCase {
    func testModuleBuilds() {
        XCTAssertTrue(true)
    }
}
