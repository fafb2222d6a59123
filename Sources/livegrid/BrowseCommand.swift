import ArgumentParser
import BrowserCore
import Foundation
import LibrarySources
import TerminalUI

struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Open the full-screen browser on a directory (the default command)."
    )

    @Argument(help: "The directory to browse, or an http://, https://, dav://, davs:// directory URL (credentials from the URL or ~/.netrc), or sftp://[user@]host[:port]/path/, ssh://… or host:path (OpenSSH configuration, known_hosts, agent, keys).",
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
        if let url = options.remoteURL {
            let client = RemoteHTTPClient(configuration: RemoteCommandSupport.configuration(interactive: true))
            do {
                try RemoteCommandSupport.prepare(url, client: client)
            } catch let error as RemoteError {
                FileHandle.standardError.write(Data("livegrid: \(BrowserState.displayString(url)): \(error.description)\n".utf8))
                throw ExitCode(1)
            }
            options.remoteClient = client
        }
        try BrowserApp(options: options).run()
    }
}
