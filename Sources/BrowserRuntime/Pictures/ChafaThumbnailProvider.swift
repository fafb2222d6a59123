import Concurrent
import Foundation
import Imaging
import LivePairing
import MediaFormats
// ChafaRenderer (a chafa canvas, C state) is not Sendable: TerminalGraphics is still Swift 5 mode and its renderers
// are used from one thread at a time (the presenter here, one worker per renderer in the pool).
@preconcurrency import TerminalGraphics

/// Real pictures: decodes on the imaging scheduler's workers (through the freedesktop thumbnail cache for
/// stills, a poster frame for videos), renders with chafa into symbol cells on the same worker, and hands
/// finished `RenderedImage`s to the UI thread through a locked dictionary. The UI thread only ever takes
/// locks for a moment: it never waits on a decode.
public final class ChafaThumbnailProvider: ThumbnailProvider, @unchecked Sendable {  // C boundary: chafa renderers; mutable state under `lock`
    public let modeDescription: String
    private let scheduler: ThumbnailScheduler
    /// One renderer per worker, so pictures render in parallel.
    private let renderers: ChafaRendererPool
    private var renderer: ChafaRenderer { renderers.prototype }
    private let diskCache: ThumbnailCache
    /// Decoded pixels by item and freedesktop size: a resize or zoom re-renders without decoding again.
    private let frames = ThumbnailMemoryCache<String>(capacityBytes: 256 << 20)
    /// What is wrong with items whose picture failed or shows only part of a damaged file.
    private let notes = PictureNotes()

    private let lock = NSLock()
    private var rendered: [ThumbnailKey: RenderedImage] = [:]
    private var renderedOrder: [ThumbnailKey] = []
    private var failed: Set<ThumbnailKey> = []
    private var inFlight: [ThumbnailKey: PicturePriority] = [:]
    private var ready: [ThumbnailKey] = []
    /// Badges of requests in flight (pixel modes draw the badge when the picture is rendered).
    private var badges: [ThumbnailKey: LiveBadge] = [:]
    /// Live items whose movie could not be played: they show as stills with the LIVE OFF badge.
    private var liveOffIDs: Set<String> = []
    /// First-screen pictures being made from the disk cache while the scan runs (see `prewarm`); a request
    /// for one of them waits for it instead of decoding the same file twice.
    private var prewarming: Set<ThumbnailKey> = []
    private var prewarmQueue: [ThumbnailKey] = []
    /// Wakes the event loop when pictures are ready (set once, before the first request).
    private var onReady: @Sendable () -> Void = {}
    /// Rendered pictures kept for redraws (a few screens' worth; cells are small, pixel pictures are not).
    private let renderedLimit: Int

    /// Pixel modes: the badge is drawn into the pixels (symbol mode composites it into cells when drawing).
    private let pixelBadge: BadgePainter?
    public let pixelOutput: PixelOutput?

    public convenience init(depth: TerminalGraphics.ColorDepth, reason: String, version: String,
                            warn: @escaping @Sendable (String) -> Void) {
        self.init(depth: depth, reason: reason, version: version, warn: warn, mode: .symbols)
    }

    public init(depth: TerminalGraphics.ColorDepth, reason: String, version: String, warn: @escaping @Sendable (String) -> Void,
         mode: GraphicsMode, cellPixelSize: PixelSizeInCells? = nil, badge: BadgePainter? = nil,
         tmux: TmuxPassthroughTarget? = nil) {
        let workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        renderers = ChafaRendererPool(count: workers) {
            ChafaRenderer(mode: mode, colorDepth: depth, cellPixelSize: cellPixelSize)
        }
        pixelBadge = mode.isPixelProtocol ? badge : nil
        pixelOutput = mode.isPixelProtocol
            ? PixelOutput(mode: mode, tmux: tmux, cellPixelSize: cellPixelSize) : nil
        renderedLimit = mode.isPixelProtocol ? 300 : 2_000
        scheduler = ThumbnailScheduler(workers: workers)
        diskCache = ThumbnailCache(version: version, warn: warn)
        modeDescription = reason
    }

    deinit { scheduler.shutdown() }

    public func setReadyHandler(_ handler: @escaping @Sendable () -> Void) {
        lock.withLock { onReady = handler }
    }

    /// Call without `lock` held.
    private func announceReady() {
        lock.withLock { onReady }()
    }

    /// Whether a picture is being decoded or rendered (the loop never asks: it is woken instead; tests check
    /// that a scroll back schedules nothing).
    var hasWorkInFlight: Bool { lock.withLock { !inFlight.isEmpty || !prewarming.isEmpty } }

    public func picture(for key: ThumbnailKey) -> RenderedImage? {
        lock.withLock { rendered[key] }
    }

    public func hasFailed(_ key: ThumbnailKey) -> Bool {
        lock.withLock { failed.contains(key) }
    }

