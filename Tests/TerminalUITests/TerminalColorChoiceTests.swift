import GraphicsSettings
@testable import TerminalUI
import TerminalGraphics
import XCTest

/// Which terminfo entry curses starts with, for each decision (Debian 12's entries).
final class TerminalColorChoiceTests: XCTestCase {
    func entry(_ depth: ColorDepth, term: String) -> (String, ColorDepth) {
        let chosen = TerminalColorChoice.cursesTerminal(for: ColorDepthDecision(depth: depth, reason: "test"), term: term)
        return (chosen.term, chosen.decision.depth)
    }

    /// Needs Debian's ncurses-term (a build package: `make deps` installs it).
    func testRicherSiblingsOfTheUsersTerm() throws {
        XCTAssertTrue(entry(.indexed256, term: "xterm") == ("xterm-256color", .indexed256))
        XCTAssertTrue(entry(.truecolor, term: "xterm") == ("xterm-direct", .truecolor))
        XCTAssertTrue(entry(.truecolor, term: "xterm-256color") == ("xterm-direct", .truecolor))
        XCTAssertTrue(entry(.indexed8, term: "xterm") == ("xterm", .indexed8), "8 colours: the user's own entry")
        XCTAssertTrue(entry(.indexed16, term: "xterm") == ("xterm-16color", .indexed16))
        XCTAssertTrue(entry(.indexed16, term: "linux") == ("linux-16color", .indexed16))
        XCTAssertTrue(entry(.truecolor, term: "tmux-256color") == ("tmux-direct", .truecolor))
        XCTAssertTrue(entry(.indexed256, term: "xterm-direct") == ("xterm-256color", .indexed256))
        // screen has no -direct entry: 256 colours, and the reason says why.
        let screen = TerminalColorChoice.cursesTerminal(for: ColorDepthDecision(depth: .truecolor, reason: "r"),
                                                        term: "screen")
        XCTAssertEqual(screen.term, "screen-256color")
        XCTAssertEqual(screen.decision.depth, .indexed256)
        XCTAssertTrue(screen.decision.reason.contains("no terminfo entry"), screen.decision.reason)
    }

    func testTerminfoLookup() {
        XCTAssertEqual(TerminalColorChoice.terminfo(named: "xterm")?.colors, 8)
        XCTAssertEqual(TerminalColorChoice.terminfo(named: "xterm-256color")?.colors, 256)
        XCTAssertNil(TerminalColorChoice.terminfo(named: "no-such-terminal-\(getpid())"))
        XCTAssertNil(TerminalColorChoice.terminfo(named: "../../etc/passwd"))
    }
}
