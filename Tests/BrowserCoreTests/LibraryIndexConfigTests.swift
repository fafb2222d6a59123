import BrowserCore
import XCTest

/// `[library] index` switches the persistent library index (the CLI's `--no-index` sets the same field).
final class LibraryIndexConfigTests: XCTestCase {
    func testIndexIsOnByDefaultAndTheConfigTurnsItOff() throws {
        XCTAssertTrue(BrowserConfig().libraryIndex)
        let off = try BrowserConfig(parsing: "[library]\nindex = false\n")
        XCTAssertFalse(off.libraryIndex)
        XCTAssertEqual(off.warnings, [])
    }

    func testANonBooleanIsALineNumberedError() {
        XCTAssertThrowsError(try BrowserConfig(parsing: "[library]\nindex = \"no\"\n")) { error in
            XCTAssertTrue("\(error)".contains("library.index must be true or false"), "\(error)")
        }
    }
}
