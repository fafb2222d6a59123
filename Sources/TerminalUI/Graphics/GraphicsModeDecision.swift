import BrowserCore
import TerminalGraphics

/// How the browser picks its picture protocol: the config/flag setting, the environment, and (only when it
/// can matter) the terminal's replies to a one-time probe. Pure apart from the probe closure.
struct GraphicsModeDecision {
    var capabilities: TerminalCapabilities
    var probed: Bool

    /// The mode a setting forces, or nil for `auto` (detect) and `none`.
    static func forcedMode(for setting: GraphicsModeSetting) -> GraphicsMode? {
        switch setting {
        case .auto, .none: return nil
        case .symbols: return .symbols
        case .sixel: return .sixels
        case .kitty: return .kitty
        case .iterm: return .iterm
        }
    }

    /// Probe only when a pixel protocol is possible: never for symbols, never in tmux unless a pixel mode is
    /// forced (tmux would answer for itself and the pictures would not survive anyway).
    static func shouldProbe(setting: GraphicsModeSetting, environment: [String: String]) -> Bool {
        switch setting {
        case .symbols, .none: return false
        case .sixel, .kitty, .iterm: return true
        case .auto:
            let insideTmux = TerminalCapabilities.detect(environment: environment).insideTmux
            return !insideTmux && environment["TERM"].map { !$0.isEmpty && $0 != "dumb" } == true
        }
    }

    static func decide(setting: GraphicsModeSetting, environment: [String: String],
                       probe: () -> TerminalReplies) -> GraphicsModeDecision {
        let probed = shouldProbe(setting: setting, environment: environment)
        let replies = probed ? probe() : .none
        let capabilities = TerminalCapabilities.detect(environment: environment, replies: replies,
                                                       forcedMode: forcedMode(for: setting))
        return GraphicsModeDecision(capabilities: capabilities, probed: probed)
    }

    /// The status-bar words for a pixel mode: "sixels 9x18 px cells (DA1 reports sixel graphics)".
    var pixelDescription: String {
        let cell = capabilities.cellPixelSize.map { "\($0.width)x\($0.height) px cells" } ?? "10x20 px cells assumed"
        let why = capabilities.reasons.first { $0.hasPrefix("graphics:") }
            .flatMap { $0.split(separator: "(", maxSplits: 1).last.map { "(" + $0 } } ?? ""
        return "\(capabilities.graphicsMode.rawValue), \(cell) \(why)".trimmingCharacters(in: .whitespaces)
    }
}
