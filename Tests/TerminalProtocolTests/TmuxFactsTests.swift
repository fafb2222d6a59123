import TerminalProtocol
import XCTest

/// What tmux says about the pane (`tmux display -p` answers, recorded) and the chain of nested levels.
final class TmuxFactsTests: XCTestCase {
    func testParsesTmuxDisplayAnswers() throws {
        let facts = try XCTUnwrap(TmuxFacts.parse("3.3a|1|5|41|on|top|1|1|21271|xterm-256color|XTerm(379)|256,RGB,title\n"))
        XCTAssertEqual(facts.version, "3.3a")
        XCTAssertTrue(facts.allowsPassthrough)
        XCTAssertTrue(facts.hasPassthroughOption)
        XCTAssertEqual(facts.origin.row, 6, "pane_top 5 plus the status line on top")
        XCTAssertEqual(facts.origin.column, 41)
        XCTAssertEqual(facts.clientPID, 21271)
        XCTAssertFalse(facts.clientIsTmux)
        XCTAssertTrue(facts.isShown)
        let off = try XCTUnwrap(TmuxFacts.parse("3.2a|0|0|0|2|bottom|0|0||||"))
        XCTAssertFalse(off.allowsPassthrough)
        XCTAssertFalse(off.hasPassthroughOption)
        XCTAssertFalse(off.hasClient)
        XCTAssertFalse(off.isShown)
        XCTAssertEqual(off.origin.row, 0, "a status line at the bottom does not shift the pane")
        XCTAssertNil(TmuxFacts.parse("no server running on /tmp/tmux-0/default"))
        XCTAssertTrue(TmuxFacts(version: "next-3.4", allowsPassthrough: true).hasPassthroughOption)
        XCTAssertTrue(TmuxFacts(version: "3.10", allowsPassthrough: true).hasPassthroughOption)
    }

    func testChainAddsTheLevelsOriginsAndWrapsOncePerLevel() {
        let inner = TmuxFacts(version: "3.3a", allowsPassthrough: true, paneTop: 2, paneLeft: 40, clientTermname: "tmux-256color")
        let outer = TmuxFacts(version: "3.3a", allowsPassthrough: true, paneTop: 0, paneLeft: 10, statusLinesAbove: 1,
                              clientTermname: "xterm-256color", clientTermtype: "XTerm(379)")
        let chain = TmuxChain(levels: [inner, outer])
        XCTAssertEqual(chain.depth, 2)
        XCTAssertEqual(chain.origin.row, 3)
        XCTAssertEqual(chain.origin.column, 50)
        XCTAssertEqual(chain.outerTerminal, "XTerm(379)")
        XCTAssertEqual(TmuxChain(levels: [inner], outerLevelUnknown: true).depth, 2)
        XCTAssertNil(TmuxChain(levels: [inner], outerLevelUnknown: true).outerTerminal)
    }
}