    public func takeReadyKeys() -> [ThumbnailKey] {
        lock.withLock {
            defer { ready.removeAll() }
            return ready
        }
    }

    public func request(_ key: ThumbnailKey, item: LibraryItem, priority: PicturePriority) {
        let state: (known: Bool, previous: PicturePriority?) = lock.withLock {
            (rendered[key] != nil || failed.contains(key) || prewarming.contains(key), inFlight[key])
        }
        if state.known { return }
        let schedulerKey = Self.schedulerKey(key)
        if let previous = state.previous {
            if previous != priority {
                lock.withLock { inFlight[key] = priority }
                scheduler.reprioritize(schedulerKey, to: Self.schedulerPriority(priority))
            }
            return
        }
        lock.withLock {
            inFlight[key] = priority
            // A live item shown as a traditional still (movie missing or unplayable) wears LIVE OFF.
            badges[key] = pixelBadge?.badge(for: item, liveOff: item.liveOffReason != nil || liveOffIDs.contains(item.id))
        }
        let frames = self.frames, diskCache = self.diskCache, notes = self.notes
        let size = thumbnailSize(for: key)
        // Symbols: an embedded thumbnail with what the cells can show serves (never stored in the shared cache).
        let options = CellPictureResolution.decodeOptions(mode: renderer.mode, columns: key.width, rows: key.height)
        scheduler.submit(schedulerKey, priority: Self.schedulerPriority(priority), job: {
            let result = Self.decode(item, size: size, options: options, frames: frames, diskCache: diskCache, notes: notes)
            if case .failure(let error) = result { notes.set(PictureNote(error: error, shownInPart: false), for: item.id) }
            return result
        }, completion: { [weak self] _, result in
            self?.finish(key, result)
        })
    }

    public func invalidate(itemIDs: Set<String>) {
        guard !itemIDs.isEmpty else { return }
        for id in itemIDs {
            for size in ThumbnailSize.allCases { frames.remove("\(id)@\(size.rawValue)") }
            notes.set(nil, for: id)
        }
        lock.withLock {
            for key in rendered.keys where itemIDs.contains(key.itemID) { rendered[key] = nil }
            renderedOrder.removeAll { itemIDs.contains($0.itemID) }
            failed = failed.filter { !itemIDs.contains($0.itemID) }
        }
    }

    /// Pixel modes: these items' movies could not be played, so their pictures are drawn again with the
    /// LIVE OFF badge (symbol mode composites the badge when drawing and needs nothing).
    public func markLiveOff(itemIDs: Set<String>) {
        guard pixelBadge != nil, !itemIDs.isEmpty else { return }
        lock.withLock {
            let added = itemIDs.subtracting(liveOffIDs)
            guard !added.isEmpty else { return }
            liveOffIDs.formUnion(added)
            let stale = rendered.keys.filter { added.contains($0.itemID) }
            for key in stale { rendered[key] = nil }
            renderedOrder.removeAll { added.contains($0.itemID) }
            ready += stale
        }
    }

    public func cancelAll(except keep: Set<ThumbnailKey>) {
        scheduler.cancelAll(except: Set(keep.map(Self.schedulerKey)))
        lock.withLock {
            inFlight = inFlight.filter { keep.contains($0.key) }
            badges = badges.filter { keep.contains($0.key) }
        }
    }

    /// Runs on a worker: renders the decoded frame at the key's cell size and publishes it.
    private func finish(_ key: ThumbnailKey, _ result: Result<PixelFrame, ImagingError>) {
        var image: RenderedImage?
        if case .success(let frame) = result {
            let prepared = renderer.mode.isPixelProtocol ? pixelReady(frame, key: key) : frame
            image = renderers.withRenderer { try? $0.render(prepared, maxColumns: key.width, maxRows: key.height) }
        }
        lock.withLock {
            badges[key] = nil
            guard inFlight.removeValue(forKey: key) != nil else { return }
            if let image {
                keepRendered(image, for: key)
            } else {
                failed.insert(key)
            }
            ready.append(key)
        }
        announceReady()
    }

    /// Call with `lock` held.
    private func keepRendered(_ image: RenderedImage, for key: ThumbnailKey) {
        rendered[key] = image
        renderedOrder.append(key)
        if renderedOrder.count > renderedLimit {
            for old in renderedOrder.prefix(renderedLimit / 4) { rendered[old] = nil }
            renderedOrder.removeFirst(renderedLimit / 4)
        }
    }

    /// The freedesktop size whose pixels cover the key's cells.
    private func thumbnailSize(for key: ThumbnailKey) -> ThumbnailSize {
        let box = CellGeometry.pixelBox(columns: key.width, rows: key.height, cell: renderer.cellPixelSize)
        return ThumbnailSize.covering(max(box.width, box.height))
    }

