import Foundation
@testable import BrowserRuntime
import XCTest

/// The event loop's wait: a post from another thread wakes `poll()`, timers give the timeout.
final class LoopWakeTests: XCTestCase {
    func testPostFromAnotherThreadWakesTheWait() {
        let inbox = EventInbox()
        // A pipe that is never readable stands in for the tty.
        var never: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&never), 0)
        defer { close(never[0]); close(never[1]) }
        Thread.detachNewThread { inbox.post(.showMessage("hello")) }
        let wakeup = LoopWait.wait(tty: never[0], wake: inbox.wake, timeoutMilliseconds: 10_000)
        XCTAssertTrue(wakeup.contains(.posted), "woke for \(wakeup.traceName)")
        XCTAssertEqual(inbox.drain().count, 1)
        // Drained: the next wait sleeps until its timeout.
        XCTAssertEqual(LoopWait.wait(tty: never[0], wake: inbox.wake, timeoutMilliseconds: 0), .timer)
    }

    func testWakeBeforeTheWaitIsNotLost() {
        let inbox = EventInbox()
        var never: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&never), 0)
        defer { close(never[0]); close(never[1]) }
        for _ in 0..<10_000 { inbox.wake.wake() }   // more than the pipe holds: extra wakes are dropped
        XCTAssertTrue(LoopWait.wait(tty: never[0], wake: inbox.wake, timeoutMilliseconds: 10_000).contains(.posted))
        _ = inbox.drain()
        XCTAssertEqual(LoopWait.wait(tty: never[0], wake: inbox.wake, timeoutMilliseconds: 0), .timer)
    }

    func testTimersGiveTheEarliestDeadlineRoundedUp() {
        var timers = LoopTimers()
        XCTAssertEqual(timers.pollTimeout(now: 100), -1, "no timer: sleep until something happens")
        timers.add("hold", at: 100.7001)
        timers.add("none", at: nil)
        timers.add("hint", at: 101.5)
        XCTAssertEqual(timers.earliest?.name, "hold")
        XCTAssertEqual(timers.pollTimeout(now: 100), 701)
        XCTAssertEqual(timers.pollTimeout(now: 200), 0, "a past deadline fires at once")
    }
}
