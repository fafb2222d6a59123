import BrowserCore
import Foundation
import TerminalGraphics

/// Chooses how the grid gets its pictures from the config, the environment and what curses can show, and
/// says why in one line for the status bar.
public enum PictureProviderChoice {
    public static func make(setting: GraphicsModeSetting, depth: CursesColorDepth, version: String,
                            environment: [String: String] = ProcessInfo.processInfo.environment,
                            badgeCorner: BadgeCornerSetting = .topLeft, badgeStyle: BadgeStyleSetting = .solid,
                            warn: @escaping @Sendable (String) -> Void) -> ThumbnailProvider {
        if setting == .none {
            return PlaceholderThumbnailProvider(reason: "no pictures (graphics.mode = none)")
        }
        guard let renderDepth = depth.renderDepth else {
            return PlaceholderThumbnailProvider(reason: "no pictures (the terminal has no colours)")
        }
        // Pixel protocols (sixel/kitty/iTerm2) when detected or asked for; the probe runs once, here.
        let decision = GraphicsModeDecision.decide(setting: setting, environment: environment,
                                                   tmux: { TmuxQuery.chain(environment: environment) },
                                                   probe: { depth in
            // Replies through tmux take two hops: a longer deadline.
            TerminalProbe.query(timeoutMilliseconds: depth > 0 ? 500 : 200, passthroughDepth: depth)
        })
        let capabilities = decision.capabilities
        if capabilities.graphicsMode.isPixelProtocol {
            return ChafaThumbnailProvider(depth: .truecolor, reason: decision.pixelDescription, version: version,
                                          warn: warn, mode: capabilities.graphicsMode,
                                          cellPixelSize: capabilities.cellPixelSize,
                                          badge: BadgePainter(corner: badgeCorner, style: badgeStyle),
                                          tmux: decision.passthroughTarget)
        }
        var reason = "symbols, \(depth.name)"
        switch setting {
        case .auto:
            if let hint = capabilities.graphicsHint {
                // The fix once, where the messages go; a few words stay beside the mode (the status line's
                // right part must leave room for the item and playback on its left).
                warn(hint)
                let short = hint.contains("passthrough is off") ? "passthrough off"
                    : hint.split(separator: ":").first.map(String.init) ?? hint
                reason += " (\(short))"
            } else {
                reason += capabilities.insideTmux ? " (inside tmux)" : ""
            }
        case .symbols:
            reason += " (config)"
        default:
            break
        }
        return ChafaThumbnailProvider(depth: renderDepth, reason: reason, version: version, warn: warn)
    }
}
