import BrowserCore
import Concurrent
import Foundation
import GraphicsSettings
import Imaging
import LivePairing
import MediaFormats
// ChafaRenderer (a chafa canvas, C state) is not Sendable: TerminalGraphics is still Swift 5 mode and its renderers
// are used from one thread at a time (the presenter here, one worker per renderer in the pool).
@preconcurrency import TerminalGraphics
import TerminalProtocol
import VideoPlayback

/// Plays the movie of one item inside its picture rect, for the browser: a `MoviePlayer` decodes and
/// times frames on its threads, each frame is rendered on the presenter thread (to symbol cells, or with the
/// pixel protocol the grid's pictures use, sized to the same cells and wearing the same badge), and only
/// the newest one is kept for the event loop to draw. The UI thread never waits: `start` and `stop` return
/// at once, and the loop asks `picture(for:columns:rows:)` while drawing.
///
/// Failures (no movie, a codec libav cannot decode, a corrupt stream, no frame at all) are remembered per
/// item: the item then shows as a traditional still with the LIVE OFF badge and the reason in the status bar.
public final class PlaybackController: Sendable {
    public enum Purpose: Sendable, Equatable {
        /// Press and hold: the whole movie from the start while held.
        case hold
        /// The "hint of movement": about a second around the still-image time, once.
        case hint
    }

    /// Smallest picture area worth playing in (fewer cells show nothing recognisable).
    public static let minimumColumns = 6
    public static let minimumRows = 3

    /// The frame renderer (a chafa canvas: C state, one caller at a time) and its mode, which never changes.
    private let renderer: Locked<any CellImageRenderer>?
    private let rendererMode: GraphicsMode?
    private let state = Locked(State())
    private let trace: EventTrace?
    /// The sound track of the item the cursor rests on, opened before a press.
    private let preparedSound = PreparedSoundTrack()
    /// Called (on any thread) with a status message for the bar.
    private let notify: @Sendable (String) -> Void
    /// Called (on any thread) with a word about the sound, once per session each (a note: it must not cover a
    /// LIVE OFF reason, so it goes its own way); `notify` when nil.
    private let soundNote: (@Sendable (String) -> Void)?
    /// Called (on any thread) when the current hold's sound is heard (the playing item's mark).
    private let soundPlaying: (@Sendable () -> Void)?
    /// Wakes the event loop (on the presenter thread, after each new frame and at the end).
    private let wake: @Sendable () -> Void
    /// Called when the current movie ended (item key, nil) or any movie failed (key, failure).
    private let onEnd: (@Sendable (ItemID, PlaybackFailure?) -> Void)?

    private let pixels: PixelOutput?
    private let badgePainter: BadgePainter?
    /// What the terminal takes now (`TerminalThroughput.estimate`): frames are sized so the movie's frame rate
    /// fits it (issue 28.4). nil: drawn at the picture area's size, always.
    private let link: (@Sendable () -> ThroughputWindow.Estimate?)?

    /// What the UI thread and the player's threads share, under one lock.
    private struct State {
        var player: MoviePlayer?
        /// The current hold's sound, if it plays any (the hint never does).
        var sound: (any AudioSink)?
        var soundEnabled = true
        /// What was said about the sound this session (no server, no library...): each once.
        var soundSaid: Set<String> = []
        var generation = 0
        var playing: (itemID: ItemID, purpose: Purpose, columns: Int, rows: Int)?
        var latest: RenderedImage?
        /// Counts presented frames: in pixel modes each frame is a new picture for the tty writer.
        var frameSerial = 0
        /// Pixel modes: the badge drawn into every frame (symbol mode composites it into cells when drawing).
        var frameBadge: LiveBadge?
        var hasNewFrame = false
        var firstFrameTraced = true
        var failures: [ItemID: PlaybackFailure] = [:]
        /// Items that failed since `takeNewFailures` was last called (pixel pictures then redraw with LIVE OFF).
        var newFailures: Set<ItemID> = []
        /// Frames are drawn at this share of the picture area's width and height, so that their bytes at the
        /// movie's frame rate fit the link (1: the whole area). Kept from one playback to the next.
        var sizing = FrameSizing()
        /// The link's speed when frames were last drawn smaller (the status bar says so while one plays).
        var shrunkOn: ThroughputWindow.Estimate?
        /// Frames the loop drew of the current playback (for the playback-end trace: shown against drawn).
        var framesDrawn = 0
        var lastDrawnSerial = -1
        /// The frames' mean duration lately (a variable-frame-rate movie's rate is the mean, not one frame's).
        var meanFrameDuration: Double?
        /// Seconds a frame's render took lately (its size and the pixel protocol's encoding), at the sizing then.
        var meanRenderSeconds: Double?
    }

