import BrowserCore
import BrowserRuntime
import CNCurses
import Concurrent
import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import TerminalGraphics
import TerminalProtocol
import VideoPlayback

/// What the browser needs from outside: where to look, the settings, how to scan, how to make pictures.
public struct BrowserOptions {
    public var path: String
    public var recursive: Bool
    public var config: BrowserConfig
    /// Runs on a background thread; the default is the library scanner.
    public var scan: @Sendable (String, Bool) throws -> LibraryScan
    /// Makes the picture provider once the terminal is set up (it depends on the colour depth: nil when the
    /// terminal has no colours); the closure's second argument collects warnings for the status bar (stderr
    /// is the screen).
    public var makeProvider: (ColorDepthDecision?, @escaping @Sendable (String) -> Void) -> ThumbnailProvider
    /// `--colors` or the config's `colors`: overrides the colour decision.
    public var colorOverride: ColorDepthDecision.Override?
    /// An http(s)/dav(s) directory to browse instead of `path` (see docs/REMOTE-UI.md).
    public var remoteURL: URL?
    /// A file of `path` to select when the scan lists it (`livegrid PHOTO.jpg`), spelled as the scanner
    /// spells paths: `path + "/" + name`.
    public var selectPath: String?
    /// The client for `remoteURL` (already logged in for SFTP); nil makes one with default settings.
    public var remoteClient: RemoteHTTPClient?
    /// Where a remote folder's previews are remembered between runs (the library index; nil: `--no-index`).
    public var remoteProbeMemory: RemoteProbeMemory?
    /// When set, local scans run through it instead of `scan`: it reports the first screen's items through its
    /// third argument before the rest of the folder is probed (`LibraryScanner.scanProgressively`).
    /// Its fourth argument runs after the whole listing, before the rest of the files are looked at.
    public var progressiveScan: (@Sendable (String, Bool, @escaping @Sendable (LibraryScanProgress) -> Void,
                                           @escaping @Sendable () -> Void) throws -> LibraryScan)?
    /// What each local view showed first last time (the library index's `first_screens`), keyed by view: its
    /// cached thumbnails are loaded while the folder is still listed. nil: no memory (no index).
    public var firstScreenMemory: FirstScreenMemory?
    /// The environment the executable read at start (TERM, TMUX, HOME, LIVEGRID_TRACE...): nothing below
    /// reads the process environment itself.
    public var environment = RuntimeEnvironment()
    /// Where ratings and flags are kept (sidecars; the library index where a folder cannot be written).
    public var triageStore = TriageStore.sidecarsOnly

    public init(path: String, recursive: Bool = false, config: BrowserConfig = BrowserConfig(),
                scan: @escaping @Sendable (String, Bool) throws -> LibraryScan = { try LibraryScanner.scan(directory: $0, recursive: $1) },
                makeProvider: @escaping (ColorDepthDecision?, @escaping @Sendable (String) -> Void) -> ThumbnailProvider
                    = { _, _ in PlaceholderThumbnailProvider(reason: "placeholders") }) {
        self.path = path
        self.recursive = recursive
        self.config = config
        self.scan = scan
        self.makeProvider = makeProvider
    }
}

/// The full-screen browser's composition root: it builds the services (scans, terminal, playback, studio,
/// remote session, dispatcher) and hands them to `BrowserLoop`, which runs until the user quits.
public final class BrowserApp {
    private let options: BrowserOptions
    private let inbox = EventInbox()
    /// `LIVEGRID_TRACE`: start-up milestones (ui-start, scan-finished, grid-complete) for the benchmarks.
    private let trace: EventTrace?
    private lazy var triageWorker = TriageWorker(environment: options.environment, store: options.triageStore) { [inbox] in
        inbox.post($0)
    }
    /// Set by the playback seam: called with the item to play, or nil to stop.
    public var onPlayback: ((LibraryItem?) -> Void)?
    /// Every file (still, then movie) of each item marked when the browser quit, in display order: what
    /// `--print-marked` prints.
    public private(set) var markedFilesAtExit: [String] = []

    public init(options: BrowserOptions) {
        self.options = options
        trace = EventTrace(environment: options.environment.variables)
    }

