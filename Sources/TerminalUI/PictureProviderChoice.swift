import BrowserCore
import Foundation
import TerminalGraphics

/// Chooses how the grid gets its pictures from the config, the environment and what curses can show, and
/// says why in one line for the status bar.
public enum PictureProviderChoice {
    /// - Parameter colors: the colour decision the session made (nil: the terminal has no colours).
    public static func make(setting: GraphicsModeSetting, colors: ColorDepthDecision?, version: String,
                            environment: [String: String] = ProcessInfo.processInfo.environment,
                            badgeCorner: BadgeCornerSetting = .topLeft, badgeStyle: BadgeStyleSetting = .solid,
                            warn: @escaping @Sendable (String) -> Void) -> ThumbnailProvider {
        if setting == .none {
            return PlaceholderThumbnailProvider(reason: "no pictures (graphics.mode = none)")
        }
        guard let colors else {
            return PlaceholderThumbnailProvider(reason: "no pictures (the terminal has no colours)")
        }
        // Pixel protocols (sixel/kitty/iTerm2) when detected or asked for; the probe runs once, here.
        let decision = GraphicsModeDecision.decide(setting: setting, environment: environment) { TerminalProbe.query() }
        let capabilities = decision.capabilities
        if capabilities.graphicsMode.isPixelProtocol {
            return ChafaThumbnailProvider(depth: .truecolor, reason: decision.pixelDescription, version: version,
                                          warn: warn, mode: capabilities.graphicsMode,
                                          cellPixelSize: capabilities.cellPixelSize,
                                          badge: BadgePainter(corner: badgeCorner, style: badgeStyle),
                                          wrapForTmux: capabilities.insideTmux)
        }
        var mode = "symbols"
        switch setting {
        case .auto: mode += capabilities.insideTmux ? " (inside tmux)" : ""
        case .symbols: mode += " (config)"
        default: break
        }
        let reason = "\(mode), \(colors.summary)"
        return ChafaThumbnailProvider(depth: colors.depth, reason: reason, version: version, warn: warn)
    }
}
