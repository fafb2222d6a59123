import ArgumentParser
import BrowserCore
import Foundation
import TerminalUI

struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Open the full-screen browser on a directory (the default command)."
    )

    @Argument(help: "The directory to browse, or an http://, https://, dav:// or davs:// directory URL (credentials from the URL or ~/.netrc).",
              completion: .directory)
    var path: String = "."

    @Flag(name: .shortAndLong, help: "Descend into subdirectories.")
    var recursive = false

    @Option(help: "Config file (default: $XDG_CONFIG_HOME/livegrid/config.toml).", completion: .file())
    var config: String?

    @Option(help: "Graphics mode: auto, symbols, sixel, kitty, iterm or none (overrides the config and LIVEGRID_GRAPHICS).")
    var graphics: String?

    @Flag(help: "Ignore the mouse (keeps the terminal's own selection working).")
    var noMouse = false

    @Flag(help: "No hint of movement: live items only move while held.")
    var noMotion = false

    @Flag(help: ArgumentHelp("On exit, print the files of the marked items (still, then movie), one per line.",
                             discussion: "Like nsxiv -o, for scripts: `livegrid --print-marked ~/Pictures | xargs ...`. Names are printed exactly as they are when stdout is a pipe or file; on a terminal, control characters are shown escaped (\\x1b) so they cannot act on it."))
    var printMarked = false

    @Flag(help: "With --print-marked, end each path with a NUL byte instead of a newline (for xargs -0).")
    var null = false

    func validate() throws {
        var isDirectory: ObjCBool = false
        if let problem = RemoteBrowseArgument.problem(path) { throw ValidationError(problem) }
        guard RemoteBrowseArgument.url(path) != nil
                || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue) else {
            throw ValidationError("'\(path)' is not a directory")
        }
        if let graphics, GraphicsModeSetting(rawValue: graphics) == nil {
            throw ValidationError("unknown graphics mode '\(graphics)'; use one of: "
                                  + GraphicsModeSetting.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }

    func run() throws {
        var settings: BrowserConfig
        do {
            settings = try BrowserConfig.load(path: config ?? BrowserConfig.defaultPath())
        } catch {
            throw ValidationError("config: \(error)")
        }
        if noMouse { settings.mouse = false }
        if noMotion { settings.playbackHints = false }
        let environmentMode = ProcessInfo.processInfo.environment["LIVEGRID_GRAPHICS"].flatMap(GraphicsModeSetting.init)
        if let mode = graphics.flatMap(GraphicsModeSetting.init) ?? environmentMode { settings.graphicsMode = mode }
        let mode = settings.graphicsMode
        var options = BrowserOptions(path: path, recursive: recursive, config: settings, makeProvider: { depth, warn in
            PictureProviderChoice.make(setting: mode, depth: depth, version: LivegridVersion.string,
                                       badgeCorner: settings.badgeCorner, badgeStyle: settings.badgeStyle, warn: warn)
        })
        options.remoteURL = RemoteBrowseArgument.url(path)
        let app = BrowserApp(options: options)
        // `files=$(livegrid --print-marked DIR)`: stdout is a pipe, so the browser draws on the terminal
        // (/dev/tty) and only the paths go down the pipe, as fzf does.
        var savedOutput: Int32 = -1
        if printMarked, isatty(STDOUT_FILENO) != 1 {
            let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
            guard terminal >= 0 else { throw ValidationError("--print-marked with stdout redirected needs a terminal (/dev/tty)") }
            savedOutput = dup(STDOUT_FILENO)
            dup2(terminal, STDOUT_FILENO)
            close(terminal)
        }
        defer {
            if savedOutput >= 0 {
                fflush(stdout)
                dup2(savedOutput, STDOUT_FILENO)
                close(savedOutput)
            }
        }
        try app.run()
        if printMarked {
            fflush(stdout)
            if savedOutput >= 0 { dup2(savedOutput, STDOUT_FILENO) }
            Self.printPaths(app.markedFilesAtExit, nullTerminated: null)
        }
    }

    /// Raw bytes for a pipe (scripts need the exact names); on a terminal, control characters escaped.
    static func printPaths(_ paths: [String], nullTerminated: Bool) {
        let toTerminal = isatty(STDOUT_FILENO) == 1
        var out = Data()
        for path in paths {
            out.append(contentsOf: toTerminal ? Array(escapedForTerminal(path).utf8) : Array(path.utf8))
            out.append(nullTerminated ? 0 : 0x0A)
        }
        FileHandle.standardOutput.write(out)
    }

    /// C0/C1 controls and DEL as `\xNN`, a backslash doubled, everything else as is.
    static func escapedForTerminal(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: result += "\\\\"
            case 0..<0x20, 0x7F, 0x80..<0xA0:
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
