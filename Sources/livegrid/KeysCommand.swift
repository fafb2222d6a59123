import ArgumentParser
import BrowserCore
import Foundation

/// `livegrid keys`: the browser's keys as the `?` screen lists them, with the user's `[keys]` rebindings;
/// `livegrid help keys` and the man page (`livegrid.keys`) carry the default table in their text.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List the browser's keys (with the config's [keys] rebindings).",
        discussion: "The default keys:\n\n" + HelpScreen.lines(keymap: Keymap()).map { "  " + $0 }.joined(separator: "\n")
            + "\n\nRebind any of them in the config's [keys] table (see Resources/config.toml)."
    )

    @Option(name: .long, help: "Config file (default: $XDG_CONFIG_HOME/livegrid/config.toml).")
    var config: String?

    func run() throws {
        HumanOutput.lines(HelpScreen.lines(keymap: try BrowserConfig.loadForCommand(named: config).keymap))
    }
}

extension BrowserConfig {
    /// The config a command runs with: the file `--config` names (which must exist), else the default path
    /// (absent is the default config). A config that cannot be used is one sentence on stderr and exit 64,
    /// without ArgumentParser's usage line: it is not a usage mistake.
    static func loadForCommand(named path: String?) throws -> BrowserConfig {
        do {
            return try BrowserConfig.load(path: path ?? BrowserConfig.defaultPath(environment: LaunchEnvironment.current.variables),
                                          explicit: path != nil)
        } catch {
            HumanOutput.error("config: \(error)")
            throw ExitCode.validationFailure
        }
    }
}
