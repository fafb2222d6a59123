import Concurrent
import Foundation
import Imaging
import XCTest

final class ThumbnailSchedulerTests: XCTestCase {
    final class Recorder: @unchecked Sendable {
        let lock = NSLock()
        var order: [String] = []
        func add(_ s: String) { lock.withLock { order.append(s) } }
        var all: [String] { lock.withLock { order } }
    }

    func key(_ id: String) -> String { id }
    func frame() -> Result<PixelFrame, ImagingError> { .success(PixelFrame(width: 1, height: 1)) }

    func testPrioritiesCancellationAndStaleResults() {
        let scheduler = ThumbnailScheduler<String>(workers: 1)
        let recorder = Recorder()
        let gate = DispatchSemaphore(value: 0)
        let done = expectation(description: "all delivered")
        done.expectedFulfillmentCount = 3
        // Occupy the only worker so the rest queue up.
        let started = DispatchSemaphore(value: 0)
        scheduler.submit(key("blocker"), priority: .visible,
                         job: { started.signal(); gate.wait(); return .success(PixelFrame(width: 1, height: 1)) },
                         completion: { k, _ in recorder.add(k); done.fulfill() })
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success, "the worker took the blocker")
        scheduler.submit(key("prefetch"), priority: .prefetch, job: { self.frame() },
                         completion: { k, _ in recorder.add(k); done.fulfill() })
        scheduler.submit(key("cancelled"), priority: .visible, job: { self.frame() },
                         completion: { k, _ in recorder.add(k) })
        scheduler.submit(key("visible"), priority: .visible, job: { self.frame() },
                         completion: { k, _ in recorder.add(k); done.fulfill() })
        scheduler.cancel(key("cancelled"))
        XCTAssertEqual(scheduler.queuedCount, 2)
        gate.signal()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(recorder.all, ["blocker", "visible", "prefetch"])
    }

    func testAResubmittedKeyDropsTheRunningResult() {
        let scheduler = ThumbnailScheduler<String>(workers: 1)
        let recorder = Recorder()
        let gate = DispatchSemaphore(value: 0)
        let done = expectation(description: "new result")
        let started = DispatchSemaphore(value: 0)
        scheduler.submit(key("x"), priority: .visible, job: { started.signal(); gate.wait(); return .failure(.cannotDecode("old")) },
                         completion: { _, _ in recorder.add("old") })
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success, "the worker took the first request")
        scheduler.submit(key("x"), priority: .visible, job: { self.frame() },
                         completion: { _, _ in recorder.add("new"); done.fulfill() })
        gate.signal()
        wait(for: [done], timeout: 30)
        // One worker: the old job's deliver-or-drop decision was taken before the new job could run.
        XCTAssertEqual(recorder.all, ["new"])
    }

    /// The first screen's pictures (made while the scan runs) survive the loop's per-frame `cancelAll`, run
    /// before visible ones, and a plain `cancel` still drops them.
    func testFirstScreenJobsSurviveCancelAllAndRunFirst() {
        let scheduler = ThumbnailScheduler<String>(workers: 1)
        let recorder = Recorder()
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let done = expectation(description: "delivered")
        done.expectedFulfillmentCount = 4
        scheduler.submit(key("blocker"), priority: .visible,
                         job: { started.signal(); gate.wait(); return self.frame() },
                         completion: { k, _ in recorder.add(k); done.fulfill() })
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success, "the worker took the blocker")
        scheduler.submit(key("visible"), priority: .visible, job: { self.frame() },
                         completion: { k, _ in recorder.add(k); done.fulfill() })
        scheduler.submit(key("first"), priority: .firstScreen, job: { self.frame() },
                         completion: { k, _ in recorder.add(k); done.fulfill() })
        scheduler.submit(key("dropped"), priority: .firstScreen, job: { self.frame() },
                         completion: { k, _ in recorder.add(k) })
        scheduler.submit(key("listing"), priority: .firstScreen, work: { recorder.add("listing"); done.fulfill() })
        scheduler.cancel(key("dropped"))
        // The loop's frame: only "visible" is on screen; the first-screen jobs stay queued.
        scheduler.cancelAll(except: [key("visible"), key("blocker")])
        XCTAssertEqual(scheduler.queuedCount, 3)
        gate.signal()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(recorder.all, ["blocker", "first", "listing", "visible"])
    }

    /// One urgency scale, three lanes: the first screen, then on-screen pictures in request order (the selected
    /// one is not moved ahead of cells asked for before it), then the next page.
    func testLanesFollowTheUrgencyScale() {
        let scheduler = ThumbnailScheduler<String>(workers: 1)
        let recorder = Recorder()
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let done = expectation(description: "all delivered")
        done.expectedFulfillmentCount = 5
        scheduler.submit(key("blocker"), priority: .visible,
                         job: { started.signal(); gate.wait(); return .success(PixelFrame(width: 1, height: 1)) },
                         completion: { k, _ in recorder.add(k); done.fulfill() })
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success, "the worker took the blocker")
        for (id, urgency) in [("prefetch", Urgency.prefetch), ("visible", .visible), ("selected", .selected),
                              ("first", .firstScreen)] {
            scheduler.submit(key(id), priority: urgency, job: { self.frame() },
                             completion: { k, _ in recorder.add(k); done.fulfill() })
        }
        gate.signal()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(recorder.all, ["blocker", "first", "visible", "selected", "prefetch"])
    }
}
