import Concurrent
import BrowserCore
import BrowserRuntime
import CNCurses
import Concurrent
import Foundation
import Library
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

/// Remembers which pictures a local view showed first (`LibraryIndex.firstScreen`), by a key naming the folder,
/// `-r`, the order, the grouping and the cell size.
public struct FirstScreenMemory: Sendable {
    public var load: @Sendable (String) -> [String]
    public var store: @Sendable ([String], String) -> Void
    public init(load: @escaping @Sendable (String) -> [String], store: @escaping @Sendable ([String], String) -> Void) {
        self.load = load
        self.store = store
    }
}

/// The full-screen browser: one event loop that drains every queued input and background result, applies
/// them to the state, then renders once.
public final class BrowserApp {
    private let options: BrowserOptions
    private let inbox = EventInbox()
    /// Signalled once the first screen's pictures are drawn: the progressive scan waits for it (a second at
    /// most) before probing the rest, so on 2 cores the visible thumbnails do not share them with 6 probes.
    private let firstScreenDrawn = DispatchSemaphore(value: 0)
    /// Signalled once the first finished scan's view (the whole timeline) is drawn: the first scan's thread
    /// notes its items' times after it, not on the cores that arrange and draw that view.
    private let firstViewShown = DispatchSemaphore(value: 0)
    private var localScanLaunched = false
    /// `LIVEGRID_TRACE`: start-up milestones (ui-start, scan-finished, grid-complete) for the benchmarks.
    private let trace: EventTrace?
    private lazy var triageWorker = TriageWorker(environment: options.environment, store: options.triageStore) { [inbox] in
        inbox.post($0)
    }
    /// Set by the playback seam: called with the item to play, or nil to stop.
    public var onPlayback: ((LibraryItem?) -> Void)?
    /// Set when browsing a remote directory.
    private var remote: RemoteSession?
    private let remoteExport = RemoteItemExport()
    /// Writes symbol pictures directly, curses keeping the text (nil in pixel modes, or without colours, or
    /// with LIVEGRID_CURSES_PICTURES=1 to compare with curses drawing them).
    private var directCells: DirectCellOutput?
    /// Where every picture goes: one type per protocol, chosen once from the graphics decision
    /// (`PictureOutputs.make`) and handed to the renderer.
    private var pictureOutput: (any PictureOutput)?
    /// Press-and-hold playback (set while `run` runs).
    private var playback: BrowserPlayback?
    /// The viewer's key-photo mode: frames and the write of the new Live Photo (set while `run` runs).
    private var keyPhotoStudio: KeyPhotoStudio?
    /// Each item's primary file mtime at the last scan: a rescan that finds it changed (rotated in place,
    /// replaced) drops the item's pictures from memory. Filled by the local scan's thread (after the first
    /// scan's result is posted: 100,000 hashes are not on the way to the first timeline) and by the loop for
    /// remote listings.
    private let scannedModificationTimes = Locked<[Int: Double]>([:])
    /// What the last local scan found changed, set by its thread before it posts the result.
    private let changedByLocalScan = Locked<Set<String>?>(nil)
    /// Every file (still, then movie) of each item marked when the browser quit, in display order: what
    /// `--print-marked` prints.
    public private(set) var markedFilesAtExit: [String] = []

    public init(options: BrowserOptions) {
        self.options = options
        trace = EventTrace(environment: options.environment.variables)
    }

    /// Runs until the user quits; the terminal is restored however this returns.
    public func run() throws {
        let startupTrace = trace
        startupTrace?.log("ui-start")
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw TerminalUIError.notATerminal }
        // A local scan needs nothing from the terminal: start it first so it overlaps curses' set-up and the
        // terminal probes (first paint waits for it).
        let scanStartedEarly = options.remoteURL == nil
        if scanStartedEarly { launchLocalScan(path: options.path, recursive: options.recursive) }
        let environment = options.environment
        let session = try CursesSession(mouse: options.config.mouse,
                                        colorDecision: TerminalColorChoice.decide(override: options.colorOverride,
                                                                                 environment: environment.variables,
                                                                                 askTerminal: true),
                                        term: environment.term)
        defer { CursesSession.restore() }