    /// Runs until the user quits; the terminal is restored however this returns.
    public func run() throws {
        trace?.log("ui-start")
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw TerminalUIError.notATerminal }
        let inbox = self.inbox, config = options.config, worker = triageWorker
        let remote = options.remoteURL.map {
            RemoteSession(url: $0, client: options.remoteClient, inbox: inbox,
                          downloadCacheRoot: DownloadCache.defaultRoot(environment: options.environment.variables),
                          maxEntries: config.remoteMaxEntries, probeMemory: options.remoteProbeMemory)
        }
        let scans = ScanOrchestrator(scan: options.scan, progressiveScan: options.progressiveScan, remote: remote,
                                     inbox: inbox, trace: trace)
        // A local scan needs nothing from the terminal: it starts first, overlapping curses' set-up and the
        // terminal probes (first paint waits for it).
        if remote == nil { scans.startScan(folder: options.path, recursive: options.recursive) }
        let terminal = try BrowserTerminal(options: options, inbox: inbox)
        defer { terminal.close() }
        let post: @Sendable (BrowserAction) -> Void = { inbox.post($0) }, wake: @Sendable () -> Void = { inbox.wake.wake() }
        let pixels = terminal.provider.pixelOutput, throughput = terminal.throughput
        let playback = BrowserPlayback(session: terminal.session, kittyKeys: terminal.input.kittyKeys, pixels: pixels,
                                       badge: badge, post: post, wake: wake, link: { throughput.estimate })
        defer { playback.shutdown() }
        defer { remote?.close() }   // partial downloads go on quit (issue 32.4)
        let studio = KeyPhotoStudio(depth: terminal.session.colorDecision?.depth, pixels: pixels, post: post,
                                    home: options.environment.home, wake: wake)
        defer { studio.perform(.stopEffectPreview) }   // its temporary file goes with it
        let dispatcher = EffectDispatcher(.init(
            screen: terminal, playback: playback, scans: scans, triage: worker, studio: studio,
            remote: remote.map { RemoteEffects(session: $0, worker: worker, post: post) }, post: post, onPlayback: onPlayback))
        let firstScreen = FirstScreen(root: options.path, recursive: options.recursive, memory: options.firstScreenMemory)
        let remoteProvider = remote.map { RemoteThumbnailProvider(inner: terminal.provider, session: $0) }
        let loop = BrowserLoop(state: initialState(terminal: terminal, kittyKeys: playback.kittyKeys, remote: remote), parts: .init(
            terminal: terminal, inbox: inbox, provider: remoteProvider ?? terminal.provider, remoteProvider: remoteProvider,
            renderer: renderer(output: terminal.output, playback: playback, studio: studio), playback: playback,
            studio: studio, dispatcher: dispatcher, scans: scans, keymap: config.keymap, trace: trace,
            milestones: StartupMilestones(trace: trace, scans: scans, firstScreen: firstScreen,
                                          remembersFirstScreen: options.firstScreenMemory != nil && remote == nil)))
        defer { markedFilesAtExit = loop.state.markedItems.flatMap { $0.files.map(\.path) } }
        loop.start(localScanRunning: remote == nil, firstScreen: firstScreen)
        try loop.run()
        // The link meter's reply, if one is on its way, is read here: after the terminal is given back it would
        // reach the shell as typed text.
        terminal.input.awaitMeterReply(seconds: 1)
        // File work under way (a rotation, a trash, a sidecar) ends before the terminal is given back: exiting
        // mid-write would leave its temporaries. A copy, move or export was cancelled by the quit question.
        worker.waitUntilIdle()
    }

    private var badge: BadgePainter { BadgePainter(corner: options.config.badgeCorner, style: options.config.badgeStyle) }

    /// The state the browser opens with: the settings, the terminal's size and picture cells, a remote library.
    private func initialState(terminal: BrowserTerminal, kittyKeys: Bool, remote: RemoteSession?) -> BrowserState {
        let config = options.config
        var state = BrowserState(rootPath: options.path, terminal: terminal.session.size, zoom: config.zoom)
        state.pendingSelection = options.selectPath
        state.folders.recursive = options.recursive
        state.zoomCellPixels = terminal.provider.zoomCellPixels
        state.sortOrder = config.sortOrder
        state.grouping = config.grouping
        state.playback.hintsEnabled = config.playbackHints
        // A hint's movie frames would compete with the first screen's pictures for the link (issue 28.4).
        state.playback.holdHints(.firstScreen)
        state.playback.soundEnabled = config.playbackSound
        state.playback.useKeyInput(kittyKeys: kittyKeys)
        if let remote { state.beginRemote(libraryURL: remote.current.url) }
        if let warning = config.warnings.first { state.message = warning }
        state.triage.stripLocationByDefault = config.stripLocation
        state.triage.autoAdvance = config.autoAdvance
        state.triage.home = options.environment.home
        return state
    }

    /// The renderer, drawing movie frames (the key-photo mode's chosen frame first) where pictures are.
    private func renderer(output: any PictureOutput, playback: BrowserPlayback, studio: KeyPhotoStudio) -> BrowserRenderer {
        let renderer = BrowserRenderer(badge: badge, keymap: options.config.keymap)
        renderer.output = output
        renderer.effectPreview = { studio.effectPicture(columns: $0.width, rows: $0.height) }
        renderer.livePicture = { studio.picture(for: $0, columns: $1.width, rows: $1.height) ?? playback.picture(for: $0, in: $1) }
        renderer.liveOffReason = { playback.controller.liveOffReason(for: $0) }
        return renderer
    }
}
