import BrowserCore
import TerminalProtocol
@testable import TerminalUI
import XCTest

/// Keys typed at launch keep their order and are acted on once there is something to act on
/// (TypeAheadEndToEndTests lost one `l` of two when the second came through the reader while the first waited).
final class TypeAheadQueueTests: XCTestCase {
    private func keys(_ events: [TerminalEvent]) -> String {
        String(events.compactMap { event -> Character? in
            guard case .key(.character(let c)) = event else { return nil }
            return c
        })
    }

    func testKeysReadWhileEarlierOnesWaitAreHeldBehindThem() {
        var queue = TypeAheadQueue([.key(.character("a"))])
        let now = queue.admit([.key(.character("b")), .resize(TerminalSize(columns: 80, rows: 24))], due: false)
        XCTAssertEqual(keys(now), "", "the later key waits too")
        XCTAssertEqual(now.count, 1, "the resize passes at once")
        XCTAssertEqual(keys(queue.admit([.key(.character("c"))], due: true)), "abc", "in the order typed")
        XCTAssertTrue(queue.isEmpty)
    }

    func testWithNothingHeldKeysPassAtOnce() {
        var queue = TypeAheadQueue([])
        XCTAssertEqual(keys(queue.admit([.key(.character("l"))], due: false)), "l")
    }

    func testAQuitKeyActsAtOnceAndTheHeldKeysGoWithIt() {
        var queue = TypeAheadQueue([.key(.character("l"))])
        let now = queue.admit([.key(.character("q"))], due: false) { event in
            if case .key(.character("q")) = event { return true }
            return false
        }
        XCTAssertEqual(keys(now), "q")
        XCTAssertTrue(queue.isEmpty)
    }
}
