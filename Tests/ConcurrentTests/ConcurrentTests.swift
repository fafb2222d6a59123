import Concurrent
import Dispatch
import XCTest

final class LockedTests: XCTestCase {
    /// Increments from many threads at once are never lost.
    func testConcurrentIncrementsAreNotLost() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLockedValue { $0 += 1 } }
        }
        XCTAssertEqual(counter.value, 80_000)
    }

    func testWithLockedValueReturnsAndRethrows() {
        struct Refused: Error {}
        let seen = Locked<Set<String>>([])
        XCTAssertTrue(seen.withLockedValue { $0.insert("a").inserted })
        XCTAssertFalse(seen.withLockedValue { $0.insert("a").inserted })
        XCTAssertThrowsError(try seen.withLockedValue { (_: inout Set<String>) throws(Refused) -> Void in throw Refused() })
        seen.set(["b"])
        XCTAssertEqual(seen.value, ["b"])
    }

    func testPlainLock() {
        let lock = Locked()
        nonisolated(unsafe) var total = 0
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<1_000 { lock.withLock { total += 1 } }
        }
        XCTAssertEqual(lock.withLock { total }, 4_000)
    }
}

final class ParallelMapTests: XCTestCase {
    func testResultsComeBackInInputOrder() {
        let squares = Parallel.map(count: 1_000) { $0 * $0 }
        XCTAssertEqual(squares, (0..<1_000).map { $0 * $0 })
        XCTAssertEqual(Parallel.map(count: 0) { $0 }, [])
    }

    /// No more than `width` jobs run at the same time, and the width is used when there is work for it.
    func testWidthBoundsTheJobsRunningAtOnce() {
        let running = Locked((now: 0, most: 0))
        _ = Parallel.map(count: 40, width: 2) { index -> Int in
            running.withLockedValue { $0.now += 1; $0.most = max($0.most, $0.now) }
            usleep(2_000)   // long enough for the other worker to start its own job meanwhile
            running.withLockedValue { $0.now -= 1 }
            return index
        }
        XCTAssertLessThanOrEqual(running.value.most, 2)
        XCTAssertGreaterThanOrEqual(running.value.most, 1)
    }

    /// Each worker gets its own state, made once, and only `width` of them exist.
    func testEachWorkerMakesItsStateOnce() {
        let made = Locked(0)
        let outputs = Parallel.map(count: 100, width: 3, makeWorker: { () -> [Int] in
            made.withLockedValue { $0 += 1 }
            return []
        }, { (seen: inout [Int], index: Int) -> Int in
            seen.append(index)
            return seen.count
        })
        XCTAssertEqual(outputs.count, 100)
        XCTAssertTrue(outputs.allSatisfy { $0 != nil })
        XCTAssertLessThanOrEqual(made.value, 3)
        XCTAssertGreaterThanOrEqual(made.value, 1)
    }

    /// Once cancelled, jobs not yet started are skipped (nil), those done keep their result.
    func testCancellationSkipsTheRest() {
        let done = Locked(0)
        let outputs = Parallel.map(count: 1_000, width: 2, isCancelled: { done.value >= 10 }, makeWorker: { () },
                                   { _, index -> Int in
            done.withLockedValue { $0 += 1 }
            return index
        })
        let finished = outputs.compactMap { $0 }
        XCTAssertGreaterThanOrEqual(finished.count, 10)
        XCTAssertLessThan(finished.count, 1_000)
        for (index, output) in outputs.enumerated() where output != nil { XCTAssertEqual(output, index) }
    }

    func testProcessorCountIsPositive() {
        XCTAssertGreaterThanOrEqual(Parallel.processorCount, 1)
    }
}

/// `SharingTable` hands back the first equal value it kept, and a full table starts over instead of growing.
final class SharingTableTests: XCTestCase {
    final class Box: Hashable, Sendable {
        let text: String
        init(_ text: String) { self.text = text }
        static func == (a: Box, b: Box) -> Bool { a.text == b.text }
        func hash(into hasher: inout Hasher) { hasher.combine(text) }
    }

    func testEqualValuesShareTheFirstAndAFullTableStartsOver() {
        let table = SharingTable<Box>(limit: 2)
        let first = table.share(Box("a/"))
        XCTAssertTrue(table.share(Box("a/")) === first)
        XCTAssertFalse(table.share(Box("b/")) === first)
        _ = table.share(Box("c/"))   // full: emptied, then kept
        XCTAssertFalse(table.share(Box("a/")) === first, "forgotten after the table started over")
        XCTAssertEqual(table.share(Box("a/")), first, "still an equal value")
    }
}
