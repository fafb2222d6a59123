/// What the terminal can show, and why livegrid thinks so. A pure function of the environment variables and
/// the recorded replies to the probe, so every rule is unit-tested (ARCHITECTURE.md, example 6).
public struct TerminalCapabilities: Sendable, Hashable {
    public var colorDepth: ColorDepth
    public var graphicsMode: GraphicsMode
    /// Cell size in pixels when the terminal told us (pixel-perfect geometry), else nil.
    public var cellPixelSize: PixelSizeInCells?
    public var insideTmux: Bool
    /// How many times pixel sequences are wrapped for tmux passthrough (0 outside tmux; 2 in nested tmux).
    public var tmuxPassthroughDepth: Int = 0
    /// Why pixel pictures were possible but are off (typed; its sentences are rendered where shown).
    public var blockedGraphics: BlockedGraphics?
    /// A short status-bar phrase when pixel pictures were possible but are off, with the fix
    /// ("tmux passthrough is off: set -g allow-passthrough on"); nil otherwise.
    public var graphicsHint: String? { blockedGraphics?.hint }
    /// Why the graphics mode was chosen ("answered the kitty graphics query"), as in `reasons`.
    public var graphicsWhy: String = ""
    /// One human sentence per decision ("graphics: kitty (answered the kitty graphics query)").
    public var reasons: [String]

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
                return "\(outer ? "the outer tmux" : "tmux") passthrough is off: \(TerminalCapabilities.passthroughFix)"
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

    public var why: String { reasons.joined(separator: "; ") }

    /// The environment variable that forces a graphics mode (`GraphicsModeSetting`'s words; `auto` and `none`
    /// leave the choice to detection here, the browser reads `none` as "no pictures").
    public static let overrideVariable = "LIVEGRID_GRAPHICS"

    /// - Parameters:
    ///   - forcedMode: a `--format` flag; wins over `LIVEGRID_GRAPHICS`, which wins over detection.
    ///   - forcedColors: a `--colors` flag.
    ///   - colors: the colour decision made with terminfo and tmux at hand (`ColorDepthDecision`); without it
    ///     the decision uses the environment alone.
    ///   - tmux: what tmux said about the pane and its client (nil: not asked, and inside tmux symbols are
    ///     used); `replies` then are the outer terminal's, probed through passthrough.
    public static func detect(environment env: [String: String], replies: TerminalReplies = .none,
                              tmux: TmuxChain? = nil,
                              forcedMode: GraphicsMode? = nil, forcedColors: ColorDepth? = nil,
                              colors colorDecision: ColorDepthDecision? = nil) -> TerminalCapabilities
    {
        let term = env["TERM"] ?? ""
        let program = env["TERM_PROGRAM"] ?? ""
        let insideTmux = env["TMUX"] != nil || term.hasPrefix("tmux") || term.hasPrefix("screen")
        var reasons: [String] = []

        // Colours.
        let decided = colorDecision ?? ColorDepthDecision.decide(
            environment: env, override: forcedColors.map { ColorDepthDecision.Override($0, source: "--colors") })
        let colors = decided.depth
        reasons.append("colours: \(decided.summary)")

        // Graphics.
        var mode: GraphicsMode
        var blocked: BlockedGraphics?
        let graphicsWhy: String
        if let forcedMode {
            mode = forcedMode
            graphicsWhy = "forced by flag"
        } else if let value = env[overrideVariable], let forced = GraphicsModeSetting(userName: value)?.forcedMode {
            mode = forced
            graphicsWhy = "forced by \(overrideVariable)=\(value)"
        } else if insideTmux, let tmux {
            let (detected, why, tmuxBlocked) = detectGraphicsThroughTmux(tmux, replies: replies)
            mode = detected
            blocked = tmuxBlocked
            graphicsWhy = why
        } else {
            let (detected, why) = detectGraphics(env: env, term: term, program: program, replies: replies,
                                                 insideTmux: insideTmux)
            mode = detected
            graphicsWhy = why
        }
        reasons.append("graphics: \(mode.rawValue) (\(graphicsWhy))")
        if term == "dumb" && mode.isPixelProtocol && forcedMode == nil && env[overrideVariable] == nil {
            mode = .symbols
        }

        var cell = replies.cellPixelSize
        if cell == nil, let window = replies.windowPixelSize, let cols = Int(env["COLUMNS"] ?? ""),
           let lines = Int(env["LINES"] ?? ""), cols > 0, lines > 0
        {
            cell = PixelSizeInCells(width: window.width / cols, height: window.height / lines)
        }
        if let cell { reasons.append("cell: \(cell.width)x\(cell.height) px (terminal reply)") }
        var capabilities = TerminalCapabilities(colorDepth: colors, graphicsMode: mode, cellPixelSize: cell,
                                                insideTmux: insideTmux, reasons: reasons)
        if insideTmux && mode.isPixelProtocol { capabilities.tmuxPassthroughDepth = max(1, tmux?.depth ?? 1) }
        capabilities.blockedGraphics = mode.isPixelProtocol ? nil : blocked
        capabilities.graphicsWhy = graphicsWhy
        return capabilities
    }

    static func detectGraphics(env: [String: String], term: String, program: String, replies: TerminalReplies,
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
}

extension TerminalCapabilities {
    /// The status-bar fix when tmux passthrough is off.
    public static let passthroughFix = "set -g allow-passthrough on"

    /// Inside tmux, with what tmux said and the outer terminal's replies through passthrough (none when
    /// passthrough is off: the probe is not sent). Returns the mode, why, and a status-bar hint.
    static func detectGraphicsThroughTmux(_ tmux: TmuxChain, replies: TerminalReplies)
        -> (GraphicsMode, String, BlockedGraphics?)
    {
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
