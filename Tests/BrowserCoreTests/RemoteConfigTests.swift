import BrowserCore
import LibraryCore
import TestSupport
import XCTest

/// `[remote] max_entries` (issue 17.5): the documented default, a value, and plain refusals.
final class RemoteConfigTests: XCTestCase {
    func testMaxEntriesDefaultValueAndRefusals() throws {
        let documented = try BrowserConfig.load(path: Fixtures.packageRoot.appendingPathComponent("Resources/config.toml").path)
        XCTAssertEqual(documented.remoteMaxEntries, 200_000)
        XCTAssertEqual(BrowserConfig().remoteMaxEntries, RemoteListingLimits.defaultMaxEntries)
        XCTAssertEqual(try BrowserConfig(parsing: "[remote]\nmax_entries = 5000\n").remoteMaxEntries, 5000)
        for bad in ["max_entries = 0", "max_entries = \"many\"", "max_entries = -3"] {
            XCTAssertThrowsError(try BrowserConfig(parsing: "[remote]\n\(bad)\n"), bad) { error in
                XCTAssertTrue("\(error)".contains("remote.max_entries must be a whole number of 1 or more"), "\(error)")
            }
        }
    }

    func testTheCutMessageSaysWhatHappenedAndHowToChangeIt() {
        let message = BrowserState.truncationMessage(kept: 200_000, limit: 200_000)
        XCTAssertTrue(message.contains("more than 200000 entries"))
        XCTAssertTrue(message.contains("only the first 200000 are shown"))
        XCTAssertTrue(message.contains("remote.max_entries") && message.contains("--max-entries"))
    }
}
