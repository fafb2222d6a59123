import Concurrent
import Foundation
import XCTest

final class NamedThreadTests: XCTestCase {
    /// The body runs on a thread of its own that carries the name (what `top -H` shows).
    func testBodyRunsOnANewThreadWithTheName() {
        let seen = Locked<(name: String?, isMain: Bool)?>(nil)
        let done = expectation(description: "ran")
        NamedThread.start("livegrid-test") {
            seen.set((Thread.current.name, Thread.isMainThread))
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.value?.name, "livegrid-test")
        XCTAssertEqual(seen.value?.isMain, false)
    }
}
