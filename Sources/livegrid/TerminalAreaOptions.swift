import ArgumentParser
import BrowserCore
import Foundation
import GraphicsSettings
import TerminalGraphics
import TerminalProtocol
import TerminalUI

/// `--size`, `--format` and `--colors` for the commands that draw into the terminal (`show`, `play`), and
/// what they resolve to: the area in cells and the capabilities (detected, or forced by the options).
struct TerminalAreaOptions: ParsableArguments {
    @Option(help: "Area in cells, WxH (default: the terminal size, or 80x24 when not a terminal).")
    var size: String?

    @Option(help: "Graphics mode (default: detected; also sixel, iterm2, block).")
    var format: GraphicsMode?

    @Option(help: "Colours (default: the config's graphics.colors, else decided like chafa; --why says how).")
    var colors: ColorDepthSetting?

    func validate() throws {
        if let size, ShowCommand.parseCells(size) == nil {
            throw ValidationError("--size must be WxH in cells (got \(size))")
        }
    }

    /// The area (one row short of the terminal, so output never scrolls it) and the capabilities.
    /// - Parameter probe: ask the terminal as the browser does (`show`); else the environment alone decides.
    func resolve(probe: Bool = false) -> (area: (columns: Int, rows: Int), capabilities: TerminalCapabilities) {
        let window = TerminalWindow.current()
        let area = size.flatMap(ShowCommand.parseCells)
            ?? (columns: window?.columns ?? 80, rows: max(1, (window?.rows ?? 24) - 1))
        let colorDecision = TerminalColorChoice.decide(override: Self.colorOverride(flag: colors),
                                                       environment: LaunchEnvironment.current.variables,
                                                       askTerminal: probe)
        // The browser's detection, probe included (issue 31.6): xterm with sixel gets sixels, as with chafa.
        let environment = LaunchEnvironment.current.variables
        var capabilities = probe
            ? ShowGraphicsDetection.capabilities(forcedMode: format, environment: environment, colors: colorDecision)
            : TerminalCapabilities.detect(environment: environment, forcedMode: format, colors: colorDecision)
        if capabilities.cellPixelSize == nil, let cell = window?.cellPixelSize { capabilities.cellPixelSize = cell }
        return (area, capabilities)
    }

    /// `--colors`, else the config's `graphics.colors` (the browser's setting: the same terminal, the same
    /// colours), else nil (decide). A config that cannot be read is reported and left out.
    static func colorOverride(flag: ColorDepthSetting?,
                              configPath: String? = BrowserConfig.defaultPath(environment: LaunchEnvironment.current.variables))
        -> ColorDepthDecision.Override?
    {
        if let depth = flag?.depth { return .init(depth, source: "--colors \(depth.rawValue)") }
        if flag == .auto { return nil }
        do {
            if let depth = try BrowserConfig.load(path: configPath).colors {
                return .init(depth, source: "config graphics.colors")
            }
        } catch {
            HumanOutput.error("config: \(error) (colours decided without it)")
        }
        return nil
    }
}
