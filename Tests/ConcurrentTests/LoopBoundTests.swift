import Concurrent
import XCTest

final class LoopBoundTests: XCTestCase {
    /// The thread that made the value reads and writes it in place.
    func testOwnerUsesTheValue() {
        let bound = LoopBound([1, 2])
        XCTAssertTrue(bound.isOwnedByCurrentThread)
        bound.value.append(3)
        let count = bound.withValue { values -> Int in
            values.append(4)
            return values.count
        }
        XCTAssertEqual(count, 4)
        XCTAssertEqual(bound.value, [1, 2, 3, 4])
    }

    /// Another thread is told it does not own the value (the accessors would trap there).
    func testOtherThreadIsDetected() {
        let bound = LoopBound(0)
        let seenElsewhere = Locked<Bool?>(nil)
        let done = expectation(description: "asked")
        NamedThread.start("loopbound-test") {
            seenElsewhere.set(bound.isOwnedByCurrentThread)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seenElsewhere.value, false)
        XCTAssertTrue(bound.isOwnedByCurrentThread, "still the maker's")
    }

    /// A value made on another thread belongs to that thread, not to the one that later holds it.
    func testOwnerIsTheMakingThread() {
        let made = Locked<LoopBound<Int>?>(nil)
        let done = expectation(description: "made")
        NamedThread.start("loopbound-make") {
            let bound = LoopBound(7)
            XCTAssertTrue(bound.isOwnedByCurrentThread)
            made.set(bound)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(made.value?.isOwnedByCurrentThread, false)
    }
}

final class SignalSafeCellTests: XCTestCase {
    func testFlagDescriptorAndSlot() {
        let flag = SignalSafeFlag(false)
        XCTAssertFalse(flag.exchange(true))
        XCTAssertTrue(flag.load())
        XCTAssertTrue(flag.exchange(false), "taken once")
        XCTAssertFalse(flag.exchange(false))

        let descriptor = SignalSafeDescriptor()
        XCTAssertEqual(descriptor.load(), -1)
        descriptor.store(7)
        XCTAssertFalse(descriptor.compareExchange(expected: 8, desired: -1), "another loop's descriptor stays")
        XCTAssertEqual(descriptor.load(), 7)
        XCTAssertTrue(descriptor.compareExchange(expected: 7, desired: -1))
        XCTAssertEqual(descriptor.load(), -1)
    }

    func testHandlerSlotKeepsOnlyCallableHandlers() {
        let slot = SignalHandlerSlot()
        XCTAssertNil(slot.callable(), "empty: SIG_DFL")
        slot.store(unsafeBitCast(1, to: SignalHandler.self))   // SIG_IGN
        XCTAssertNil(slot.callable(), "SIG_IGN is not called")
        let handler: SignalHandler = { _ in SignalSafeCellTests.calls.store(true) }
        slot.store(handler)
        slot.callable()?(0)
        XCTAssertTrue(SignalSafeCellTests.calls.load())
        slot.store(nil)
        XCTAssertNil(slot.callable())
    }

    static let calls = SignalSafeFlag(false)
}
