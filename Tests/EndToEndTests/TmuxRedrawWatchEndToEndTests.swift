import Foundation
import TestSupport
import TerminalGraphics
import TerminalProtocol
import XCTest
@testable import TerminalUI

/// The tmux redraw watch against a real tmux 3.3a: its control-mode client notices what wipes or moves pixel
/// pictures (a window switch away and back, a layout change, a zoom, a client leaving and another
/// attaching) without polling, and leaves nothing attached behind: not on stop, not when livegrid is
/// killed with SIGKILL.
final class TmuxRedrawWatchEndToEndTests: XCTestCase {
    func testControlModeNoticesSwitchLayoutZoomAndReattachWithoutPolling() throws {
        try requireScript()
        let session = try TmuxSession(command: "sleep 600", columns: 100, rows: 30)
        try session.run(["new-window", "-d", "-t", "\(session.name):1", "sleep 600"], capture: false)
        let pane = try session.run(["display-message", "-p", "-t", "\(session.name):0", "#{pane_id}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let environment = ["TMUX": "\(try session.display("#{socket_path}")),1,0", "TMUX_PANE": pane]
        var terminal = try attachTerminal(to: session)
        defer { terminal.stop() }

        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var value = 0
            func add() { lock.withLock { value += 1 } }
            var count: Int { lock.withLock { value } }
        }
        let asked = Counter()
        // An hour between polls: everything below is noticed through notifications only.
        let watch = TmuxRedrawWatch(depth: 1, interval: 3600,
                                    notifications: { TmuxQuery.controlClients(environment: environment) }) {
            asked.add()
            return TmuxQuery.chain(environment: environment, ignoringClients: $0)
        }
        defer { watch.stop() }
        try waitUntil("the watch's control client attached") { try controlClients(session) == 1 }
        try waitUntil("the first answer: the pane shown") { watch.currentView?.shown == true }
        XCTAssertEqual(watch.currentView?.clientPIDs.count, 1)
        XCTAssertFalse(watch.isPolling)

        // Window switched away (nothing to draw) and back (redraw).
        try session.run(["select-window", "-t", "\(session.name):1"], capture: false)
        try waitUntil("the pane hidden") { watch.currentView?.shown == false }
        XCTAssertNil(watch.takeRedraw(), "nothing to draw while hidden")
        try session.run(["select-window", "-t", "\(session.name):0"], capture: false)
        var redraw: TmuxPassthroughTarget?
        try waitUntil("a redraw after switching back") { redraw = watch.takeRedraw(); return redraw != nil }
        XCTAssertEqual(redraw?.originColumn, 0)

        // A split right of the pane leaves it in place, but tmux redraws the window.
        try session.run(["split-window", "-h", "-d", "-l", "20", "-t", pane, "sleep 600"], capture: false)
        try waitUntil("a redraw after a split beside the pane") { redraw = watch.takeRedraw(); return redraw != nil }
        XCTAssertEqual(redraw?.originColumn, 0)
        // Away and back in one tmux command, faster than any poll: tmux said it redrew the window.
        try session.run(["select-window", "-t", "\(session.name):1", ";", "select-window", "-t", "\(session.name):0"],
                        capture: false)
        try waitUntil("a redraw after a quick switch away and back") { redraw = watch.takeRedraw(); return redraw != nil }
        // A split left of the pane moves it; a zoom moves it back (each switch above may still have a redraw
        // at the old place pending: wait for the new place).
        try session.run(["split-window", "-h", "-b", "-d", "-l", "30", "-t", pane, "sleep 600"], capture: false)
        try waitUntil("a redraw at the moved origin") { watch.takeRedraw()?.originColumn == 31 }
        try session.run(["resize-pane", "-Z", "-t", pane], capture: false)
        try waitUntil("a redraw after the zoom") { watch.takeRedraw()?.originColumn == 0 }

        // The user's terminal goes away (only livegrid's control client is left: hidden) and comes back.
        terminal.stop()
        try waitUntil("the pane hidden once the terminal left") { watch.currentView?.shown == false }
        terminal = try attachTerminal(to: session)
        try waitUntil("a redraw after the re-attach") { redraw = watch.takeRedraw(); return redraw != nil }
        XCTAssertFalse(watch.isPolling, "control mode stayed on")
        XCTAssertLessThan(asked.count, 40, "asked tmux only after notifications")

        watch.stop()
        try waitUntil("the control client detached on stop") { try controlClients(session) == 0 }
    }

    /// tmux refusing control mode (here: a pane that does not exist) leaves the watch polling.
    func testFallsBackToPollingWhenTmuxRefusesControlMode() throws {
        let session = try TmuxSession(command: "sleep 600", columns: 80, rows: 24)
        let socket = try session.display("#{socket_path}")
        let tmux = try XCTUnwrap(TmuxQuery.executable)
        let watch = TmuxRedrawWatch(depth: 1, interval: 0.05, notifications: {
            [TmuxControlClient(tmux: tmux, socket: socket, pane: "%999")].compactMap { $0 }
        }) { _ in TmuxChain(levels: [TmuxFacts(version: "3.3a", allowsPassthrough: true)]) }
        defer { watch.stop() }
        try waitUntil("the watch polling") { watch.isPolling }
        XCTAssertEqual(try controlClients(session), 0)
    }

    /// Killed with SIGKILL (no handler runs), livegrid still leaves no control client attached: the kernel
    /// closes the client's stdin, and a control client detaches at the end of its input.
    func testNoControlClientOutlivesLivegridKilledWithSIGKILL() throws {
        let fixture = try BrowserFixture.make()
        defer { fixture.remove() }
        try requireScript()
        let session = try TmuxSession(command: "PS1='$ ' sh", columns: 100, rows: 30)
        try session.run(["set-option", "-g", "allow-passthrough", "on"], capture: false)
        let terminal = try attachTerminal(to: session)
        defer { terminal.stop() }
        try session.run(["send-keys", "-t", session.name, "exec " + fixture.command("--graphics sixel --no-motion"), "Enter"],
                        capture: false)
        try waitUntil("livegrid's control client attached", timeout: 60) { try controlClients(session) == 1 }
        let pid = try XCTUnwrap(Int32(try session.display("#{pane_pid}")))
        XCTAssertEqual(kill(pid, SIGKILL), 0)
        try waitUntil("no control client left") { try controlClients(session) == 0 }
    }

    /// The user's terminal: `script` gives a tmux client a pty, as a terminal emulator would.
    private func attachTerminal(to session: TmuxSession) throws -> BackgroundProcess {
        let before = try terminals(session)
        let process = try BackgroundProcess("/usr/bin/env", [
            "-u", "TMUX", "TERM=xterm-256color", "script", "-qfec", "stty cols 100 rows 31; tmux -L \(session.socket) attach -t \(session.name)",
            "/dev/null",
        ])
        try waitUntil("a terminal attached") { try terminals(session) == before + 1 }
        return process
    }

    private func terminals(_ session: TmuxSession) throws -> Int {
        try session.run(["list-clients", "-F", "#{client_control_mode}"]).split(separator: "\n").filter { $0 == "0" }.count
    }

    private func controlClients(_ session: TmuxSession) throws -> Int {
        try session.run(["list-clients", "-F", "#{client_control_mode}"]).split(separator: "\n").filter { $0 == "1" }.count
    }

    private func requireScript() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw MissingRequirement.tool("script (bsdutils) is missing")
        }
    }
}
