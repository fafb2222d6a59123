import BrowserCore
import BrowserRuntime
import Foundation
import GraphicsSettings
import TerminalGraphics

/// Chooses how the grid gets its pictures from the config, the environment and what curses can show, and
/// says why in one line for the status bar.
public enum PictureProviderChoice {
    /// - Parameter colors: the colour decision the session made (nil: the terminal has no colours).
    public static func make(setting: GraphicsModeSetting, colors: ColorDepthDecision?, version: String,
                            environment: [String: String],
                            badgeCorner: BadgeCorner = .topLeft, badgeStyle: LiveBadge.Style = .solid,
                            warn: @escaping @Sendable (String) -> Void) -> ThumbnailProvider {
        if setting == .none {
            return PlaceholderThumbnailProvider(reason: "no pictures (graphics.mode = none)")
        }
        guard let colors else {
            return PlaceholderThumbnailProvider(reason: "no pictures (the terminal has no colours)")
        }
        // Pixel protocols (sixel/kitty/iTerm2) when detected or asked for; the probe runs once, here.
        let decision = GraphicsModeDecision.decide(setting: setting, environment: environment,
                                                   tmux: { TmuxQuery.chain(environment: environment) },
                                                   probe: { depth in
            GraphicsModeDecision.probeTerminal(depth: depth, environment: environment)
        })
        let capabilities = decision.capabilities
        if capabilities.graphicsMode.isPixelProtocol {
            return ChafaThumbnailProvider(depth: .truecolor, reason: decision.pixelDescription, version: version,
                                          environment: environment,
                                          warn: warn, mode: capabilities.graphicsMode,
                                          cellPixelSize: capabilities.cellPixelSize,
                                          maxSixelSize: capabilities.maxSixelSize,
                                          badge: BadgePainter(corner: badgeCorner, style: badgeStyle),
                                          tmux: decision.passthroughTarget)
        }
        // Short: the status bar shortens the item's line first, and playback notes live there. The colour
        // reason names TERM (tmux's when inside tmux), which also tells why symbols were chosen there.
        var reason = (setting == .symbols ? "symbols (config), " : "symbols, ") + colors.summary
        if setting == .auto, let blocked = capabilities.blockedGraphics {
            // The fix once, where the messages go; a few words stay beside the mode.
            warn(blocked.hint)
            reason += " (\(blocked.shortHint))"
        }
        return ChafaThumbnailProvider(depth: colors.depth, reason: reason, version: version,
                                      environment: environment, warn: warn)
    }
}
