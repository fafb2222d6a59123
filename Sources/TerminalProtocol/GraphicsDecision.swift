/// Which picture protocol the terminal gets, and why: a pure function of recorded facts (the environment
/// variables, the replies to the start-up probe, what tmux said about the pane), so every rule is unit-tested
/// with recorded answers. The colour half of the capability decision needs chafa's terminal database and
/// lives in TerminalGraphics (`TerminalCapabilities` puts both together).
public struct GraphicsDecision: Sendable, Hashable {
    public var mode: GraphicsMode
    /// The mode the rules chose, before TERM=dumb vetoes a detected pixel mode (what `why` explains).
    public var detectedMode: GraphicsMode
    /// Why the mode was chosen ("answered the kitty graphics query").
    public var why: String
    /// Cell size in pixels when the terminal told us (pixel-perfect geometry), else nil.
    public var cellPixelSize: PixelSizeInCells?
    public var insideTmux: Bool
    /// How many times pixel sequences are wrapped for tmux passthrough (0 outside tmux; 2 in nested tmux).
    public var tmuxPassthroughDepth: Int
    /// Why pixel pictures were possible but are off.
    public var blocked: BlockedGraphics?

    /// What keeps pixel pictures out inside tmux although the terminal outside may show them.
    public enum BlockedGraphics: Sendable, Hashable {
        /// tmux older than 3.3 has no passthrough.
        case tmuxTooOld(version: String)
        /// Passthrough is off in tmux (`outer`: in the outer one of nested tmuxes).
        case passthroughOff(outer: Bool)

        /// The status-bar phrase with the fix.
        public var hint: String {
            switch self {
            case .tmuxTooOld(let version): return "tmux \(version): pictures need tmux 3.3+"
            case .passthroughOff(let outer):
                return "\(outer ? "the outer tmux" : "tmux") passthrough is off: \(GraphicsDecision.passthroughFix)"
            }
        }

        /// A few words to keep beside the mode once the hint was shown.
        public var shortHint: String {
            switch self {
            case .tmuxTooOld(let version): return "tmux \(version)"
            case .passthroughOff: return "passthrough off"
            }
        }
    }

    /// The status-bar fix when tmux passthrough is off.
    public static let passthroughFix = "set -g allow-passthrough on"

    /// The environment variable that forces a graphics mode (read by the caller, which knows its words).
    public static let overrideVariable = "LIVEGRID_GRAPHICS"

    /// Whether the environment says livegrid runs inside tmux (or screen).
    public static func isInsideTmux(environment env: [String: String]) -> Bool {
        let term = env["TERM"] ?? ""
        return env["TMUX"] != nil || term.hasPrefix("tmux") || term.hasPrefix("screen")
    }

    /// - Parameters:
    ///   - forcedMode: a `--graphics`/`--format` flag; wins over the environment, which wins over detection.
    ///   - environmentMode: the mode `LIVEGRID_GRAPHICS` forces, with the value as written.
    ///   - tmux: what tmux said about the pane and its client (nil: not asked, and inside tmux symbols are
    ///     used); `replies` then are the outer terminal's, probed through passthrough.
    public static func decide(environment env: [String: String], replies: TerminalReplies = .none,
                              tmux: TmuxChain? = nil, forcedMode: GraphicsMode? = nil,
                              environmentMode: (mode: GraphicsMode, value: String)? = nil) -> GraphicsDecision
    {
        let term = env["TERM"] ?? ""
        let program = env["TERM_PROGRAM"] ?? ""
        let insideTmux = isInsideTmux(environment: env)
        var mode: GraphicsMode
        var blocked: BlockedGraphics?
        let why: String
        if let forcedMode {
            mode = forcedMode
            why = "forced by flag"
        } else if let environmentMode {
            mode = environmentMode.mode
            why = "forced by \(overrideVariable)=\(environmentMode.value)"
        } else if insideTmux, let tmux {
            (mode, why, blocked) = throughTmux(tmux, replies: replies)
        } else {
            (mode, why) = direct(env: env, term: term, program: program, replies: replies, insideTmux: insideTmux)
        }
        let detectedMode = mode
        if term == "dumb" && mode.isPixelProtocol && forcedMode == nil && environmentMode == nil {
            mode = .symbols
        }
        var cell = replies.cellPixelSize
        if cell == nil, let window = replies.windowPixelSize, let cols = Int(env["COLUMNS"] ?? ""),
           let lines = Int(env["LINES"] ?? ""), cols > 0, lines > 0
        {
            cell = PixelSizeInCells(width: window.width / cols, height: window.height / lines)
        }
        let depth = insideTmux && mode.isPixelProtocol ? max(1, tmux?.depth ?? 1) : 0
        return GraphicsDecision(mode: mode, detectedMode: detectedMode, why: why, cellPixelSize: cell, insideTmux: insideTmux,
                                tmuxPassthroughDepth: depth, blocked: mode.isPixelProtocol ? nil : blocked)
    }

