import Foundation
import BrowserRuntime
import GraphicsSettings
import Imaging
import TerminalGraphics
import TerminalProtocol

/// The process environment, read once when livegrid starts and handed down from here as a value (the
/// library modules take an `environment:` argument, they do not read it themselves). The variables livegrid
/// itself defines are read here, by name:
/// - `LIVEGRID_GRAPHICS`: a graphics mode (`GraphicsModeSetting`'s words), below `--graphics`/`--format`;
/// - `LIVEGRID_SSH_CONFIG`: an OpenSSH client configuration used instead of `~/.ssh/config`;
/// - `LIVEGRID_AV_LOG`: libav's log level (debugging; quiet otherwise).
/// The terminal's own (TERM, COLORTERM, TMUX, ...) and the XDG/HOME paths travel in `variables`.
struct LaunchEnvironment: Sendable {
    let variables: [String: String]

    /// Read on first use, which `Livegrid.main` makes the very start.
    static let current = LaunchEnvironment(variables: ProcessInfo.processInfo.environment)

    /// Applies what lower modules need before any command runs.
    static func start() {
        AllocatorTuning.apply(environment: current.variables)
        LibavLogging.request(level: current.libavLogLevel)
        RuntimeEnvironment.install(RuntimeEnvironment(variables: current.variables))
        // Before any thread renders: a locale that is not UTF-8 gets ASCII pictures and text (issue 31.6).
        TerminalTextEncoding.adopt(TerminalTextEncoding.detect(environment: current.variables))
    }

    var graphicsMode: GraphicsModeSetting? {
        variables[TerminalCapabilities.overrideVariable].flatMap(GraphicsModeSetting.init(userName:))
    }

    var sshConfigFile: String? { variables["LIVEGRID_SSH_CONFIG"].flatMap { $0.isEmpty ? nil : $0 } }

    /// `HOME` when it is an absolute path.
    var home: String? { variables["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } }

    var libavLogLevel: Int32? { variables["LIVEGRID_AV_LOG"].flatMap { Int32($0) } }
}
