/// What the terminal can show, and why livegrid thinks so. A pure function of the environment variables and
/// the recorded replies to the probe, so every rule is unit-tested (ARCHITECTURE.md, example 6).
public struct TerminalCapabilities: Sendable, Hashable {
    public var colorDepth: ColorDepth
    public var graphicsMode: GraphicsMode
    /// Cell size in pixels when the terminal told us (pixel-perfect geometry), else nil.
    public var cellPixelSize: PixelSizeInCells?
    public var insideTmux: Bool
    /// One human sentence per decision ("graphics: kitty (answered the kitty graphics query)").
    public var reasons: [String]

    public var why: String { reasons.joined(separator: "; ") }

    /// The environment variable that forces a graphics mode (same values as `--format`).
    public static let overrideVariable = "LIVEGRID_GRAPHICS"

    /// - Parameters:
    ///   - forcedMode: a `--format` flag; wins over `LIVEGRID_GRAPHICS`, which wins over detection.
    ///   - forcedColors: a `--colors` flag.
    ///   - colors: the colour decision made with terminfo and tmux at hand (`ColorDepthDecision`); without it
    ///     the decision uses the environment alone.
    public static func detect(environment env: [String: String], replies: TerminalReplies = .none,
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
        if let forcedMode {
            mode = forcedMode
            reasons.append("graphics: \(mode.rawValue) (forced by flag)")
        } else if let value = env[overrideVariable], let forced = GraphicsMode(userName: value) {
            mode = forced
            reasons.append("graphics: \(mode.rawValue) (forced by \(overrideVariable)=\(value))")
        } else {
            let (detected, why) = detectGraphics(env: env, term: term, program: program, replies: replies,
                                                 insideTmux: insideTmux)
            mode = detected
            reasons.append("graphics: \(mode.rawValue) (\(why))")
        }
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
        return TerminalCapabilities(colorDepth: colors, graphicsMode: mode, cellPixelSize: cell,
                                    insideTmux: insideTmux, reasons: reasons)
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
