import TerminalProtocol
import XCTest

/// Issue 31.6: the kitty graphics query is left out where tmux would make it the pane title.
final class ProbeSequenceTests: XCTestCase {
    func testTheKittyGraphicsQueryIsNotSentUnwrappedWhereTermNamesTmuxOrScreen() {
        for term in ["tmux-256color", "tmux", "screen", "screen-256color", "screen.xterm-256color"] {
            XCTAssertFalse(TerminalReplies.mayAskKittyGraphicsUnwrapped(environment: ["TERM": term]), term)
        }
        XCTAssertFalse(TerminalReplies.mayAskKittyGraphicsUnwrapped(
            environment: ["TERM": "xterm-256color", "TMUX": "/tmp/tmux-1000/default,1,0"]))
        for term in ["xterm-256color", "xterm-kitty", "foot", "alacritty"] {
            XCTAssertTrue(TerminalReplies.mayAskKittyGraphicsUnwrapped(environment: ["TERM": term]), term)
        }
    }

    func testTheProbeWithoutTheKittyQueryStillEndsWithDA1() {
        let probe = TerminalReplies.probe(kittyGraphics: false, keyboard: true)
        XCTAssertFalse(probe.contains("\u{1B}_G"))
        XCTAssertTrue(probe.hasSuffix("\u{1B}[c"))
        XCTAssertTrue(probe.contains("\u{1B}[16t"))
        XCTAssertEqual(TerminalReplies.probe(kittyGraphics: true, keyboard: true), TerminalReplies.probeSequence)
        XCTAssertTrue(TerminalReplies.probeSequence.hasPrefix(TerminalReplies.kittyGraphicsQuery))
    }
}
