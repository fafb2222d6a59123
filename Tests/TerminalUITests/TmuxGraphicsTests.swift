import BrowserCore
import TerminalGraphics
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

    func testPictureIsPlacedAtThePanesAbsolutePositionInsideTheWrapper() {
        let target = TmuxPassthroughTarget(depth: 1, originRow: 4, originColumn: 61)
        let out = PixelSequences.positionedThroughTmux(Array("\u{1B}Pq#0~\u{1B}\\".utf8), row: 2, column: 3, target: target)
        XCTAssertEqual(String(decoding: out, as: UTF8.self),
                       "\u{1B}Ptmux;\u{1B}\u{1B}7\u{1B}\u{1B}[7;65H\u{1B}\u{1B}Pq#0~\u{1B}\u{1B}\\\u{1B}\u{1B}8\u{1B}\\")
    }

    func testSixelPixelsAreErasedOnTheOuterTerminalCellByCell() {
        let target = TmuxPassthroughTarget(depth: 2, originRow: 1, originColumn: 30)
        let out = PixelSequences.eraseThroughTmux([CellRect(x: 2, y: 3, width: 12, height: 2)], target: target)
        let once = "\u{1B}7\u{1B}[0m\u{1B}[5;33H\u{1B}[12X\u{1B}[6;33H\u{1B}[12X\u{1B}8"
        XCTAssertEqual(out, TmuxPassthrough.wrap(Array(once.utf8), depth: 2))
        XCTAssertEqual(PixelSequences.eraseThroughTmux([], target: target), [], "nothing gone, nothing sent")
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

    func testWatchReportsARedrawOnceWithTheNewOrigin() {
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
        let watch = TmuxRedrawWatch(depth: 1, interval: 3600) { lock.withLock { script.next() } }
        defer { watch.stop() }
        Thread.sleep(forTimeInterval: 0.2)   // the thread's first poll: shown
        lock.withLock { script.chains = [TmuxChain(levels: [away]), TmuxChain(levels: [back])] }
        watch.poll()
        XCTAssertNil(watch.takeRedraw(), "switched away: nothing to draw")
        watch.poll()
        XCTAssertEqual(watch.takeRedraw(), TmuxPassthroughTarget(depth: 1, originRow: 4, originColumn: 0))
        XCTAssertNil(watch.takeRedraw(), "once")
    }
}