    /// Makes the first screen's pictures while the library scan still runs (first paint waits for the scan
    /// otherwise): the freedesktop cache is keyed by path and mtime only, so a still's cached thumbnail
    /// needs no probe. Cache hits only (a miss is left to the normal request after the scan, which knows
    /// the item); symbol mode only (pixel pictures need the item's kind for their badge). `stills` runs on a
    /// background thread and gives item ids (still paths) in display order.
    public func prewarm(stills: @escaping @Sendable () -> [String], width: Int, height: Int) {
        guard !renderer.mode.isPixelProtocol, width > 0, height > 0 else { return }
        let workers = renderers.count
        Thread.detachNewThread { [weak self] in
            WorkerThreadSignals.block()
            let keys = stills().map { ThumbnailKey(itemID: $0, width: width, height: height) }
            guard let self, !keys.isEmpty else { return }
            self.lock.withLock {
                self.prewarming.formUnion(keys)
                self.prewarmQueue = keys.reversed()
            }
            DispatchQueue.concurrentPerform(iterations: min(workers, keys.count)) { _ in
                while let key = self.lock.withLock({ self.prewarmQueue.popLast() }) { self.prewarmOne(key) }
            }
        }
    }

    private func prewarmOne(_ key: ThumbnailKey) {
        let size = thumbnailSize(for: key)
        let cacheKey = "\(key.itemID)@\(size.rawValue)"
        var image: RenderedImage?
        if let frame = frames.frame(for: cacheKey) ?? diskCache.cached(forFile: key.itemID, size: size) {
            frames.insert(frame, for: cacheKey)
            image = renderers.withRenderer { try? $0.render(frame, maxColumns: key.width, maxRows: key.height) }
        }
        lock.withLock {
            prewarming.remove(key)
            if let image, rendered[key] == nil { keepRendered(image, for: key) }
            // Either way the loop redraws: a miss is then requested the normal way.
            ready.append(key)
        }
        announceReady()
    }

    /// Pixel modes: the frame resampled to exactly the pixels of the cells it will cover, with the badge drawn
    /// into its corner at that size (so the badge keeps its size whatever the photo's resolution).
    private func pixelReady(_ frame: PixelFrame, key: ThumbnailKey) -> PixelFrame {
        let badge = lock.withLock { badges[key] }
        return frame.sizedForCells(columns: key.width, rows: key.height, cell: renderer.cellPixelSize, badge: badge)
    }

    public func pictureNote(for itemID: String) -> PictureNote? { notes.note(for: itemID) }

    private static func decode(_ item: LibraryItem, size: ThumbnailSize, options: DecodeOptions,
                               frames: ThumbnailMemoryCache<String>,
                               diskCache: ThumbnailCache, notes: PictureNotes) -> Result<PixelFrame, ImagingError> {
        var cacheKey = "\(item.id)@\(size.rawValue)"
        // A small embedded thumbnail is kept apart, for cells no bigger than those it was taken for.
        let smallKey = options.embeddedThumbnailSufficientBox.map { "\(cacheKey)<=\($0.width)x\($0.height)" }
        if let frame = frames.frame(for: cacheKey) ?? smallKey.flatMap({ frames.frame(for: $0) }) { return .success(frame) }
        do {
            let frame: PixelFrame
            if let still = item.still {
                let thumbnail = try diskCache.thumbnail(forFile: still.path, size: size, info: still.info, options: options)
                frame = thumbnail.frame
                if thumbnail.isBelowCacheSize, let smallKey { cacheKey = smallKey }
                notes.set(thumbnail.damage.map { PictureNote(error: $0, shownInPart: true) }, for: item.id)
            } else if let movie = item.movie {
                frame = try posterFrame(path: movie.path, box: PixelSize(square: size.pixels))
            } else {
                return .failure(.cannotDecode("nothing to show"))
            }
            frames.insert(frame, for: cacheKey)
            return .success(frame)
        } catch {
            // In the user's terms, with the file's first bytes and end looked at (issue 15.5).
            return .failure(ImagingError.explaining(error, path: item.still?.path ?? item.movie?.path))
        }
    }

    private static func posterFrame(path: String, box: PixelSize) throws -> PixelFrame {
        let source = try FileByteSource(path: path)
        let decoder = try MovieDecoder(source: source, threadCount: 1)
        guard let frame = try decoder.nextFrame(fitting: box) else {
            throw ImagingError.cannotDecode("the movie has no video frame")
        }
        return frame.pixels
    }

    private static func schedulerKey(_ key: ThumbnailKey) -> ThumbnailRequestKey {
        ThumbnailRequestKey(itemID: key.itemID, size: key.width << 16 | key.height)
    }

    private static func schedulerPriority(_ priority: PicturePriority) -> Imaging.ThumbnailPriority {
        switch priority {
        case .selected, .visible: return .visible
        case .prefetch: return .nextPage
        }
    }
}