    /// `pixels`: the grid's pixel protocol, if it uses one; frames then use it too (with `badge` drawn in).
    public init(depth: GraphicsSettings.ColorDepth?, pixels: PixelOutput? = nil, badge: BadgePainter? = nil,
         trace: EventTrace?, wake: @escaping @Sendable () -> Void = {}, notify: @escaping @Sendable (String) -> Void,
         onEnd: (@Sendable (ItemID, PlaybackFailure?) -> Void)? = nil,
         soundNote: (@Sendable (String) -> Void)? = nil, soundPlaying: (@Sendable () -> Void)? = nil,
         link: (@Sendable () -> ThroughputWindow.Estimate?)? = nil) {
        self.link = link
        let frameRenderer: (any CellImageRenderer)?
        if let pixels, pixels.mode.isPixelProtocol {
            frameRenderer = PlaybackGeometry.frameRenderer(mode: pixels.mode, colorDepth: .truecolor, cellPixelSize: pixels.cellPixelSize,
                                                           maxSixelSize: pixels.maxSixelSize)
            self.pixels = pixels
        } else {
            frameRenderer = depth.map { PlaybackGeometry.frameRenderer(mode: .symbols, colorDepth: $0, cellPixelSize: nil) }
            self.pixels = nil
        }
        rendererMode = frameRenderer?.mode
        renderer = frameRenderer.map { Locked($0) }
        badgePainter = badge
        self.trace = trace
        self.notify = notify
        self.soundNote = soundNote
        self.soundPlaying = soundPlaying
        self.wake = wake
        self.onEnd = onEnd
        Self.preloadLibav()
    }

    /// Loads libav* on a thread of its own, so the first press does not pay for it (50-100 ms, seconds under
    /// load). The thread blocks the signals the UI handles: curses' Ctrl-Z handler is not async-signal-safe,
    /// and run on a thread inside dlopen (malloc and loader locks held) it hung the suspend.
    private static func preloadLibav() {
        NamedThread.start("livegrid.preload-libav") {
            MovieDecoder.preloadLibraries()
            SoundOutputs.preloadLibraries()
        }
    }

    deinit { state.withLockedValue { $0.player }?.stop() }

    /// The item being played and why, or nil.
    public var current: (itemID: ItemID, purpose: Purpose)? {
        state.withLockedValue { $0.playing.map { ($0.itemID, $0.purpose) } }
    }

    public var isActive: Bool { state.withLockedValue { $0.playing != nil } }

    /// True once the current playback has a frame to draw.
    public var hasFrame: Bool { state.withLockedValue { $0.playing != nil && $0.latest != nil } }

    /// The picture area (in cells) the current playback renders for.
    public var area: (columns: Int, rows: Int)? { state.withLockedValue { $0.playing.map { ($0.columns, $0.rows) } } }

    /// Why the item cannot play: the scan's reason (its movie is missing) or a remembered failure.
    public func liveOffReason(for item: LibraryItem) -> String? {
        if let reason = item.liveOffReason { return reason }
        return state.withLockedValue { $0.failures[item.id]?.description }
    }

