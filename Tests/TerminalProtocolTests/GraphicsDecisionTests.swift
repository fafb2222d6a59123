import TerminalProtocol
import XCTest

/// The graphics half of the capability decision, from recorded facts only (no chafa, no tty, no tmux).
final class GraphicsDecisionTests: XCTestCase {
    let esc = "\u{1B}"
    let tmuxEnv = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
    let xterm = TmuxFacts(version: "3.3a", allowsPassthrough: true, paneTop: 2, clientTermname: "xterm-256color",
                          clientTermtype: "XTerm(379)")

    func replies(_ s: String) -> TerminalReplies { TerminalReplies.parse(Array(s.utf8)) }

    func testOutsideTmuxTheRepliesDecide() {
        let sixel = GraphicsDecision.decide(environment: ["TERM": "xterm-256color"], replies: replies("\(esc)[6;20;10t\(esc)[?63;4c"))
        XCTAssertEqual(sixel.mode, .sixels)
        XCTAssertEqual(sixel.why, "DA1 reports sixel graphics (attribute 4)")
        XCTAssertEqual(sixel.cellPixelSize, PixelSizeInCells(width: 10, height: 20))
        XCTAssertEqual(sixel.tmuxPassthroughDepth, 0)
        let kitty = GraphicsDecision.decide(environment: ["TERM": "xterm-kitty"], replies: replies("\(esc)_Gi=31;OK\(esc)\\\(esc)[?62;c"))
        XCTAssertEqual(kitty.mode, .kitty)
        let none = GraphicsDecision.decide(environment: ["TERM": "xterm-256color"])
        XCTAssertEqual(none.mode, .symbols)
        XCTAssertEqual(none.why, "no graphics protocol detected (no replies to the probe)")
    }

    func testFlagWinsOverEnvironmentAndDumbVetoesOnlyDetection() {
        let forced = GraphicsDecision.decide(environment: ["TERM": "xterm"], forcedMode: .kitty,
                                             environmentMode: (.sixels, "sixel"))
        XCTAssertEqual(forced.mode, .kitty)
        XCTAssertEqual(forced.why, "forced by flag")
        let byEnvironment = GraphicsDecision.decide(environment: ["TERM": "dumb"], environmentMode: (.sixels, "sixel"))
        XCTAssertEqual(byEnvironment.mode, .sixels, "forced: kept even on a dumb terminal")
        XCTAssertEqual(byEnvironment.why, "forced by LIVEGRID_GRAPHICS=sixel")
        let dumb = GraphicsDecision.decide(environment: ["TERM": "dumb"], replies: replies("\(esc)[?63;4c"))
        XCTAssertEqual(dumb.mode, .symbols)
    }

    func testInsideTmuxWhatTmuxSaidDecides() {
        let through = GraphicsDecision.decide(environment: tmuxEnv, replies: replies("\(esc)[?63;4c"),
                                              tmux: TmuxChain(levels: [xterm]))
        XCTAssertEqual(through.mode, .sixels)
        XCTAssertEqual(through.tmuxPassthroughDepth, 1)
        XCTAssertTrue(through.insideTmux)
        var off = xterm
        off.allowsPassthrough = false
        let blocked = GraphicsDecision.decide(environment: tmuxEnv, tmux: TmuxChain(levels: [off]))
        XCTAssertEqual(blocked.mode, .symbols)
        XCTAssertEqual(blocked.blocked, .passthroughOff(outer: false))
        XCTAssertEqual(blocked.blocked?.hint, "tmux passthrough is off: set -g allow-passthrough on")
        XCTAssertEqual(blocked.tmuxPassthroughDepth, 0)
        var old = xterm
        old.version = "3.2a"
        XCTAssertEqual(GraphicsDecision.decide(environment: tmuxEnv, tmux: TmuxChain(levels: [old])).blocked,
                       .tmuxTooOld(version: "3.2a"))
        var detached = xterm
        detached.clientTermname = ""
        XCTAssertNil(GraphicsDecision.decide(environment: tmuxEnv, tmux: TmuxChain(levels: [detached])).blocked,
                     "no client: nobody to show a hint to")
        let nested = GraphicsDecision.decide(environment: tmuxEnv, tmux: TmuxChain(levels: [xterm], outerLevelUnknown: true),
                                             forcedMode: .sixels)
        XCTAssertEqual(nested.tmuxPassthroughDepth, 2)
    }
}
