import GraphicsSettings
import TerminalGraphics
import XCTest

/// The colour depth for each environment a user may carry (over SSH most carry TERM=xterm and nothing else),
/// with terminfo as Debian 12's ncurses-base/ncurses-term describe it.
final class ColorDepthDecisionTests: XCTestCase {
    /// `infocmp -1 NAME | grep -E 'colors#|RGB'` on Debian 12 (ncurses 6.4).
    static let terminfo: [String: ColorDepthDecision.Terminfo] = [
        "xterm": .init(colors: 8), "xterm-16color": .init(colors: 16), "xterm-256color": .init(colors: 256),
        "xterm-direct": .init(colors: 1 << 24, hasRGB: true), "screen": .init(colors: 8),
        "screen-256color": .init(colors: 256), "tmux-256color": .init(colors: 256),
        "tmux-direct": .init(colors: 1 << 24, hasRGB: true), "linux": .init(colors: 8),
        "linux-16color": .init(colors: 16), "vt100": .init(colors: -1), "dumb": .init(colors: -1),
        "rxvt": .init(colors: 8), "konsole-direct": .init(colors: 1 << 24, hasRGB: true),
    ]

    func decide(_ env: [String: String], tmux: ColorDepthDecision.TmuxClient? = nil,
                override: ColorDepthDecision.Override? = nil) -> ColorDepthDecision {
        ColorDepthDecision.decide(environment: env, override: override, terminfo: { Self.terminfo[$0] },
                                  tmuxClient: tmux)
    }

    func testTableOfEnvironments() {
        let tmuxSocket = "/tmp/tmux-0/default,1234,0"
        let table: [(env: [String: String], depth: ColorDepth, reason: String)] = [
            // The SSH case of issue 14: TERM=xterm, nothing else. xterm-compatible: 256 like chafa.
            (["TERM": "xterm"], .indexed256, "TERM=xterm: xterm-compatible"),
            (["TERM": "xterm", "COLORTERM": "truecolor"], .truecolor, "COLORTERM=truecolor"),
            (["TERM": "xterm", "COLORTERM": "24bit"], .truecolor, "COLORTERM=24bit"),
            (["TERM": "xterm", "TERM_PROGRAM": "iTerm.app"], .truecolor, "TERM_PROGRAM=iTerm.app"),
            (["TERM": "xterm", "VTE_VERSION": "7006"], .truecolor, "VTE_VERSION=7006"),
            (["TERM": "xterm-16color"], .indexed256, "TERM=xterm-16color: xterm-compatible"),
            // chafa: "terminals that advertise 256 colors usually support truecolor too (VTE, xterm)". But every
            // terminal sends xterm-256color, SSH forwards it without COLORTERM, and macOS Terminal (before 26)
            // cannot show 24-bit colour: truecolour only where the terminal says so.
            (["TERM": "xterm-256color"], .indexed256, "TERM=xterm-256color, no COLORTERM"),
            (["TERM": "xterm-256color", "COLORTERM": "truecolor"], .truecolor, "COLORTERM=truecolor"),
            // ... except Apple's Terminal, which says so in TERM_PROGRAM.
            (["TERM": "xterm-256color", "TERM_PROGRAM": "Apple_Terminal"], .indexed256, "TERM_PROGRAM=Apple_Terminal"),
            (["TERM": "xterm-direct"], .truecolor, "TERM=xterm-direct"),
            (["TERM": "konsole-direct"], .truecolor, "TERM=konsole-direct"),
            // screen does not like 24-bit colour, even with COLORTERM leaking into it (chafa).
            (["TERM": "screen"], .indexed256, "TERM=screen"),
            (["TERM": "screen", "COLORTERM": "truecolor"], .indexed256, "TERM=screen"),
            // tmux without an attached client to ask: what the pane's TERM says.
            (["TERM": "screen", "TMUX": tmuxSocket], .truecolor, "TERM=screen inside tmux"),
            (["TERM": "tmux-256color", "TMUX": tmuxSocket], .indexed256, "TERM=tmux-256color"),
            (["TERM": "tmux-256color", "TMUX": tmuxSocket, "COLORTERM": "truecolor"], .truecolor, "COLORTERM=truecolor"),
            (["TERM": "tmux-direct"], .truecolor, "TERM=tmux-direct"),
            // The Linux console: 16 colours (bright ones through bold), as chafa says.
            (["TERM": "linux"], .indexed16, "TERM=linux"),
            (["TERM": "linux", "COLORTERM": "1"], .indexed16, "TERM=linux"),
            // No colours in terminfo and nothing else to go by: 8.
            (["TERM": "vt100"], .indexed8, "TERM=vt100: terminfo lists no colours"),
            (["TERM": "vt100", "COLORTERM": "truecolor"], .truecolor, "COLORTERM=truecolor"),
            (["TERM": "dumb"], .indexed8, "TERM=dumb: terminfo lists no colours"),
            ([:], .indexed8, "TERM unset"),
            (["TERM": "rxvt-unicode"], .indexed16, "TERM=rxvt-unicode"),
            (["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], .truecolor, "TERM=xterm-kitty"),
            (["TERM": "foot"], .truecolor, "TERM=foot: foot"),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], .truecolor, "TERM_PROGRAM=WezTerm"),
        ]
        for row in table {
            let decision = decide(row.env)
            XCTAssertEqual(decision.depth, row.depth, "\(row.env): \(decision.summary)")
            // Exact, except the long vt100/dumb sentences (their start is enough).
            if decision.reason.count > 40 {
                XCTAssertTrue(decision.reason.hasPrefix(row.reason), "\(row.env): \(decision.reason)")
            } else {
                XCTAssertEqual(decision.reason, row.reason, "\(row.env)")
            }
        }
    }

