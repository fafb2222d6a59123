import BrowserCore
import TerminalGraphics
import TerminalProtocol
import XCTest
@testable import TerminalUI

/// The browser's side of pixel pictures through tmux: when to probe and how deep, where a picture lands on
/// the outer terminal, and when tmux's redraws need the pictures again.
final class TmuxGraphicsTests: XCTestCase {
    let tmuxEnv = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "TMUX_PANE": "%3"]
    let xterm = TmuxFacts(version: "3.3a", allowsPassthrough: true, paneTop: 4, paneLeft: 61,
                          clientTermname: "xterm-256color", clientTermtype: "XTerm(379)")

    func testProbesThroughPassthroughOnlyWhenItCanReachTheOuterTerminal() {
        var off = xterm
        off.allowsPassthrough = false
        XCTAssertEqual(GraphicsModeDecision.probeDepth(setting: .auto, environment: tmuxEnv, tmux: TmuxChain(levels: [xterm])), 1)
        XCTAssertNil(GraphicsModeDecision.probeDepth(setting: .auto, environment: tmuxEnv, tmux: TmuxChain(levels: [off])))
        XCTAssertNil(GraphicsModeDecision.probeDepth(setting: .auto, environment: tmuxEnv, tmux: nil))
        XCTAssertNil(GraphicsModeDecision.probeDepth(setting: .symbols, environment: tmuxEnv, tmux: TmuxChain(levels: [xterm])))
        XCTAssertEqual(GraphicsModeDecision.probeDepth(setting: .sixel, environment: tmuxEnv, tmux: TmuxChain(levels: [off])), 0)
        XCTAssertEqual(GraphicsModeDecision.probeDepth(setting: .auto, environment: ["TERM": "xterm"], tmux: nil), 0)
    }

    func testDecisionAsksTmuxAndProbesWrapped() {
        var asked = 0
        var probedDepth: Int?
        let decision = GraphicsModeDecision.decide(setting: .auto, environment: tmuxEnv, tmux: {
            asked += 1
            return TmuxChain(levels: [self.xterm])
        }, probe: { depth in
            probedDepth = depth
            return TerminalReplies.parse(Array("\u{1B}[6;20;10t\u{1B}[?63;1;2;4;22c".utf8))
        })
        XCTAssertEqual(asked, 1)
        XCTAssertEqual(probedDepth, 1)
        XCTAssertEqual(decision.capabilities.graphicsMode, .sixels)
        XCTAssertEqual(decision.capabilities.cellPixelSize?.height, 20)
        XCTAssertEqual(decision.passthroughTarget, TmuxPassthroughTarget(depth: 1, originRow: 4, originColumn: 61))
        let symbols = GraphicsModeDecision.decide(setting: .symbols, environment: tmuxEnv, tmux: {
            XCTFail("tmux asked for --graphics symbols")
            return nil
        }, probe: { _ in .none })
        XCTAssertNil(symbols.passthroughTarget)
    }

    func testRedrawWhenThePaneComesBackMovesOrAnotherClientShowsIt() {
        let shown = TmuxPaneView(shown: true, originRow: 0, originColumn: 0, clientPIDs: [10])
        var hidden = shown
        hidden.shown = false
        var moved = shown
        moved.originColumn = 40
        var reattached = shown
        reattached.clientPIDs = [11]
        XCTAssertTrue(TmuxPaneView.needsRedraw(before: hidden, after: shown), "window switched back / re-attached")
        XCTAssertFalse(TmuxPaneView.needsRedraw(before: shown, after: hidden), "nothing to draw while hidden")
        XCTAssertFalse(TmuxPaneView.needsRedraw(before: shown, after: shown), "an idle poll draws nothing")
        XCTAssertTrue(TmuxPaneView.needsRedraw(before: shown, after: moved))
        XCTAssertTrue(TmuxPaneView.needsRedraw(before: shown, after: reattached))
    }

    func testWatchReportsARedrawOnceWithTheNewOrigin() throws {
        final class Script: @unchecked Sendable {
            var chains: [TmuxChain]
            init(_ chains: [TmuxChain]) { self.chains = chains }
            func next() -> TmuxChain? { chains.count > 1 ? chains.removeFirst() : chains.first }
        }
        var away = xterm
        away.windowActive = false
        var back = xterm
        back.paneLeft = 0
        let script = Script([TmuxChain(levels: [xterm]), TmuxChain(levels: [away]), TmuxChain(levels: [back])])
        let lock = NSLock()
        let watch = TmuxRedrawWatch(depth: 1, interval: 3600) { _ in lock.withLock { script.next() } }
        defer { watch.stop() }
        // The thread's first two polls (at start, then the first of its hourly ones): shown, then away. Wait
        // until the second is recorded, so the thread asks no more while the test asks.
        try wait("the watch thread's first polls") { watch.currentView?.shown == false }
        lock.withLock { script.chains = [TmuxChain(levels: [away]), TmuxChain(levels: [back])] }
        watch.poll()
        XCTAssertNil(watch.takeRedraw(), "switched away: nothing to draw")
        watch.poll()
        XCTAssertEqual(watch.takeRedraw(), TmuxPassthroughTarget(depth: 1, originRow: 4, originColumn: 0))
        XCTAssertNil(watch.takeRedraw(), "once")
    }

    func testClientListingLeavesOutLivegridsOwnControlClient() {
        // pid|name|activity|session, then the pane's session: tmux would pick the newest, the control client.
        let answer = "100|/dev/pts/1|1700000000|$0\n200|client-200|1700000050|$0\n300|/dev/pts/7|1700000090|$1\n$0\n"
        let choice = TmuxClientListing.choose(answer, ignoring: [200])
        XCTAssertEqual(choice, TmuxClientListing(client: "/dev/pts/1", ignoredOnSession: 1))
        let facts = TmuxFacts(version: "3.3a", allowsPassthrough: true, clientTermname: "xterm", clientPID: 100,
                              sessionAttached: 2)
        XCTAssertEqual(choice.applied(to: facts).sessionAttached, 1)
        XCTAssertEqual(choice.applied(to: facts).clientPID, 100)

        // Only the control client on the pane's session: as tmux does without it, a client of another session.
        let elsewhere = TmuxClientListing.choose("200|client-200|5|$0\n300|/dev/pts/7|1|$1\n$0", ignoring: [200])
        XCTAssertEqual(elsewhere, TmuxClientListing(client: "/dev/pts/7", ignoredOnSession: 1))
        XCTAssertEqual(elsewhere.applied(to: facts).sessionAttached, 1)   // facts came with -c: still hidden below
        var lone = facts
        lone.sessionAttached = 1
        XCTAssertFalse(elsewhere.applied(to: lone).isShown, "only livegrid's own client shows the session")

        // No other client at all: no client facts (as with nothing attached).
        let none = TmuxClientListing.choose("200|client-200|5|$0\n$0", ignoring: [200])
        XCTAssertNil(none.client)
        XCTAssertFalse(none.applied(to: lone).hasClient)
        XCTAssertNil(none.applied(to: lone).clientPID)
        // An error instead of a session id: nothing chosen, nothing subtracted.
        XCTAssertEqual(TmuxClientListing.choose("can't find pane: %9", ignoring: [200]),
                       TmuxClientListing(client: nil, ignoredOnSession: 0))
    }

    func testNotificationsThatWipeOrMayMoveThePictures() {
        let classify = { TmuxNotification.classify($0, session: "$0") }
        XCTAssertEqual(TmuxNotification.classify("%session-changed $0 main", session: nil), .attached(session: "$0"))
        XCTAssertEqual(classify("%session-window-changed $0 @1"), .redrawn)
        XCTAssertEqual(classify("%session-window-changed $3 @7"), .unrelated, "another session's window")
        XCTAssertEqual(classify("%layout-change @0 4196,80x24,0,0 b25d,80x24,0,0,0 *Z"), .redrawn, "the current window")
        XCTAssertEqual(classify("%layout-change @2 4196,80x24,0,0 4196,80x24,0,0 -"), .unrelated)
        XCTAssertEqual(classify("%client-session-changed /dev/pts/3 $0 main"), .redrawn, "a client came to the session")
        XCTAssertEqual(classify("%client-session-changed /dev/pts/3 $1 other"), .mayMove, "a client may have left")
        XCTAssertEqual(classify("%client-detached /dev/pts/3"), .mayMove)
        XCTAssertEqual(classify("%begin 1795569656 269 0"), .unrelated)
        XCTAssertEqual(classify("%window-renamed @1 bash"), .unrelated)
        XCTAssertEqual(classify(""), .unrelated)
    }

    func testWatchAsksOnlyAfterNotificationsAndPollsOnceTheStreamEnds() throws {
        final class Stream: TmuxNotificationStream, @unchecked Sendable {
            let condition = NSCondition()
            var lines: [String?] = []
            var closed = false
            let clientPID = 4242
            func push(_ line: String?) { condition.withLock { lines.append(line); condition.signal() } }
            func nextLine() -> String? {
                condition.withLock {
                    while lines.isEmpty && !closed { condition.wait() }
                    return closed ? nil : lines.removeFirst()
                }
            }
            func close() { condition.withLock { closed = true; condition.broadcast() } }
        }
        final class Asked: @unchecked Sendable {
            let lock = NSLock()
            var ignoring: [Set<Int>] = []
            var count: Int { lock.withLock { ignoring.count } }
        }
        let stream = Stream()
        let asked = Asked()
        let watch = TmuxRedrawWatch(depth: 1, interval: 0.01, notifications: { [stream] }) { ignoring in
            asked.lock.withLock { asked.ignoring.append(ignoring) }
            return TmuxChain(levels: [self.xterm])
        }
        defer { watch.stop() }
        try wait("the first answer") { asked.count == 1 }
        stream.push("%begin 1 2 0")
        stream.push("%end 1 2 0")
        stream.push("%session-changed $0 main")
        stream.push("%session-window-changed $0 @1")
        try wait("an answer after the notification") { asked.count == 2 }
        XCTAssertEqual(asked.lock.withLock { asked.ignoring }, [[4242], [4242]], "livegrid's own client left out")
        XCTAssertNotNil(watch.takeRedraw(), "tmux redrew the shown pane's window: draw again, same answers or not")
        stream.push("%client-detached /dev/pts/3")
        try wait("an answer after the client left") { asked.count == 3 }
        XCTAssertNil(watch.takeRedraw(), "still shown, not moved: nothing to draw")
        XCTAssertFalse(watch.isPolling)
        stream.push(nil)   // tmux ended the stream
        try wait("polling") { watch.isPolling && asked.count > 5 }
    }

    private func wait(_ what: String, timeout: TimeInterval = 30, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else {
                XCTFail("timed out waiting for \(what)")
                throw CocoaError(.userCancelled)
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}

/// The start-up reply reader decodes with TerminalProtocol's InputDecoder, the main loop's decoder, and keeps
/// the keys typed meanwhile for the main loop.
final class TerminalProbeReaderTests: XCTestCase {
    func testRepliesAndKeysComeDecodedAndTheReadStopsAtDA1() throws {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        // A key typed during the probe, the cell size, the kitty keyboard flags, then DA1 and a later key.
        let bytes = Array("x\u{1B}[6;20;10t\u{1B}[?1u\u{1B}[?63;4cj".utf8)
        XCTAssertEqual(bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }, bytes.count)
        _ = TerminalProbe.takeTypedAhead()
        var replies = TerminalReplies()
        var asked: [InputEvent] = []
        var completedBy: InputEvent?
        let events = TerminalProbe.readReplies(input: fds[0], timeoutMilliseconds: 20_000) { event in
            asked.append(event)
            let complete = replies.record(event)
            if complete, completedBy == nil { completedBy = event }
            return complete
        }
        XCTAssertEqual(completedBy, .primaryDeviceAttributes([63, 4]), "DA1 ends the wait, not the deadline")
        XCTAssertEqual(asked.count, 4, "nothing is asked after DA1: the key, the two replies, then DA1")
        XCTAssertEqual(events.first, .key(KeyEvent(.character("x"))))
        XCTAssertEqual(events.suffix(2), [.primaryDeviceAttributes([63, 4]), .key(KeyEvent(.character("j")))],
                       "a key in the same read as DA1 is decoded too")
        XCTAssertEqual(TerminalProbe.takeTypedAhead(), [KeyEvent(.character("x")), KeyEvent(.character("j"))],
                       "the keys typed during the probe are kept for the main loop, in order, replies left out")
        XCTAssertEqual(TerminalProbe.takeTypedAhead(), [], "handed over once")
        XCTAssertEqual(replies.cellPixelSize, PixelSizeInCells(width: 10, height: 20))
        XCTAssertEqual(replies.keyboardProtocolFlags, 1)
        XCTAssertTrue(replies.supportsSixel)
    }

    func testNoReplyEndsAtTheDeadline() {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        let events = TerminalProbe.readReplies(input: fds[0], timeoutMilliseconds: 50) { _ in true }
        XCTAssertEqual(events, [])
    }
}
