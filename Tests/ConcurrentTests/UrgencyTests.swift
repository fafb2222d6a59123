import Concurrent
import XCTest

/// The one urgency scale (issue 27 item 5): one order, least urgent first.
final class UrgencyTests: XCTestCase {
    func testTheOrderRunsFromPrefetchToTheFirstScreen() {
        XCTAssertEqual(Urgency.allCases.sorted(), [.prefetch, .visible, .selected, .play, .firstScreen])
        XCTAssertEqual(Urgency.allCases.max(), .firstScreen)
        XCTAssertEqual(Urgency.allCases.min(), .prefetch)
        XCTAssertLessThan(Urgency.visible, Urgency.play, "a download the user asked for outranks a visible cell's")
        XCTAssertLessThan(Urgency.prefetch, Urgency.visible, "the next page waits for the screen")
    }
}
