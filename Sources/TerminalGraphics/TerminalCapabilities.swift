import GraphicsSettings
import TerminalProtocol

/// What the terminal can show, and why livegrid thinks so: the colour decision (chafa's terminal database,
/// `ColorDepthDecision`) plus the graphics decision, a pure function of recorded facts in TerminalProtocol
/// (`GraphicsDecision`). Every rule is unit-tested (ARCHITECTURE.md, example 6).
public struct TerminalCapabilities: Sendable, Hashable {
    public var colorDepth: ColorDepth
    public var graphicsMode: GraphicsMode
    /// Cell size in pixels when the terminal told us (pixel-perfect geometry), else nil.
    public var cellPixelSize: PixelSizeInCells?
    public var insideTmux: Bool
    /// The largest sixel picture the terminal shows (XTSMGRAPHICS reply), nil when it did not say: sixel
    /// pictures are fitted within it (DECISIONS.md, "Sixel size limit").
    public var maxSixelSize: PixelSizeInCells?
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
    public typealias BlockedGraphics = GraphicsDecision.BlockedGraphics

    public var why: String { reasons.joined(separator: "; ") }

    /// The environment variable that forces a graphics mode (`GraphicsModeSetting`'s words; `auto` and `none`
    /// leave the choice to detection here, the browser reads `none` as "no pictures").
    public static let overrideVariable = GraphicsDecision.overrideVariable

    /// The status-bar fix when tmux passthrough is off.
    public static let passthroughFix = GraphicsDecision.passthroughFix

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
        var reasons: [String] = []
        let decided = colorDecision ?? ColorDepthDecision.decide(
            environment: env, override: forcedColors.map { ColorDepthDecision.Override($0, source: "--colors") })
        reasons.append("colours: \(decided.summary)")

        // LIVEGRID_GRAPHICS in `GraphicsModeSetting`'s words (`auto` and `none` force nothing here).
        let environmentMode = env[overrideVariable].flatMap { value in
            GraphicsModeSetting(userName: value)?.forcedMode.map { (mode: $0, value: value) }
        }
        let graphics = GraphicsDecision.decide(environment: env, replies: replies, tmux: tmux, forcedMode: forcedMode,
                                               environmentMode: environmentMode)
        // The reason names the mode detected, before a dumb terminal's veto (as the status line always did).
        reasons.append("graphics: \(graphics.detectedMode.rawValue) (\(graphics.why))")
        if let cell = graphics.cellPixelSize { reasons.append("cell: \(cell.width)x\(cell.height) px (terminal reply)") }
        var capabilities = TerminalCapabilities(colorDepth: decided.depth, graphicsMode: graphics.mode,
                                                cellPixelSize: graphics.cellPixelSize,
                                                insideTmux: graphics.insideTmux, reasons: reasons)
        if let limit = replies.maxSixelSize {
            capabilities.maxSixelSize = limit
            reasons.append("sixel limit: \(limit.width)x\(limit.height) px (XTSMGRAPHICS)")
            capabilities.reasons = reasons
        }
        capabilities.tmuxPassthroughDepth = graphics.tmuxPassthroughDepth
        capabilities.blockedGraphics = graphics.blocked
        capabilities.graphicsWhy = graphics.why
        return capabilities
    }
}