    /// Starts playing `item` in a picture area of `columns` x `rows` cells, stopping whatever played.
    /// Returns the failure when it cannot even start (the caller shows it); later failures come through
    /// `notify` and `liveOffReason`.
    /// `key` is the id of the item as the grid shows it (a remote item plays its downloaded copy, whose
    /// paths, and so id, differ); frames and failures are kept under it.
    @discardableResult
    public func start(_ item: LibraryItem, as key: ItemID? = nil, purpose: Purpose, columns: Int, rows: Int) -> PlaybackFailure? {
        stop()
        let key = key ?? item.id
        if let known = state.withLockedValue({ $0.failures[key] }) { return known }
        guard let renderer, let rendererMode else { return .cannotDecode("the terminal has no colours") }
        guard columns >= Self.minimumColumns, rows >= Self.minimumRows else { return .tooSmall }
        let source: any ByteSource
        do {
            guard let found = try PlayableMovie.source(for: item) else { return remember(.noMovie(item.displayName), key) }
            source = found
        } catch {
            return remember(.cannotOpen(ErrorCause.of(error)), key)
        }
        // Decoded at the size the frames are drawn at (the sizing is kept from the last playback), so no frame
        // is scaled twice.
        let estimate = link?()
        let drawnCells = state.withLockedValue { state in
            let starting = FrameSizing.starting(after: state.sizing, link: estimate)
            if starting != state.sizing { state.shrunkOn = estimate }
            state.sizing = starting
            return starting
        }.cells(columns: columns, rows: rows)
        let target = PlaybackGeometry.pixelBox(columns: drawnCells.columns, rows: drawnCells.rows, mode: rendererMode,
                                               cell: pixels?.cellPixelSize)
        let badge = pixels == nil ? nil : badgePainter?.badge(for: item.kind)
        let token: Int = state.withLockedValue { state in
            state.generation += 1
            state.playing = (key, purpose, columns, rows)
            state.frameBadge = badge
            state.latest = nil
            state.hasNewFrame = false
            state.firstFrameTraced = false
            state.framesDrawn = 0
            state.lastDrawnSerial = -1
            state.meanFrameDuration = nil
            state.meanRenderSeconds = nil
            return state.generation
        }
        // Pipelined: each frame is rendered on the player's presenter thread ahead of its time (while the next
        // ones decode) and handed over when due.
        let video = TerminalVideoSink(render: { [weak self] frame in
            self?.render(frame, token: token, renderer: renderer, mode: rendererMode)
        }, target: FrameTarget(controller: self, token: token))
        let onEnd: MoviePlayer.EndHandler = { [weak self] end, stats in self?.ended(end, stats: stats, token: token, key: key) }
        let newPlayer: MoviePlayer
        switch purpose {
        case .hold:
            let sound = state.withLockedValue { $0.soundEnabled } ? makeSound() : nil
            state.withLockedValue { state in if state.generation == token { state.sound = sound } }
            var openPrepared: MoviePlayer.AudioOpener?
            if sound != nil, let movie = Self.preparedMovie(item), let track = preparedSound.take(movie) {
                openPrepared = { () throws(LibavError) -> any AudioChunkSource in track.decoder }
                trace?.log("sound-prepared")
            }
            newPlayer = MoviePlayer(source: source, options: PlaybackOptions(targetSize: target), audio: sound,
                                    preparedAudio: openPrepared, video: video, onEnd: onEnd)
            newPlayer.start()
        case .hint:
            newPlayer = HintPlayer.play(source: source, stillTime: Self.stillTime(of: item) ?? 0,
                                        movieDuration: item.movie?.info.duration, targetSize: target,
                                        video: video, onEnd: onEnd)
        }
        let isCurrent = state.withLockedValue { state in
            guard state.generation == token else { return false }
            state.player = newPlayer
            return true
        }
        if !isCurrent { newPlayer.stop() }
        trace?.log("playback-start \(purpose == .hold ? "hold" : "hint") \(item.displayName)")
        return nil
    }

