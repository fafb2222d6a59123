import VideoPlayback
import XCTest

final class FrameClockTests: XCTestCase {
    func testDeadlinesAreStartPlusPtsMinusFirstPts() {
        var clock = FrameClock(start: 100)
        XCTAssertEqual(clock.deadline(for: 0.5, now: 100), 100)
        XCTAssertEqual(clock.deadline(for: 0.6, now: 100), 100.1, accuracy: 1e-9)
        XCTAssertEqual(clock.deadline(for: 1.5, now: 100.7), 101, accuracy: 1e-9)
        XCTAssertEqual(clock.firstPTS, 0.5)
    }

    func testStartsAtFirstUseWhenNotGiven() {
        var clock = FrameClock()
        XCTAssertEqual(clock.decide(pts: 2, duration: 0.1, now: 50), .show)
        XCTAssertEqual(clock.start, 50)
        if case .wait(let s) = clock.decide(pts: 2.1, duration: 0.1, now: 50.02) {
            XCTAssertEqual(s, 0.08, accuracy: 1e-9)
        } else { XCTFail("expected a wait") }
    }

    func testWaitsShowsAndDropsWithoutDrift() {
        var clock = FrameClock(start: 10, tolerance: 0.005, maximumFreeze: 10)
        XCTAssertEqual(clock.decide(pts: 0, duration: 0.1, now: 10), .show)
        if case .wait(let s) = clock.decide(pts: 0.1, duration: 0.1, now: 10.05) {
            XCTAssertEqual(s, 0.05, accuracy: 1e-9)
        } else { XCTFail("expected a wait") }
        // Shown a little late (inside its slot): fine, and later deadlines do not move.
        XCTAssertEqual(clock.decide(pts: 0.1, duration: 0.1, now: 10.15), .show)
        XCTAssertEqual(clock.deadline(for: 0.2, now: 10.15), 10.2, accuracy: 1e-9)
        // Past its slot: dropped and counted.
        XCTAssertEqual(clock.decide(pts: 0.2, duration: 0.1, now: 10.31), .drop)
        XCTAssertEqual(clock.decide(pts: 0.3, duration: 0.1, now: 10.31), .show)
        XCTAssertEqual(clock.droppedFrames, 1)
        XCTAssertEqual(clock.shownFrames, 3)
        clock.countDropped(2)
        XCTAssertEqual(clock.droppedFrames, 3)
    }

    func testSlowDecodingStillShowsAFrameEveryMaximumFreeze() {
        // Every frame arrives 0.2 s after its slot: without the freeze limit nothing after frame 0 would show.
        var clock = FrameClock(start: 0, tolerance: 0, maximumFreeze: 0.25)
        XCTAssertEqual(clock.decide(pts: 0, duration: 0.1, now: 0), .show)
        var shown = 0
        for n in 1..<30 {
            let pts = Double(n) * 0.1
            if clock.decide(pts: pts, duration: 0.1, now: pts + 0.3) == .show { shown += 1 }
        }
        XCTAssertGreaterThan(shown, 5)
        XCTAssertGreaterThan(clock.droppedFrames, 10)
    }

    func testMonotonicClockAdvances() {
        let a = MonotonicClock.now()
        let b = MonotonicClock.now()
        XCTAssertGreaterThanOrEqual(b, a)
    }
}