        let inbox = self.inbox
        let wake = inbox.wake
        wake.installForSignals()
        var provider = options.makeProvider(session.colorDecision) { inbox.post(.showMessage($0)) }
        // Once, first: why the screen is in ASCII, and how to have block symbols.
        if let notice = TerminalTextEncoding.current.notice { inbox.post(.showMessage(notice)) }
        provider.setReadyHandler { wake.wake() }
        // Inside tmux, pictures go through passthrough and tmux's redraws wipe them: watch for those.
        let tmuxWatch = provider.pixelOutput?.tmux.map {
            TmuxRedrawWatch(depth: $0.depth, notifications: { TmuxQuery.controlClients(environment: environment.variables) }) {
                TmuxQuery.chain(environment: environment.variables, ignoringClients: $0)
            }
        }
        tmuxWatch?.setWake { wake.wake() }
        defer { tmuxWatch?.stop() }
        // What the terminal takes (bytes against time blocked in write): slows hints and movie frames down.
        let throughput = TerminalThroughput(clock: { MonotonicClock.now() })
        if provider.pixelOutput == nil, let depth = session.colorDecision?.depth,
           !options.environment.picturesThroughCurses {
            directCells = DirectCellOutput(colorDepth: depth, size: session.size, meter: throughput)
        }
        // Pixel pictures and directly written cells: curses must never scroll or shift the screen (it would
        // move them behind its back).
        let output = PictureOutputs.make(mode: provider.pixelOutput?.mode ?? .symbols, tmux: provider.pixelOutput?.tmux,
                                         cellHeight: provider.pixelOutput?.cellPixelSize?.height, window: session.window,
                                         direct: directCells, terminal: .fileDescriptor(meter: throughput))
        pictureOutput = output
        defer { output.removeAll() }
        idlok(session.window, output.letsCursesMoveText)
        idcok(session.window, output.letsCursesMoveText)
        // After the provider's terminal probe: the reader continues its decoder, and the kitty keyboard check
        // reads its answer from it.
        let input = TerminalInputReader(window: session.window, mouse: options.config.mouse, meter: throughput)
        defer { input.shutdown() }
        let playback = BrowserPlayback(session: session, kittyKeys: input.kittyKeys, pixels: provider.pixelOutput,
                                       badge: BadgePainter(corner: options.config.badgeCorner, style: options.config.badgeStyle),
                                       post: { [inbox] in inbox.post($0) }, wake: { wake.wake() },
                                       link: { throughput.estimate })
        defer { playback.shutdown() }
        self.playback = playback
        // Keys typed while livegrid started were read from the tty by the start-up probes (curses never sees
        // them): they are acted on once there is something to act on (the first items, or the scan's end),
        // before anything curses reads.
        var typedAhead = TerminalProbe.takeTypedAhead().compactMap(\.keyInput).map(TerminalEvent.key)
        var state = BrowserState(rootPath: options.path, terminal: session.size, zoom: options.config.zoom)
        state.pendingSelection = options.selectPath
        state.folders.recursive = options.recursive
        state.zoomCellPixels = provider.zoomCellPixels
        state.sortOrder = options.config.sortOrder
        state.grouping = options.config.grouping
        state.playback.hintsEnabled = options.config.playbackHints
        // A hint's movie frames would compete with the first screen's pictures for the link (issue 28.4).
        state.playback.holdHints(.firstScreen)
        state.playback.soundEnabled = options.config.playbackSound
        state.playback.useKeyInput(kittyKeys: playback.kittyKeys)
        let remoteProvider = options.remoteURL.map { url -> RemoteThumbnailProvider in
            let remote = RemoteSession(url: url, client: options.remoteClient, inbox: inbox,
                                       downloadCacheRoot: DownloadCache.defaultRoot(environment: environment.variables),
                                       maxEntries: options.config.remoteMaxEntries, probeMemory: options.remoteProbeMemory)
            self.remote = remote
            state.beginRemote(libraryURL: remote.current.url)
            return RemoteThumbnailProvider(inner: provider, session: remote)
        }
        if let remoteProvider { provider = remoteProvider }
        defer { remote?.close() }   // partial downloads go on quit (issue 32.4)
        if let warning = options.config.warnings.first { state.message = warning }
        state.triage.stripLocationByDefault = options.config.stripLocation
        state.triage.autoAdvance = options.config.autoAdvance
        state.triage.home = environment.home
        defer { markedFilesAtExit = state.markedItems.flatMap { $0.files.map(\.path) } }
        let renderer = BrowserRenderer(
            badge: BadgePainter(corner: options.config.badgeCorner, style: options.config.badgeStyle),
            keymap: options.config.keymap)
        renderer.output = output
        let keyPhotoStudio = KeyPhotoStudio(depth: session.colorDecision?.depth, pixels: provider.pixelOutput,
                                            post: { [inbox] in inbox.post($0) }, home: options.environment.home,
                                            wake: { wake.wake() })
        self.keyPhotoStudio = keyPhotoStudio
        defer { keyPhotoStudio.perform(.stopEffectPreview) }   // its temporary file goes with it
        renderer.effectPreview = { keyPhotoStudio.effectPicture(columns: $0.width, rows: $0.height) }
        // In the key-photo mode the chosen movie frame is drawn where playback frames are.
        renderer.livePicture = {
            keyPhotoStudio.picture(for: $0, columns: $1.width, rows: $1.height) ?? playback.picture(for: $0, in: $1)
        }
        renderer.liveOffReason = { playback.controller.liveOffReason(for: $0) }
        if scanStartedEarly {
            state.reduce(.scanStarted)
            // A progressive scan reports the first screen itself, sooner than a second listing would.
            if options.progressiveScan == nil {
                prewarmFirstScreen(provider, layout: state.layout)
            } else {
                prewarmRememberedFirstScreen(provider, state: state)
            }
        } else if startScan(state) {
            state.reduce(.scanStarted)
        }