    /// The cursor rests on `item` and nothing plays: its sound track is opened in the background, so a press
    /// starts the sound without waiting for that (muted: nothing is opened).
    public func prepareSound(for item: LibraryItem) {
        guard soundEnabled, let movie = Self.preparedMovie(item) else { return }
        preparedSound.prepare(movie)
    }

    private static func preparedMovie(_ item: LibraryItem) -> PreparedSoundTrack.Movie? {
        item.playableMovie.map { PreparedSoundTrack.Movie(path: $0.path, range: $0.range) }
    }

    /// Sound on or off for holds (`[playback] sound`, `--mute`, the sound key); off silences a hold at once.
    public func setSound(_ enabled: Bool) {
        let silenced: (any AudioSink)? = state.withLockedValue { state in
            guard state.soundEnabled != enabled else { return nil }
            state.soundEnabled = enabled
            return enabled ? nil : state.sound
        }
        silenced?.stop()
        if !enabled { preparedSound.clear() }
    }

    /// True while a hold plays with its sound on (the status bar's mark).
    public var soundEnabled: Bool { state.withLockedValue { $0.soundEnabled } }

    /// A sound sink whose troubles are said in the status bar once per session.
    private func makeSound() -> (any AudioSink)? {
        SoundOutputs.open(SoundOutputs.Request(environment: RuntimeEnvironment.launch.variables,
                                               trace: trace.map { trace in { @Sendable line in trace.log(line) } },
                                               report: { [weak self] sound in
            guard let self else { return }
            if sound == .playing { self.soundPlaying?() }
            guard sound.isWorthSaying else { return }
            let first = self.state.withLockedValue { $0.soundSaid.insert(sound.description).inserted }
            if first { (self.soundNote ?? self.notify)(sound.description) }
        }))
    }

    /// Stops at once: the key photo shows again on the next draw.
    public func stop() {
        if current != nil { trace?.log("playback-stop") }   // the release benchmark's start (Benchmarks/sound.py)
        let old: MoviePlayer? = state.withLockedValue { state in
            state.generation += 1
            let old = state.player
            state.player = nil
            state.sound = nil
            if state.playing != nil { state.hasNewFrame = true }
            state.playing = nil
            state.latest = nil
            return old
        }
        old?.stop()
    }

    /// The frame to draw for `itemID` in a picture area of `columns` x `rows`, if it is playing there.
    public func picture(for itemID: ItemID, columns: Int, rows: Int) -> RenderedImage? {
        frame(for: itemID, columns: columns, rows: rows)?.image
    }

    /// The same with the frame's number (pixel modes key each frame by it).
    public func frame(for itemID: ItemID, columns: Int, rows: Int) -> (image: RenderedImage, serial: Int)? {
        state.withLockedValue { state in
            guard let playing = state.playing, playing.itemID == itemID, playing.columns == columns, playing.rows == rows,
                  let latest = state.latest else { return nil }
            return (latest, state.frameSerial)
        }
    }

    /// True once per new frame (or stop): the loop then redraws.
    public func takeNewFrame() -> Bool {
        state.withLockedValue { state in
            defer { state.hasNewFrame = false }
            return state.hasNewFrame
        }
    }

    /// While a movie plays drawn smaller for the link: what the status bar says ("link ~1.8 MB/s: movie drawn
    /// smaller"); nil otherwise.
    public var linkNote: String? {
        state.withLockedValue { state in
            guard state.playing != nil, state.sizing != FrameSizing(), let link = state.shrunkOn else { return nil }
            return "link \(link.shortDescription): movie drawn smaller" + (state.sizing.colourBits < 8 ? ", fewer colours" : "")
        }
    }

    /// Called by the loop after `doupdate` drew a frame: traces the first one of a playback.
    public func didDraw() {
        let first: Bool = state.withLockedValue { state in
            if state.latest != nil, state.lastDrawnSerial != state.frameSerial {
                state.lastDrawnSerial = state.frameSerial
                state.framesDrawn += 1
            }
            guard state.latest != nil, !state.firstFrameTraced else { return false }
            state.firstFrameTraced = true
            return true
        }
        if first { trace?.log("first-frame-drawn") }
    }

