import ArgumentParser
import BrowserCore
import BrowserRuntime
import Concurrent
import Foundation
import GraphicsSettings
import Library
import LibraryCore
import LibraryIndex
import LibrarySources
import LivePairing
import MediaFormats
import TerminalGraphics
import TerminalUI

struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Open the full-screen browser on a directory (the default command).",
        // The generated synopsis lists every option on one line, wider than an 80-column terminal.
        usage: "livegrid [browse] [<path>] [<options>]"
    )

    @Argument(help: "The directory to browse (or a photo or video in it, selected), an http://, https://, dav://, davs:// directory URL (credentials from the URL or ~/.netrc), or sftp://[user@]host[:port]/path/, ssh://… or host:path (OpenSSH configuration, known_hosts, agent, keys).",
              completion: .directory)
    var path: String = "."

    @Flag(name: .shortAndLong, help: "Descend into subdirectories.")
    var recursive = false

    @Option(help: "Config file (default: $XDG_CONFIG_HOME/livegrid/config.toml).", completion: .file())
    var config: String?

    @Option(help: "Graphics mode (overrides the config and LIVEGRID_GRAPHICS, which take the same words).")
    var graphics: GraphicsModeSetting?

    @Option(help: "Colours of pictures (overrides the config's graphics.colors).")
    var colors: ColorDepthSetting?

    @Flag(help: "Ignore the mouse (keeps the terminal's own selection working).")
    var noMouse = false

    @Flag(help: "No hint of movement: live items only move while held.")
    var noMotion = false

    @Flag(help: "No sound when a Live Photo is held (S toggles it while browsing).")
    var mute = false

    @Flag(help: ArgumentHelp("On exit, print the files of the marked items (still, then movie), one per line.",
                             discussion: "Like nsxiv -o, for scripts: `livegrid --print-marked ~/Pictures | xargs ...`. Names are printed exactly as they are when stdout is a pipe or file; on a terminal, control characters are shown escaped (\\x1b) so they cannot act on it."))
    var printMarked = false

    @Flag(help: "With --print-marked, end each path with a NUL byte instead of a newline (for xargs -0).")
    var null = false

    @Option(help: "Remote folders: entries kept from one listing (default 200000, or the config's remote.max_entries).")
    var maxEntries: Int?

    @OptionGroup(title: "S3 (s3://BUCKET/PREFIX/)") var s3: S3Options

    @Flag(help: "Probe every file; neither read nor update the library index (config: [library] index = false).")
    var noIndex = false

    @Flag(help: "After a rating, pick or reject, move to the next item (config: [triage] auto_advance).")
    var autoAdvance = false

    @Option(help: "Order of the grid: name, date (capture date) or size (config: [grid] sort; key s cycles).")
    var sort: LibrarySortOrder?

    @Option(help: "Sections with header rows: none, folder, or date (a timeline by month) (config: [grid] group; key t).")
    var group: LibraryGrouping?

    func validate() throws {
        if let problem = RemoteBrowseArgument.problem(path) { throw ValidationError(problem) }
        if RemoteBrowseArgument.url(path) == nil {
            switch LocalBrowseTarget.resolve(path) {
            case .success: break
            case .failure(.unknownCommand(let word)):
                HumanOutput.error("unknown command '\(word)' (and no file or folder has that name); commands: "
                                  + Livegrid.configuration.subcommands.compactMap { $0.configuration.commandName }
                                      .joined(separator: ", "))
                throw ExitCode.validationFailure
            case .failure(let problem):
                // Not a usage mistake: say what is wrong with the path, without the usage text.
                HumanOutput.error(problem.description)
                throw ExitCode(1)
            }
        }
        if let maxEntries, maxEntries < 1 { throw ValidationError("--max-entries must be 1 or more (got \(maxEntries))") }
    }

    func run() throws {
        var settings = try BrowserConfig.loadForCommand(named: config)
        if noMouse { settings.mouse = false }
        if noMotion { settings.playbackHints = false }
        if mute { settings.playbackSound = false }
        if noIndex { settings.libraryIndex = false }
        if autoAdvance { settings.autoAdvance = true }
        if let sort { settings.sortOrder = sort }
        if let group { settings.grouping = group }
        if let maxEntries { settings.remoteMaxEntries = maxEntries }
        if let mode = graphics ?? LaunchEnvironment.current.graphicsMode { settings.graphicsMode = mode }
        let mode = settings.graphicsMode
        // try?: validate() already resolved it and reported any problem.
        let local = RemoteBrowseArgument.url(path) == nil ? try? LocalBrowseTarget.resolve(path).get() : nil
        var options = BrowserOptions(path: local?.directory ?? path, recursive: recursive, config: settings,
                                     makeProvider: { colors, warn in
            PictureProviderChoice.make(setting: mode, colors: colors, version: LivegridVersion.string,
                                       environment: LaunchEnvironment.current.variables,
                                       badgeCorner: settings.badgeCorner, badgeStyle: settings.badgeStyle, warn: warn)
        })
        options.environment = RuntimeEnvironment(variables: LaunchEnvironment.current.variables)
        options.remoteURL = RemoteBrowseArgument.url(path)
        // The index is opened on first use (the scan's thread, or the triage worker's), not before curses starts.
        let index = settings.libraryIndex
            ? LazyLibraryIndex(path: LibraryIndex.defaultPath(environment: LaunchEnvironment.current.variables)) : nil
        // Ratings where a folder cannot be written (remote, read-only) go to the index (issue 31.5).
        options.triageStore = TriageStore(index: { index?.value })
        if options.remoteURL == nil {
            options.scan = { try LibraryScanner.scan(directory: $0, recursive: $1, index: index?.value) }
            // LIVEGRID_TRACE: the scan's own milestones beside the browser's (where the time to the timeline goes).
            let trace = EventTrace(environment: options.environment.variables)
            options.firstScreenMemory = index.map { index in
                // The index keeps the ids as their strings.
                FirstScreenMemory(load: { index.value.firstScreen(view: $0).map { ItemID($0) } },
                                  store: { index.value.storeFirstScreen($0.map(\.rawValue), view: $1) })
            }
            options.progressiveScan = { path, recursive, progress, beforeRest in
                try LibraryScanner.scanProgressively(directory: path, recursive: recursive, index: index?.value,
                                                     milestone: { trace?.log($0) }, beforeRest: beforeRest,
                                                     progress: progress)
            }
        }
        options.selectPath = local?.selectPath
        if let depth = colors?.depth {
            options.colorOverride = .init(depth, source: "--colors \(depth.rawValue)")
        } else if colors != .auto, let depth = settings.colors {
            options.colorOverride = .init(depth, source: "config graphics.colors")
        }
        // Temporaries a killed livegrid left in this folder (by name and dead owner; nothing else).
        // On a worker: it reads the whole folder, which at 100,000 files delayed the first screen; the scan
        // skips hidden names, so it never sees the temporaries being swept.
        if options.remoteURL == nil {
            let folder = options.path
            NamedThread.start("livegrid-sweep") { StaleTemporaryFiles.removeOnce(in: folder) }
        }
        if let url = options.remoteURL {
            // Log in before curses takes the screen: a refused host key or a password prompt needs the terminal.
            let client: RemoteHTTPClient
            do {
                client = RemoteHTTPClient(configuration: try RemoteCommandSupport.configuration(interactive: true, for: url, s3: s3))
                try RemoteCommandSupport.prepare(url, client: client)
            } catch let error as RemoteError {
                HumanOutput.error("\(BrowserState.displayString(url)): \(error.description)")
                throw ExitCode(1)
            }
            options.remoteClient = client
            options.remoteProbeMemory = index.map { RemoteProbeMemory(index: $0) }
        }
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
                fflush(nil)   // every C stream, stdout among them (the global `stdout` is not concurrency-safe)
                dup2(savedOutput, STDOUT_FILENO)
                close(savedOutput)
            }
        }
        try app.run()
        if printMarked {
            fflush(nil)   // every C stream, stdout among them (the global `stdout` is not concurrency-safe)
            if savedOutput >= 0 { dup2(savedOutput, STDOUT_FILENO) }
            Self.printPaths(app.markedFilesAtExit, nullTerminated: null)
        }
    }

    /// Raw bytes for a pipe (scripts need the exact names); on a terminal, control characters escaped.
    static func printPaths(_ paths: [String], nullTerminated: Bool) {
        let toTerminal = isatty(STDOUT_FILENO) == 1
        var out = Data()
        for path in paths {
            // PathBytes: a name that is not UTF-8 goes down the pipe as its exact bytes.
            out.append(contentsOf: toTerminal ? Array(VisibleText.escaped(path).utf8) : PathBytes.bytes(of: path))
            out.append(nullTerminated ? 0 : 0x0A)
        }
        HumanOutput.write(out, to: .standardOutput)   // never traps on a terminal or pipe that is gone
    }
}

