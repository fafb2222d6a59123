import XCTest

final class BrowserCoreSmokeTests: XCTestCase {
    func testModuleBuilds() {
        XCTAssertTrue(true)
    }
}