    // MARK: - player threads

    private func render(_ frame: DecodedFrame, token: Int, renderer: Locked<any CellImageRenderer>,
                        mode: GraphicsMode) -> RenderedImage? {
        guard let (area, badge, sizing): ((Int, Int), LiveBadge?, FrameSizing) = state.withLockedValue({ state in
            state.generation == token ? state.playing.map { (($0.columns, $0.rows), state.frameBadge, state.sizing) } : nil
        }) else { return nil }
        let size = sizing.cells(columns: area.0, rows: area.1)
        let renderStarted = MonotonicClock.now()
        var pixels = frame.pixels
        if mode.isPixelProtocol {
            // Exactly the pixels of the cells it covers, as the thumbnails are, so a frame replaces the key
            // photo in place, and the badge at the same size in the same corner.
            pixels = pixels.sizedForCells(columns: size.columns, rows: size.rows, cell: self.pixels?.cellPixelSize, badge: badge)
            if mode == .kitty { pixels = pixels.keepingColourBits(sizing.colourBits) }
        }
        // A failed movie ends through onEnd; a frame that cannot be rendered is only skipped (below).
        let image = renderer.withLockedValue { [pixels] renderer in
            // A frame is seen for 55 ms: its PNG is made for speed (the thumbnails' most-effort PNG took
            // 60-110 ms for a 293x220 frame).
            (renderer as? ChafaRenderer)?.fastPayload = true
            // try?: a frame chafa cannot render is skipped; the next one replaces it.
            return try? renderer.render(pixels, maxColumns: size.columns, maxRows: size.rows)
        }
        // The next frames follow the link: this frame's bytes at the movie's rate against what the terminal takes.
        // The render's cost too (issue 28.4): a frame rendered later than its time is dropped by the player.
        if let image, let link {
            let renderSeconds = MonotonicClock.now() - renderStarted
            let estimate = link()
            let (duration, render) = state.withLockedValue { state in
                let mean = state.meanFrameDuration.map { 0.8 * $0 + 0.2 * frame.duration } ?? frame.duration
                state.meanFrameDuration = mean
                // Over the frames drawn at the sizing now (a new sizing starts its own mean).
                let render = state.meanRenderSeconds.map { 0.7 * $0 + 0.3 * renderSeconds } ?? renderSeconds
                state.meanRenderSeconds = render
                return (mean, render)
            }
            let framesPerSecond = min(60, max(1, 1 / max(duration, 1.0 / 60)))
            let bytes = Self.bytesOnTheWire(image)
            // Fewer colour bits only for kitty's PNGs: a sixel is quantised to a palette anyway, an iTerm2 JPEG
            // does not deflate, and symbol cells' bytes are their colour changes.
            let fewerColours = mode == .kitty
            // The status bar names the link only when the link is what the frames were shrunk for.
            let (next, forTheLink) = sizing.followingWithReason(bytesPerFrame: bytes, framesPerSecond: framesPerSecond,
                                                                link: estimate, renderSeconds: render,
                                                                fewerColours: fewerColours, columns: area.0, rows: area.1)
            let (changed, player): (Bool, MoviePlayer?) = state.withLockedValue { state in
                guard state.generation == token, next != state.sizing else { return (false, nil) }
                if next.scale < state.sizing.scale || next.colourBits < state.sizing.colourBits {
                    state.shrunkOn = forTheLink ? estimate : nil
                }
                state.sizing = next
                state.meanRenderSeconds = nil
                return (true, state.player)
            }
            if changed {
                // The decoder scales to the new size (libswscale, from the movie's own resolution) instead of
                // this thread resampling every frame from the old one.
                let cells = next.cells(columns: area.0, rows: area.1)
                player?.setTargetSize(PlaybackGeometry.pixelBox(columns: cells.columns, rows: cells.rows, mode: mode,
                                                                        cell: self.pixels?.cellPixelSize))
                trace?.log("playback-sizing \(next.scale) colour bits \(next.colourBits) for \(bytes) B/frame at \(Int(framesPerSecond)) fps, render \(Int((render * 1000).rounded())) ms, link \(estimate?.shortDescription ?? "unknown")")
            }
        }
        return image
    }