        // One loop that sleeps: it blocks in poll() on the tty and the inbox's wake pipe until input comes,
        // something is posted (scan, pictures, downloads, triage, movie frames, tmux, signals) or the
        // earliest timer is due, and redraws only when something changed.
        var dirty = true
        var gridCompleteTraced = false
        var firstPaintTraced = false
        var firstPictureTraced = false
        var renderedItems = false   // the last render drew items (so its wanted pictures are the first screen's)
        var scanShownTraced = false  // the first finished scan's view (the whole timeline) drawn
        var indexedViewTraced = false  // the whole view from the library index drawn, before the scan confirms it
        var firstScreenRemembered = options.firstScreenMemory == nil || options.remoteURL != nil
        var scanArranged = false
        var tracedEstimate: ThroughputWindow.Estimate?
        while !state.wantsQuit {
            remoteProvider?.update(from: state)
            if dirty {
                render(state, renderer: renderer, provider: provider, session: session)
                renderedItems = !state.items.isEmpty
                if state.showsIndexedView, !indexedViewTraced {
                    indexedViewTraced = true
                    startupTrace?.log("indexed-view-shown")
                }
                if scanArranged, !scanShownTraced {
                    scanShownTraced = true
                    firstViewShown.signal()
                    startupTrace?.log("scan-shown")
                }
                playback.didDraw()
            }
            // After a burst of pictures, a round trip through the terminal measures the link (issue 28.4).
            if throughput.takeQueryDue() {
                TerminalBytes.writeAll(TerminalSequences.cursorPositionQuery, to: STDOUT_FILENO)
                startupTrace?.log("link-query")
            }
            remoteProvider?.frameEnded()
            var timers = LoopTimers()
            timers.add("playback", at: state.playback.nextDeadline)
            timers.add("transfers", at: state.remoteRedrawDeadline().map { MonotonicClock.now() + $0.timeIntervalSinceNow })
            let typedAheadDue = !typedAhead.isEmpty && (!state.items.isEmpty || !state.isScanning)
            let wakeup = LoopWait.wait(wake: wake, timeoutMilliseconds: typedAheadDue ? 0 : timers.pollTimeout(now: MonotonicClock.now()))
            startupTrace?.log("loop-wake \(wakeup.traceName)")
            // Curses also turns a SIGWINCH into a resize "key": read after every wake-up, not only on input.
            var events = input.readEvents(size: { session.size })
            // EOF or EIO on the tty: the user is gone and cannot come back to it (no SIGHUP comes under `su`,
            // behind wrappers that keep the session, after some dropped ssh links). Leave at once instead of
            // waking on the dead tty forever; the defers restore what can be restored.
            if events.contains(where: \.isHangup) { throw TerminalUIError.terminalGone }
            if typedAheadDue {
                // With key releases on, a play key typed before they were switched on is left out: its
                // release was never reported, so the hold it starts would not end.
                let keymap = options.config.keymap
                events = typedAhead.filter { event in
                    guard playback.kittyKeys, case .key(let key) = event,
                          case .playPressed? = keymap.action(for: key, in: state) else { return true }
                    return false
                } + events
                typedAhead = []
            }
            // Background results first, then each input event, then the clock. Each event is read against the
            // state the previous one left (issue 31): `/` opens the search prompt, so the `I` after it in the same
            // burst is typed into the prompt, not "invert the marks". Effects run here, outside the reducer; what
            // they report goes through it before the next event.
            let actions = inbox.drain()
            let now = MonotonicClock.now()
            var effectsRan = false
            func apply(_ actions: [BrowserAction]) {
                var queue = actions[...]
                while let action = queue.popFirst() {
                    if case .scanFinished(let scan) = action {
                        let local = changedByLocalScan.withLockedValue { changed in
                            defer { changed = nil }
                            return changed
                        }
                        provider.invalidate(itemIDs: local ?? scannedModificationTimes.withLockedValue {
                            Self.changedItems(in: scan, times: &$0)
                        })
                    }
                    for effect in state.reduce(action) {
                        effectsRan = true
                        queue += perform(effect, state: state)
                    }
                    if case .scanFinished = action, !scanArranged {
                        scanArranged = true
                        startupTrace?.log("scan-arranged")
                    }
                    if queue.isEmpty {
                        let reports = playback.update(state: state)
                        effectsRan = effectsRan || !reports.isEmpty
                        queue += reports
                    }
                }
            }
            apply(actions)
            for event in events {
                if state.wantsQuit { break }   // keys after `q` in the same burst do nothing
                let keymap = options.config.keymap
                if let drag = Self.viewerDragAction(for: event, state: state) {
                    apply([drag])
                } else if let handled = playback.actions(for: event, state: state, keymap: keymap, now: now) {
                    apply(handled)
                } else if let action = action(for: event, state: state, keymap: keymap) {
                    apply([action])
                }
                if case .resize = event {
                    clearok(session.window, true)
                    output.redrawAfterClear(size: session.size)
                    tmuxWatch?.poll()   // a split or zoom moves the pane: its new origin before the redraw
                }
            }
            let tmuxRedraw = tmuxWatch?.takeRedraw()
            if let tmuxRedraw { output.tmuxRedrew(target: tmuxRedraw) }
            let resumed = CursesSession.takeResumed()
            if resumed { clearok(curscr, true); output.redrawAfterClear(size: session.size) }
            input.reportButtonMotion(state.isViewerZoomed, again: resumed)
            // The turn ends with the clock (it ends an auto-repeat hold whose repeats stopped, starts a hint that
            // came due).
            apply([.playbackTick(at: now)])
            provider.markLiveOff(itemIDs: playback.controller.takeNewFailures())
            let readyPictures = provider.takeReadyKeys()
            let onScreen = renderer.wantedPictures.filter { $0.priority != .prefetch }
            // The first picture of the screen ready (over a slow link, the first sign of life in the grid).
            if let startupTrace, !firstPictureTraced, onScreen.contains(where: { provider.picture(for: $0.key) != nil }) {
                firstPictureTraced = true
                startupTrace.log("first-picture")
            }
            if !firstPaintTraced, !onScreen.isEmpty,
               onScreen.allSatisfy({ provider.picture(for: $0.key) != nil || provider.hasFailed($0.key) }) {
                firstPaintTraced = true
                firstScreenDrawn.signal()
                startupTrace?.log("first-thumbnails")   // the first screen's pictures, scan finished or not
                startupTrace?.log("screen-pictures \(onScreen.count)")
            } else if !firstPaintTraced, onScreen.isEmpty, renderedItems {
                firstPaintTraced = true                 // items but no pictures to wait for (list view)
                firstScreenDrawn.signal()
            }
            // The first screen drawn (scan finished or not) is what the next launch of this view shows first.
            if !firstScreenRemembered, !onScreen.isEmpty, let memory = options.firstScreenMemory,
               onScreen.allSatisfy({ provider.picture(for: $0.key) != nil || provider.hasFailed($0.key) }) {
                firstScreenRemembered = true
                let ids = onScreen.map(\.key.itemID), view = firstScreenView(state)
                NamedThread.start("livegrid-first-screen") { memory.store(ids, view) }
            }
            if let startupTrace, !gridCompleteTraced, !state.isScanning, !onScreen.isEmpty,
               onScreen.allSatisfy({ provider.picture(for: $0.key) != nil || provider.hasFailed($0.key) }) {
                gridCompleteTraced = true
                startupTrace.log("grid-complete")
            }
            // After the first screen, hints follow the link: off while it is slow, said in the status bar.
            var linkNoteChanged = false
            if firstPaintTraced {
                let estimate = throughput.estimate
                if let startupTrace, estimate != tracedEstimate {
                    tracedEstimate = estimate
                    startupTrace.log("link-estimate \(estimate.map { String(Int($0.bytesPerSecond)) } ?? "none")")
                }
                let link = LinkAdvice(estimate)
                state.playback.holdHints(link.holdsHints ? .slowLink : nil)
                // A movie drawn smaller for the link says so while it plays.
                let note = playback.controller.linkNote ?? link.note
                linkNoteChanged = state.playback.linkNote != note
                state.playback.linkNote = note
            }
            let newFrame = playback.controller.takeNewFrame() || keyPhotoStudio.takeNewFrame()
            // A timer that fired changes what is drawn (the hint started, the transfer line went away).
            dirty = !events.isEmpty || !actions.isEmpty || effectsRan || !readyPictures.isEmpty || newFrame || resumed
                || tmuxRedraw != nil || wakeup.contains(.timer) || linkNoteChanged
        }
        // The link meter's reply, if one is on its way, is read here: after the terminal is given back it would
        // reach the shell as typed text.
        input.awaitMeterReply(seconds: 1)
        // File work under way (a rotation, a trash, a sidecar) ends before the terminal is given back: exiting
        // mid-write would leave its temporaries. A copy, move or export was cancelled by the quit question.
        triageWorker.waitUntilIdle()
    }

    /// Items of `scan` whose primary file changed since the previous scan; remembers this scan's times.
    /// Keyed by a hash of the primary file's folder and name, not by the id: an id is a string made on demand,
    /// 100,000 of them were ~19 MB kept for the whole session. Two files with one hash (64 bits: about one chance
    /// in 10^9 at 100,000 items) cost at worst a thumbnail made again, or one not refreshed until the next change.
    private static func changedItems(in scan: LibraryScan, times: inout [Int: Double]) -> Set<String> {
        var changed: Set<String> = []
        times.reserveCapacity(scan.items.count)
        for item in scan.items {
            let primary = item.primary
            var hasher = Hasher()
            hasher.combine(primary.folderPrefix)
            hasher.combine(primary.name)
            let key = hasher.finalize()
            if let known = times[key], known != primary.modificationTime { changed.insert(item.id) }
            times[key] = primary.modificationTime
        }
        return changed
    }

    private func render(_ state: BrowserState, renderer: BrowserRenderer, provider: ThumbnailProvider,
                        session: CursesSession) {
        let painter = ScreenPainter(surface: CursesSurface(window: session.window, colors: session.colors, size: session.size,
                                                           direct: directCells))
        session.colors.beginFrame()
        renderer.draw(state, provider: provider, painter: painter)
        renderer.output.beforeUpdate(overlays: renderer.overlays, screen: session.size)
        doupdate()
        renderer.output.afterUpdate()
        // While a local scan runs, only the pictures on screen are made: prefetching the next pages decoded
        // on the cores the scan stats and pairs on (2 cores: it delayed the complete timeline by ~100 ms at
        // 100,000 files). The render after the scan's end asks for them.
        let holdsPrefetch = state.isScanning && options.remoteURL == nil
        let wanted = holdsPrefetch ? renderer.wantedPictures.filter { $0.priority != .prefetch } : renderer.wantedPictures
        provider.cancelAll(except: Set(wanted.map(\.key)))
        for request in wanted.sorted(by: { $0.priority > $1.priority }) {
            provider.request(request.key, item: request.item, priority: request.priority)
        }
    }

    private func action(for event: TerminalEvent, state: BrowserState, keymap: Keymap) -> BrowserAction? {
        switch event {
        case .key(let key): return keymap.action(for: key, in: state)
        case .keyEvent(let key, let type): return type == .release ? nil : keymap.action(for: key, in: state)
        case .resize(let size): return .resize(size)
        case .hangup: return nil
        case .mouse(let x, let y, let kind):
            switch kind {
            case .click, .press: return .click(x: x, y: y)
            case .release, .drag: return nil
            case .wheelUp: return .scroll(rows: -1)
            case .wheelDown: return .scroll(rows: 1)
            }
        }
    }

    /// Button 1 over the zoomed viewer drags the picture (issue 31.3) instead of playing the item: press on the
    /// picture, motion, release. Nil for everything else (the usual handling).
    private static func viewerDragAction(for event: TerminalEvent, state: BrowserState) -> BrowserAction? {
        guard case .mouse(let x, let y, let kind) = event else { return nil }
        switch kind {
        case .press where state.isViewerZoomed: return .viewerDrag(.pressed(x: x, y: y))
        case .drag where state.viewerDrag != nil: return .viewerDrag(.moved(x: x, y: y))
        case .release where state.viewerDrag != nil: return .viewerDrag(.released)
        default: return nil
        }
    }

    /// Carries out an effect; returns what it reports back, for the reducer.
    private func perform(_ effect: BrowserEffect, state: BrowserState) -> [BrowserAction] {
        switch effect {
        case .startScan:
            return startScan(state) ? [.scanStarted] : []
        case .startPlayback(let itemID), .startHint(let itemID):
            // Remote items play their downloaded copy (nil until playable); local items play as they are.
            guard let item = state.playableItem(id: itemID), let playback else { return [] }
            if case .startPlayback = effect { onPlayback?(item) }
            return playback.start(item, shownID: itemID, purpose: effect == .startHint(itemID: itemID) ? .hint : .hold,
                                  state: state)
        case .stopPlayback:
            onPlayback?(nil)
            return playback?.stop() ?? []
        case .quit:
            break
        case .redrawAll:
            clearok(curscr, true)
            pictureOutput?.redrawAfterClear(size: TerminalSize(columns: Int(COLS), rows: Int(LINES)))
        case .remote(let remoteEffect):
            remote?.perform(remoteEffect)
        case .triage(let request):
            // Remote items are names on a server, not files here: file operations would act on the working
            // directory. Marks, filters, and ratings and flags (kept in livegrid's index) work remotely, and an
            // export downloads the files and exports local copies.
            let keptInIndex: Bool = switch request {
            case .loadRemoteStates, .writeRemoteState: true
            default: false
            }
            if let remote, !keptInIndex {
                switch request {
                case .export(let items, let choices, let destination, let stripLocation, _):
                    // The ratings shown (kept in the index under the items' URLs) go along as sidecars.
                    let ratings = items.reduce(into: [String: TriageState]()) { $0[$1.id] = state.triage.states[$1.id] }
                    remoteExport.start(items, choices: choices, destination: destination, stripLocation: stripLocation,
                                       ratings: ratings,
                                       library: remote.current, worker: triageWorker, post: { [inbox] in inbox.post($0) })
                case .cancelExport:
                    remoteExport.cancel()
                    triageWorker.perform(request)
                default:
                    inbox.post(.triage(.result(RemoteSession.refusal(of: request))))
                }
                break
            }
            triageWorker.perform(request)
        case .studio(let request):
            keyPhotoStudio?.perform(request)
        }
        return []
    }

    /// Starts a scan unless one runs; true when it started (the reducer then hears `.scanStarted`).
    /// A local scan is of the folder the state shows (entered or left since start) with its `-r`.
    private func startScan(_ state: BrowserState) -> Bool {
        guard !state.isScanning else { return false }
        if let remote { remote.load() } else { launchLocalScan(path: state.folders.current, recursive: state.folders.recursive) }
        return true
    }

    /// The first screen of a local, non-recursive scan is the directory's first stills by name: their cached
    /// thumbnails load while the scan still probes and pairs (a warm first paint then waits only for the scan).
    private func prewarmFirstScreen(_ provider: ThumbnailProvider, layout: GridLayout) {
        guard !options.recursive, !layout.isList else { return }
        let path = options.path, count = layout.itemsPerPage
        provider.prewarm(stills: { LibraryScanner.firstStills(directory: path, count: count) },
                         width: layout.cellWidth, height: layout.pictureHeight)
    }

    /// A known library's first screen: the pictures this view showed first last time are loaded from the
    /// thumbnail cache while the folder is still listed (cache hits only; a stale memory costs a few look-ups).
    private func prewarmRememberedFirstScreen(_ provider: ThumbnailProvider, state: BrowserState) {
        guard let memory = options.firstScreenMemory, !state.layout.isList else { return }
        let view = firstScreenView(state)
        provider.prewarm(stills: { memory.load(view) }, width: state.layout.cellWidth, height: state.layout.pictureHeight)
    }

    /// The key of the remembered first screen: folder, `-r`, order, grouping, cell size and cells per page.
    private func firstScreenView(_ state: BrowserState) -> String {
        let layout = state.layout
        return [options.path, options.recursive ? "-r" : "", state.sortOrder.rawValue, state.grouping.rawValue,
                "\(layout.cellWidth)x\(layout.pictureHeight)", "\(layout.itemsPerPage)"].joined(separator: "\u{1}")
    }

    private func launchLocalScan(path: String, recursive: Bool) {
        let inbox = self.inbox
        let scan = options.scan, progressiveScan = options.progressiveScan, firstScreenDrawn = self.firstScreenDrawn
        let waitsForFirstScreen = !localScanLaunched
        localScanLaunched = true
        let trace = self.trace
        let times = scannedModificationTimes, changedByLocalScan = self.changedByLocalScan
        let firstViewShown = self.firstViewShown
        NamedThread.start("livegrid-scan") {
            do {
                var result: LibraryScan
                if let progressiveScan {
                    // Posted through the inbox like every background result: the loop's wake-up carries it.
                    result = try progressiveScan(path, recursive, { progress in
                        trace?.log("scan-first-screen")
                        var progress = progress
                        progress.scan.recursive = recursive   // the view matches it to the folder it shows
                        inbox.post(.scanProgress(progress))
                    }, {
                        // Only the first scan waits (the semaphore fires once; rescans keep their grid anyway),
                        // after its whole listing: a recursive scan lists the tree while the screen is drawn.
                        if waitsForFirstScreen { _ = firstScreenDrawn.wait(timeout: .now() + 1) }
                    })
                } else {
                    result = try scan(path, recursive)
                }
                result.recursive = recursive
                trace?.log("scan-finished")
                // Nothing can have changed before the first scan: its times are noted after its view is drawn
                // (a second at most; the lock keeps a rescan waiting until they are).
                times.withLockedValue { known in
                    let first = known.isEmpty
                    changedByLocalScan.withLockedValue { $0 = first ? [] : Self.changedItems(in: result, times: &known) }
                    inbox.post(.scanFinished(result))
                    guard first else { return }
                    if waitsForFirstScreen { _ = firstViewShown.wait(timeout: .now() + 1) }
                    _ = Self.changedItems(in: result, times: &known)
                }
            } catch {
                inbox.post(.scanFailed(ScanFailure(error)))
            }
        }
    }
}
