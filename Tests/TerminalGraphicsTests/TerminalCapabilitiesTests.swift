import GraphicsSettings
import TerminalGraphics
import TerminalProtocol
import XCTest

/// Recorded environments and replies of real terminals (replies as they arrive on stdin after
/// `TerminalReplies.probeSequence`).
final class TerminalCapabilitiesTests: XCTestCase {
    let esc = "\u{1B}"

    func replies(_ s: String) -> TerminalReplies { TerminalReplies.parse(Array(s.utf8)) }

    func testXterm256ColorWithoutSixel() {
        // xterm 379 started without -ti vt340: DA1 has no 4.
        let caps = TerminalCapabilities.detect(environment: ["TERM": "xterm-256color"],
                                               replies: replies("\(esc)[?64;1;2;6;9;15;16;17;18;21;22;28c"))
        XCTAssertEqual(caps.graphicsMode, .symbols)
        // The generic xterm-256color gets 256 colours: truecolour only when the terminal says so (ColorDepthDecisionTests).
        XCTAssertEqual(caps.colorDepth, .indexed256)
        XCTAssertTrue(caps.why.contains("no graphics protocol"), caps.why)
    }

    func testXtermWithSixel() {
        let caps = TerminalCapabilities.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"],
                                               replies: replies("\(esc)[6;20;10t\(esc)[?63;1;2;4;6;9;15;22c"))
        XCTAssertEqual(caps.graphicsMode, .sixels)
        XCTAssertEqual(caps.colorDepth, .truecolor)
        XCTAssertEqual(caps.cellPixelSize, PixelSizeInCells(width: 10, height: 20))
    }

    func testKitty() {
        let caps = TerminalCapabilities.detect(
            environment: ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"],
            replies: replies("\(esc)_Gi=31;OK\(esc)\\\(esc)[6;18;9t\(esc)[4;720;1280t\(esc)[?62;c"))
        XCTAssertEqual(caps.graphicsMode, .kitty)
        XCTAssertEqual(caps.colorDepth, .truecolor)
        XCTAssertEqual(caps.cellPixelSize, PixelSizeInCells(width: 9, height: 18))
        XCTAssertTrue(caps.why.contains("kitty graphics query"), caps.why)
    }

    func testKittyOverSSHTrustsTheReplyNotTheEnvironment() {
        let caps = TerminalCapabilities.detect(environment: ["TERM": "xterm-256color"],
                                               replies: replies("\(esc)_Gi=31;OK\(esc)\\\(esc)[?62;c"))
        XCTAssertEqual(caps.graphicsMode, .kitty)
    }

    func testTmuxPrefersSymbolsUnlessForced() {
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "COLORTERM": "truecolor"]
        let tmuxReplies = replies("\(esc)_Gi=31;OK\(esc)\\\(esc)[?1;2;4c")
        let caps = TerminalCapabilities.detect(environment: env, replies: tmuxReplies)
        XCTAssertEqual(caps.graphicsMode, .symbols)
        XCTAssertTrue(caps.insideTmux)
        XCTAssertTrue(caps.why.contains("tmux"), caps.why)
        var forcedEnv = env
        forcedEnv["LIVEGRID_GRAPHICS"] = "kitty"
        XCTAssertEqual(TerminalCapabilities.detect(environment: forcedEnv, replies: tmuxReplies).graphicsMode, .kitty)
        XCTAssertEqual(TerminalCapabilities.detect(environment: env, replies: tmuxReplies, forcedMode: .sixels).graphicsMode, .sixels)
    }

    func testFoot() {
        let caps = TerminalCapabilities.detect(environment: ["TERM": "foot"], replies: replies("\(esc)[?62;4;22c"))
        XCTAssertEqual(caps.graphicsMode, .sixels)
        XCTAssertEqual(caps.colorDepth, .truecolor)
        // foot without a reply (no tty): still sixel from TERM.
        XCTAssertEqual(TerminalCapabilities.detect(environment: ["TERM": "foot"]).graphicsMode, .sixels)
    }

    func testITerm2PrefersOSC1337EvenThoughItAnswersKitty() {
        let caps = TerminalCapabilities.detect(
            environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app", "LC_TERMINAL": "iTerm2"],
            replies: replies("\(esc)_Gi=31;OK\(esc)\\\(esc)[?62;4c"))
        XCTAssertEqual(caps.graphicsMode, .iterm)
        XCTAssertEqual(caps.colorDepth, .truecolor)
    }

    func testMoshAndDumb() {
        // mosh: generic TERM, answers DA1 without graphics.
        let mosh = TerminalCapabilities.detect(environment: ["TERM": "xterm-256color"], replies: replies("\(esc)[?62c"))
        XCTAssertEqual(mosh.graphicsMode, .symbols)
        let dumb = TerminalCapabilities.detect(environment: ["TERM": "dumb"])
        XCTAssertEqual(dumb.graphicsMode, .symbols)
        XCTAssertEqual(dumb.colorDepth, .indexed8)
        XCTAssertEqual(TerminalCapabilities.detect(environment: [:]).graphicsMode, .symbols)
    }

    func testColourFlagsAndLinuxConsole() {
        XCTAssertEqual(TerminalCapabilities.detect(environment: ["TERM": "linux"]).colorDepth, .indexed16)
        XCTAssertEqual(TerminalCapabilities.detect(environment: ["TERM": "xterm"]).colorDepth, .indexed256)
        XCTAssertEqual(TerminalCapabilities.detect(environment: ["TERM": "xterm-direct"]).colorDepth, .truecolor)
        let forced = TerminalCapabilities.detect(environment: ["TERM": "xterm-kitty"], forcedColors: .indexed16)
        XCTAssertEqual(forced.colorDepth, .indexed16)
        XCTAssertEqual(GraphicsMode(userName: "sixel"), .sixels)
        XCTAssertEqual(ColorDepth(userName: "full"), .truecolor)
        XCTAssertNil(GraphicsMode(userName: "braille"))
    }
}