    /// About the bytes a frame costs the terminal: a pixel picture's payload, or for symbol cells each cell's
    /// character and a colour change wherever a cell's colours differ from the one before it (as the cell writer
    /// sends them: `CSI 38;2;r;g;b m` is 19 bytes in truecolour, `CSI 38;5;n m` 11 in 256 colours).
    static func bytesOnTheWire(_ image: RenderedImage) -> Int {
        guard image.mode == .symbols else { return image.bytes.count }
        let colourChange = image.colorDepth == .truecolor ? 19 : 11
        var bytes = 0
        var previous: TerminalCell?
        for cell in image.cells {
            bytes += cell.character.utf8.count
            if previous?.foreground != cell.foreground || previous?.foregroundIndex != cell.foregroundIndex { bytes += colourChange }
            if previous?.background != cell.background || previous?.backgroundIndex != cell.backgroundIndex { bytes += colourChange }
            previous = cell
        }
        return bytes + image.rows * 8   // a cursor move per row
    }

    /// Where this controller's frames go: the newest is kept for the event loop, if its playback is current.
    private struct FrameTarget: RenderedFrameTarget {
        weak var controller: PlaybackController?
        let token: Int
        func show(_ image: RenderedImage) { controller?.show(image, token: token) }
    }

    private func show(_ image: RenderedImage, token: Int) {
        state.withLockedValue { state in
            guard state.generation == token else { return }
            state.latest = image
            state.frameSerial += 1
            state.hasNewFrame = true
        }
        wake()
    }

    private func ended(_ end: PlaybackEnd, stats: PlaybackStats, token: Int, key: ItemID) {
        var failure: PlaybackFailure?
        switch end {
        // The status bar says it in plain words, never libav's code (issue 15.5).
        case .failed(let error): failure = .cannotDecode(ImagingError(error).description)
        case .finished where stats.framesShown == 0: failure = .noFrames
        default: break
        }
        let wasCurrent: Bool = state.withLockedValue { state in
            if let failure { state.failures[key] = failure; state.newFailures.insert(key) }
            guard state.generation == token else { return false }
            // Played to the end (or failed): rest on the key photo, no loop.
            state.generation += 1
            state.player = nil
            state.sound = nil
            state.playing = nil
            state.latest = nil
            state.hasNewFrame = true
            return true
        }
        let (drawn, render, sizing) = state.withLockedValue { ($0.framesDrawn, $0.meanRenderSeconds, $0.sizing) }
        // The render's mean and the sizing at the end: what the benchmark reads beside the player's drops.
        trace?.log("playback-end \(end) \(stats), drawn \(drawn), render \(render.map { "\(Int(($0 * 1000).rounded())) ms" } ?? "-") at \(sizing.scale) colour bits \(sizing.colourBits)")
        if let failure, wasCurrent { notify("LIVE OFF: \(failure)") }
        if failure != nil || wasCurrent { onEnd?(key, failure) }
        if wasCurrent || failure != nil { wake() }
    }

    private func remember(_ failure: PlaybackFailure, _ itemID: ItemID) -> PlaybackFailure {
        state.withLockedValue { $0.failures[itemID] = failure; $0.newFailures.insert(itemID) }
        return failure
    }

    public func takeNewFailures() -> Set<ItemID> {
        state.withLockedValue { state in
            defer { state.newFailures.removeAll() }
            return state.newFailures
        }
    }

    /// The still's moment in the movie: the movie's still-image-time, or a Motion Photo's presentation time.
    public static func stillTime(of item: LibraryItem) -> Double? {
        if let time = item.movie?.info.stillImageTime { return time }
        if let us = item.still?.info.embeddedMovie?.presentationTimestampUs, us >= 0 { return Double(us) / 1_000_000 }
        return nil
    }
}
