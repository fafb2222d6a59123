import BrowserCore
import GraphicsSettings
import TerminalGraphics
import TerminalProtocol

/// How the browser picks its picture protocol: the config/flag setting, the environment, and (only when it
/// can matter) the terminal's replies to a one-time probe. Pure apart from the probe closure.
struct GraphicsModeDecision {
    var capabilities: TerminalCapabilities
    var probed: Bool
    /// Inside tmux: what tmux said (nil outside tmux, or when tmux did not answer).
    var tmux: TmuxChain? = nil

    /// Probe only when a pixel protocol is possible: never for symbols; in tmux only through passthrough
    /// (tmux ≥ 3.3, passthrough on, a client attached), else only when a pixel mode is forced (tmux answers
    /// for itself then, which still gives DA1).
    /// - Returns: how many times to wrap the probe for tmux passthrough, or nil for no probe.
    static func probeDepth(setting: GraphicsModeSetting, environment: [String: String], tmux: TmuxChain?) -> Int? {
        let insideTmux = GraphicsDecision.isInsideTmux(environment: environment)
        let passthrough = tmux.flatMap { chain -> Int? in
            guard chain.tooOld == nil, chain.passthroughOff == nil, chain.levels.first?.hasClient == true else { return nil }
            return chain.depth
        }
        switch setting {
        case .symbols, .none: return nil
        case .sixel, .kitty, .iterm: return passthrough ?? 0
        case .auto:
            if insideTmux { return passthrough }
            return environment["TERM"].map { !$0.isEmpty && $0 != "dumb" } == true ? 0 : nil
        }
    }

    static func shouldProbe(setting: GraphicsModeSetting, environment: [String: String]) -> Bool {
        probeDepth(setting: setting, environment: environment, tmux: nil) != nil
    }

    static func decide(setting: GraphicsModeSetting, environment: [String: String],
                       probe: () -> TerminalReplies) -> GraphicsModeDecision {
        decide(setting: setting, environment: environment, tmux: { nil }, probe: { _ in probe() })
    }

    /// - Parameters:
    ///   - tmux: asks tmux about the pane (called only inside tmux, and only when pictures are wanted).
    ///   - probe: sends the probe, wrapped the given number of times for tmux passthrough.
    static func decide(setting: GraphicsModeSetting, environment: [String: String], tmux: () -> TmuxChain?,
                       colors: ColorDepthDecision? = nil,
                       probe: (Int) -> TerminalReplies) -> GraphicsModeDecision {
        let insideTmux = GraphicsDecision.isInsideTmux(environment: environment)
        let chain = insideTmux && setting != .symbols && setting != .none ? tmux() : nil
        let depth = probeDepth(setting: setting, environment: environment, tmux: chain)
        let replies = depth.map(probe) ?? .none
        let capabilities = TerminalCapabilities.detect(environment: environment, replies: replies, tmux: chain,
                                                       forcedMode: setting.forcedMode, colors: colors)
        return GraphicsModeDecision(capabilities: capabilities, probed: depth != nil, tmux: chain)
    }

    /// The start-up probe on the tty, as the browser and `livegrid show` send it: wrapped `depth` times for
    /// tmux passthrough; replies through tmux take two hops, so a longer deadline; the kitty graphics query
    /// left out where tmux would make it the pane title.
    static func probeTerminal(depth: Int, environment: [String: String]) -> TerminalReplies {
        TerminalProbe.query(timeoutMilliseconds: depth > 0 ? 500 : 200, passthroughDepth: depth,
                            kittyGraphics: depth > 0 || TerminalReplies.mayAskKittyGraphicsUnwrapped(environment: environment))
    }

    /// Where pixel sequences go inside tmux (nil outside tmux or in symbol mode).
    var passthroughTarget: TmuxPassthroughTarget? {
        guard capabilities.tmuxPassthroughDepth > 0 else { return nil }
        guard let tmux else { return TmuxPassthroughTarget(depth: capabilities.tmuxPassthroughDepth) }
        return TmuxPassthroughTarget(chain: tmux, depth: capabilities.tmuxPassthroughDepth)
    }

    /// The status-bar words for a pixel mode: "sixels 9x18 px cells (DA1 reports sixel graphics)".
    var pixelDescription: String {
        let cell = capabilities.cellPixelSize.map { "\($0.width)x\($0.height) px cells" } ?? "10x20 px cells assumed"
        // Inside tmux the whole reason ("the terminal outside tmux (XTerm(379)) reports sixel graphics through
        // passthrough") would squeeze the item's name out of the status bar: `--why`/`show --why` keep it.
        let why = capabilities.tmuxPassthroughDepth > 0 ? "(through tmux)"
            : capabilities.graphicsWhy.isEmpty ? "" : "(\(capabilities.graphicsWhy))"
        return "\(capabilities.graphicsMode.rawValue), \(cell) \(why)".trimmingCharacters(in: .whitespaces)
    }
}

/// `livegrid show`'s detection (issue 31.6): the browser's decision, with the browser's probe and deadlines
/// (show is not in curses, so it owns the tty while it asks), so `show` in xterm with sixel draws sixels.
public enum ShowGraphicsDetection {
    /// - Parameters:
    ///   - forcedMode: `--format` (nil: LIVEGRID_GRAPHICS, else detect).
    ///   - colors: the colour decision already made.
    public static func capabilities(forcedMode: GraphicsMode?, environment: [String: String],
                                    colors: ColorDepthDecision) -> TerminalCapabilities {
        let setting = forcedMode.map(GraphicsModeSetting.init) ?? .auto
        return GraphicsModeDecision.decide(setting: setting, environment: environment,
                                           tmux: { TmuxQuery.chain(environment: environment) }, colors: colors,
                                           probe: { GraphicsModeDecision.probeTerminal(depth: $0, environment: environment) })
            .capabilities
    }
}
