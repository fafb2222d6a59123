import BrowserCore
import Foundation
import TerminalGraphics

/// Chooses how the grid gets its pictures from the config, the environment and what curses can show, and
/// says why in one line for the status bar.
public enum PictureProviderChoice {
    public static func make(setting: GraphicsModeSetting, depth: CursesColorDepth, version: String,
                            environment: [String: String] = ProcessInfo.processInfo.environment,
                            warn: @escaping @Sendable (String) -> Void) -> ThumbnailProvider {
        if setting == .none {
            return PlaceholderThumbnailProvider(reason: "no pictures (graphics.mode = none)")
        }
        guard let renderDepth = depth.renderDepth else {
            return PlaceholderThumbnailProvider(reason: "no pictures (the terminal has no colours)")
        }
        let capabilities = TerminalCapabilities.detect(environment: environment)
        var reason = "symbols, \(depth.name)"
        switch setting {
        case .auto where capabilities.graphicsMode != .symbols:
            // Pixel protocols need a writer that places images after curses' update; until then symbols.
            reason += " (\(capabilities.graphicsMode.rawValue) detected; the grid draws symbols for now)"
        case .auto:
            reason += capabilities.insideTmux ? " (inside tmux)" : ""
        case .symbols:
            reason += " (config)"
        default:
            reason += " (\(setting.rawValue) asked; the grid draws symbols for now)"
        }
        return ChafaThumbnailProvider(depth: renderDepth, reason: reason, version: version, warn: warn)
    }
}