    /// Outside tmux (or inside it without its facts).
    static func direct(env: [String: String], term: String, program: String, replies: TerminalReplies,
                       insideTmux: Bool) -> (GraphicsMode, String)
    {
        if term == "dumb" || term.isEmpty { return (.symbols, term.isEmpty ? "TERM unset" : "dumb terminal") }
        if insideTmux {
            return (.symbols, "inside tmux, which drops or wipes pixel images; symbols always work "
                    + "(set \(overrideVariable) to force a pixel mode)")
        }
        let isITerm = program == "iTerm.app" || env["LC_TERMINAL"] == "iTerm2"
        if isITerm { return (.iterm, "iTerm2 (answers the kitty query but renders OSC 1337 reliably)") }
        if program == "WezTerm" { return (.iterm, "WezTerm (its OSC 1337 support is the most reliable)") }
        if replies.kittyGraphicsOK { return (.kitty, "answered the kitty graphics query") }
        if env["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" { return (.kitty, "kitty (environment)") }
        if replies.supportsSixel { return (.sixels, "DA1 reports sixel graphics (attribute 4)") }
        if term.hasPrefix("foot") || term.hasPrefix("mlterm") || term.hasPrefix("contour") || term.hasPrefix("yaft") {
            return (.sixels, "TERM=\(term) has sixel graphics")
        }
        if replies.primaryDeviceAttributes != nil {
            return (.symbols, "the terminal answered but offers no graphics protocol (e.g. mosh, xterm without sixel)")
        }
        return (.symbols, "no graphics protocol detected (no replies to the probe)")
    }

    /// Inside tmux, with what tmux said and the outer terminal's replies through passthrough (none when
    /// passthrough is off: the probe is not sent).
    static func throughTmux(_ tmux: TmuxChain, replies: TerminalReplies) -> (GraphicsMode, String, BlockedGraphics?) {
        guard let inner = tmux.levels.first, inner.hasClient else {
            // Nobody would see a hint, and nothing is known of the terminal a client will bring.
            return (.symbols, "inside tmux with no client attached to ask", nil)
        }
        if let old = tmux.tooOld {
            return (.symbols, "tmux \(old.version) cannot pass pictures through (3.3 or later can)",
                    .tmuxTooOld(version: old.version))
        }
        if let off = tmux.passthroughOff {
            let which = off.index == 0 ? "tmux" : "the outer tmux"
            return (.symbols, "\(which) passthrough is off; \(passthroughFix) shows pictures",
                    .passthroughOff(outer: off.index != 0))
        }
        let outer = tmux.outerTerminal.map { "the terminal outside tmux (\($0))" } ?? "the terminal outside tmux"
        let outerName = tmux.levels.last?.clientTermname ?? ""
        if replies.kittyGraphicsOK { return (.kitty, "\(outer) answered the kitty graphics query through passthrough", nil) }
        if outerName == "xterm-kitty" { return (.kitty, "\(outer) is kitty (client_termname)", nil) }
        if replies.supportsSixel { return (.sixels, "\(outer) reports sixel graphics through passthrough (DA1 attribute 4)", nil) }
        if ["foot", "mlterm", "contour", "yaft"].contains(where: { outerName.hasPrefix($0) }) {
            return (.sixels, "\(outer) has sixel graphics (client_termname)", nil)
        }
        if replies.primaryDeviceAttributes != nil {
            return (.symbols, "\(outer) answered through passthrough but offers no graphics protocol", nil)
        }
        return (.symbols, "no reply through tmux passthrough (an outer tmux may have passthrough off)", nil)
    }
}
