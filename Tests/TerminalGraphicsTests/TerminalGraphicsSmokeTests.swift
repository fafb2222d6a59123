import XCTest

final class TerminalGraphicsSmokeTests: XCTestCase {
    func testModuleBuilds() {
        XCTAssertTrue(true)
    }
}