/// What `livegrid PATH` opens: a folder, or the folder of a photo or movie with that file selected.
struct LocalBrowseTarget {
    var directory: String
    /// The file to select, spelled as the scanner spells it (`directory + "/" + name`).
    var selectPath: String?

    enum Problem: Error, CustomStringConvertible {
        case unknownCommand(String)
        case missing(String)
        case notMedia(String)
        case unreadable(String, String)

        var description: String {
            switch self {
            case .unknownCommand(let word): return "unknown command '\(word)'"
            case .missing(let path): return "\(path) does not exist"
            case .notMedia(let path): return "\(path) is not a folder, photo or video"
            case .unreadable(let path, let why): return "cannot open the folder \(path): \(why)"
            }
        }
    }

    static func resolve(_ path: String) -> Result<LocalBrowseTarget, Problem> {
        guard PathBytes.exists(path) else {
            // A bare word like `frobnicate` was meant as a command; anything with a slash or a dot as a path.
            let looksLikeCommand = !path.isEmpty && path.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || $0 == "-"
            }
            return .failure(looksLikeCommand ? .unknownCommand(path) : .missing(path))
        }
        var target = LocalBrowseTarget(directory: path)
        if !PathBytes.isDirectory(path) {
            let name = (path as NSString).lastPathComponent
            guard LibraryScanner.isMediaName(name) else { return .failure(.notMedia(path)) }
            let folder = (path as NSString).deletingLastPathComponent
            target.directory = folder.isEmpty ? "." : folder
            target.selectPath = (target.directory == "/" ? "/" : target.directory + "/") + name
        }
        // Refuse up front what the scan could not list: an empty grid would hide the reason. Opening the folder
        // is the test (reading all its names, twice, cost 100 ms at 100,000 files before the first screen).
        let descriptor = PathBytes.open(target.directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(.unreadable(target.directory, DirectoryError(errno: errno).description))
        }
        close(descriptor)
        return .success(target)
    }
}
