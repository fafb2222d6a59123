import Foundation
import XCTest

/// The event loop sleeps: once the grid is complete and nothing plays, the browser does not wake until
/// something happens (issue 16.1). Checked structurally through `LIVEGRID_TRACE`, which logs every wake-up of
/// the loop with its reason; the CPU figure itself is measured by Benchmarks/idle-cpu.sh.
final class IdleLoopEndToEndTests: XCTestCase {
    private var fixture: BrowserFixture!

    override func setUpWithError() throws {
        fixture = try BrowserFixture.make()
        // No hint of movement: it is a timer plus a movie, a wake-up this test must not wait out.
        try fixture.writeConfig("[playback]\nhints = false\n")
    }

    override func tearDown() {
        fixture?.remove()
    }

    private func wakeLines() -> [String] {
        let log = (try? String(contentsOfFile: fixture.tracePath, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init).filter { $0.contains(" loop-wake ") }
    }

    func testIdleBrowserDoesNotWakeUntilAKeyArrives() throws {
        let session = try TmuxSession(command: fixture.command(), columns: 120, rows: 40)
        try fixture.waitForCompleteGrid(session)
        let before = wakeLines()
        XCTAssertFalse(before.isEmpty, "the loop traces its wake-ups (LIVEGRID_TRACE)")
        // The observation window is the property itself (no wake-up in it), not a readiness wait.
        Thread.sleep(forTimeInterval: 3)
        let idle = wakeLines()
        XCTAssertEqual(idle.count, before.count,
                       "an idle browser woke up: \(idle.dropFirst(before.count).joined(separator: " | "))")
        // And it still answers at once: a key wakes it.
        try session.send("l")
        let deadline = Date().addingTimeInterval(10)
        while wakeLines().count == idle.count, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertTrue(wakeLines().dropFirst(idle.count).contains { $0.hasSuffix("input") },
                      "a key press wakes the loop: \(wakeLines().dropFirst(idle.count))")
        try session.waitFor("the selection moved") { $0.contains { $0.contains(" 2/\(self.fixture.names.count) ") } }
    }

    /// A resize (SIGWINCH) reaches the sleeping loop: the grid is laid out again for the new size.
    func testResizeWakesTheSleepingLoop() throws {
        let session = try TmuxSession(command: fixture.command(), columns: 120, rows: 40)
        try fixture.waitForCompleteGrid(session)
        try session.resize(columns: 80, rows: 30)
        // The status bar sat on row 40: only a redraw for the new size puts it on row 30.
        try session.waitFor("the status bar redrawn on the last of 30 rows") { screen in
            screen.count == 30 && screen[29].contains(" 1/\(self.fixture.names.count) ")
        }
    }
}
