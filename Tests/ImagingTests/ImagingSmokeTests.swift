import XCTest

final class ImagingSmokeTests: XCTestCase {
    func testModuleBuilds() {
        XCTAssertTrue(true)
    }
}