    /// Inside tmux, what reaches the screen is what tmux's client terminal takes.
    func testInsideTmuxTheClientTerminalDecides() {
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        let rgb = decide(env, tmux: ColorDepthDecision.TmuxClient(displayOutput: "xterm 256,RGB,bpaste,title\n"))
        XCTAssertEqual(rgb.depth, .truecolor)
        XCTAssertEqual(rgb.reason, "tmux client xterm has the RGB feature")
        let only256 = decide(env, tmux: ColorDepthDecision.TmuxClient(displayOutput: "xterm 256,title"))
        XCTAssertEqual(only256.depth, .indexed256)
        let fromTerminfo = decide(env, tmux: ColorDepthDecision.TmuxClient(displayOutput: "xterm-256color title"))
        XCTAssertEqual(fromTerminfo.depth, .indexed256)
        // A client with 8 colours and no feature: tmux would squash 256 colours without dithering.
        let squashed = decide(env, tmux: ColorDepthDecision.TmuxClient(displayOutput: "linux "))
        XCTAssertEqual(squashed.depth, .indexed8)
        XCTAssertTrue(squashed.reason.contains("terminal-features"), squashed.reason)
        // No client (a detached session) answers an empty line.
        XCTAssertNil(ColorDepthDecision.TmuxClient(displayOutput: "\n"))
        // Outside tmux a stale client answer is ignored.
        XCTAssertEqual(decide(["TERM": "xterm"], tmux: ColorDepthDecision.TmuxClient(displayOutput: "linux")).depth,
                       .indexed256)
    }

    func testOverridesWinAndSayWhere() {
        let flag = decide(["TERM": "xterm-256color", "COLORTERM": "truecolor"],
                          override: .init(.indexed8, source: "--colors 8"))
        XCTAssertEqual(flag.depth, .indexed8)
        XCTAssertEqual(flag.summary, "8 colours (set by --colors 8)")
        XCTAssertEqual(decide(["TERM": "xterm"]).summary, "256 colours (TERM=xterm: xterm-compatible)")
    }

    /// chafa's own answer, through its 1.12 database (the black box the reasons are read from).
    func testChafaDatabaseAnswers() {
        XCTAssertEqual(ColorDepthDecision.chafaDepth(environment: ["TERM": "xterm"]), .indexed256)
        XCTAssertEqual(ColorDepthDecision.chafaDepth(environment: ["TERM": "xterm-256color"]), .truecolor)
        XCTAssertEqual(ColorDepthDecision.chafaDepth(environment: ["TERM": "linux"]), .indexed16)
        XCTAssertEqual(ColorDepthDecision.chafaDepth(environment: ["TERM": "rxvt-unicode"]), .indexed16)
        XCTAssertEqual(ColorDepthDecision.chafaDepth(environment: ["TERM": "screen", "COLORTERM": "truecolor"]), .indexed256)
    }

    func testUserNamesAreOneVocabulary() {
        for (name, depth) in [("full", ColorDepth.truecolor), ("truecolor", .truecolor), ("24bit", .truecolor),
                              ("256", .indexed256), ("16", .indexed16), ("8", .indexed8)] {
            XCTAssertEqual(ColorDepth(userName: name), depth, name)
        }
        XCTAssertNil(ColorDepth(userName: "auto"), "auto means: decide")
        XCTAssertNil(ColorDepth(userName: "88"))
    }
}

/// Issue 31.6: when the terminal is asked about 24-bit colour, and what its answer changes.
final class TerminalColourAnswerTests: XCTestCase {
    private let ssh = ["TERM": "xterm-256color"]

    func testAskedOnlyWhenTheEnvironmentFallsShortAndNothingWasChosen() {
        let fallback = ColorDepthDecision.decide(environment: ssh)
        XCTAssertEqual(fallback.depth, .indexed256)
        XCTAssertTrue(ColorDepthDecision.shouldAskTerminal(fallback, override: nil, environment: ssh))
        let chosen = ColorDepthDecision.Override(.indexed256, source: "--colors 256")
        XCTAssertFalse(ColorDepthDecision.shouldAskTerminal(fallback, override: chosen, environment: ssh))
        let truecolour = ColorDepthDecision(depth: .truecolor, reason: "COLORTERM=truecolor")
        XCTAssertFalse(ColorDepthDecision.shouldAskTerminal(truecolour, override: nil, environment: ssh))
        XCTAssertFalse(ColorDepthDecision.shouldAskTerminal(fallback, override: nil,
                                                            environment: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"]))
        XCTAssertFalse(ColorDepthDecision.shouldAskTerminal(fallback, override: nil, environment: ["TERM": "dumb"]))
        XCTAssertFalse(ColorDepthDecision.shouldAskTerminal(fallback, override: nil, environment: [:]))
    }

    func testAYesGivesTruecolourWithTheReasonAndNoAnswerChangesNothing() {
        let fallback = ColorDepthDecision.decide(environment: ssh)
        XCTAssertEqual(fallback.confirmed(byTerminal: nil), fallback)
        let confirmed = fallback.confirmed(byTerminal: "the terminal answers XTGETTCAP RGB")
        XCTAssertEqual(confirmed.depth, .truecolor)
        XCTAssertEqual(confirmed.summary, "truecolour (the terminal answers XTGETTCAP RGB)")
    }
}
