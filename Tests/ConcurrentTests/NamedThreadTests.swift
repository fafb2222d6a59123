import Concurrent
import Foundation
import XCTest

final class NamedThreadTests: XCTestCase {
    /// The body runs on a thread of its own that carries the name at the OS level (what `top -H` shows).
    func testBodyRunsOnANewThreadWithTheName() {
        let seen = Locked<(name: String?, isMain: Bool)?>(nil)
        let done = expectation(description: "ran")
        NamedThread.start("livegrid-test") {
            seen.set((currentThreadName(), Thread.isMainThread))
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.value?.name, "livegrid-test")
        XCTAssertEqual(seen.value?.isMain, false)
    }

    /// Linux keeps 15 bytes of a thread name; a longer one is cut, never inside a UTF-8 character.
    func testLongNamesAreCutAtACharacterBoundary() {
        let seen = Locked<String?>(nil)
        let done = expectation(description: "ran")
        NamedThread.start("livegrid-thumbnailé-worker") {
            seen.set(currentThreadName())
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.value, "livegrid-thumbn")
        let accented = Locked<String?>(nil)
        let second = expectation(description: "ran")
        NamedThread.start("livegrid-vide-é1") {   // "é" is bytes 14 and 15: cut before it
            accented.set(currentThreadName())
            second.fulfill()
        }
        wait(for: [second], timeout: 10)
        XCTAssertEqual(accented.value, "livegrid-vide-")
    }
}
