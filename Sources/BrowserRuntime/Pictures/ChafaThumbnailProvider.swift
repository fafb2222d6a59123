import BrowserCore
import Concurrent
import Foundation
import GraphicsSettings
import Imaging
import LivePairing
import MediaFormats
import TerminalProtocol
// ChafaRenderer (a chafa canvas, C state) is not Sendable: TerminalGraphics is still Swift 5 mode and its renderers
// are used from one thread at a time (the presenter here, one worker per renderer in the pool).
@preconcurrency import TerminalGraphics

/// Real pictures: decodes on the imaging scheduler's workers (through the freedesktop thumbnail cache for
/// stills, a poster frame for videos), renders with chafa into symbol cells on the same worker, and hands
/// finished `RenderedImage`s to the UI thread through a locked dictionary. The UI thread only ever takes
/// locks for a moment: it never waits on a decode.
public final class ChafaThumbnailProvider: ThumbnailProvider, Sendable {
    /// What the picture workers run: a picture, or the listing that names the first screen's pictures while
    /// the scan runs (`prewarm`; one per cell size, a later listing replacing a queued one).
    enum Job: Hashable, Sendable {
        case picture(ThumbnailKey)
        case prewarmListing(columns: Int, rows: Int)
    }

    /// Decoded pixels are kept by item and freedesktop size; a small embedded thumbnail is kept apart, for
    /// cells no bigger than those it was taken for.
    struct FrameKey: Hashable, Sendable {
        var itemID: ItemID
        var size: ThumbnailSize
        /// Set on an embedded thumbnail smaller than `size`: the largest cell box it serves.
        var servesAtMost: PixelSize?
        init(itemID: ItemID, size: ThumbnailSize, servesAtMost: PixelSize? = nil) {
            self.itemID = itemID
            self.size = size
            self.servesAtMost = servesAtMost
        }
    }

    public let modeDescription: String
    private let scheduler: ThumbnailScheduler<Job>
    /// One renderer per worker, so pictures render in parallel.
    private let renderers: ChafaRendererPool
    private let diskCache: ThumbnailCache
    /// Decoded pixels by item and freedesktop size: a resize or zoom re-renders without decoding again.
    private let frames = ThumbnailMemoryCache<FrameKey>(capacityBytes: 256 << 20)
    /// What is wrong with items whose picture failed or shows only part of a damaged file.
    private let notes = PictureNotes()
    /// The viewer's 1:1 zoom: the full-size image of the one photo zoomed, decoded once and kept while the
    /// viewer stays on it (every pan crops it again).
    private let fullSize = FullSizeImageCache()

    private struct State {
        var rendered: [ThumbnailKey: RenderedImage] = [:]
        var renderedOrder: [ThumbnailKey] = []
        var failed: Set<ThumbnailKey> = []
        var inFlight: [ThumbnailKey: Urgency] = [:]
        var ready: [ThumbnailKey] = []
        /// Badges of requests in flight (pixel modes draw the badge when the picture is rendered).
        var badges: [ThumbnailKey: LiveBadge] = [:]
        /// Live items whose movie could not be played: they show as stills with the LIVE OFF badge.
        var liveOffIDs: Set<ItemID> = []
        /// First-screen pictures being made from the disk cache while the scan runs (see `prewarm`); a request
        /// for one of them waits for it instead of decoding the same file twice.
        var prewarming: Set<ThumbnailKey> = []
        /// Wakes the event loop when pictures are ready (set once, before the first request).
        var onReady: @Sendable () -> Void = {}

        mutating func keepRendered(_ image: RenderedImage, for key: ThumbnailKey, limit: Int) {
            rendered[key] = image
            renderedOrder.append(key)
            if renderedOrder.count > limit {
                for old in renderedOrder.prefix(limit / 4) { rendered[old] = nil }
                renderedOrder.removeFirst(limit / 4)
            }
        }
    }
    private let state = Locked(State())
    /// Rendered pictures kept for redraws (a few screens' worth; cells are small, pixel pictures are not).
    private let renderedLimit: Int

    /// Pixel modes: the badge is drawn into the pixels (symbol mode composites it into cells when drawing).
    private let pixelBadge: BadgePainter?
    public let pixelOutput: PixelOutput?

    public convenience init(depth: GraphicsSettings.ColorDepth, reason: String, version: String,
                            environment: [String: String], warn: @escaping @Sendable (String) -> Void) {
        self.init(depth: depth, reason: reason, version: version, environment: environment, warn: warn, mode: .symbols)
    }

    /// `environment`: the launch environment (where the freedesktop thumbnail cache is).
    public init(depth: GraphicsSettings.ColorDepth, reason: String, version: String, environment: [String: String],
                warn: @escaping @Sendable (String) -> Void,
         mode: GraphicsMode, cellPixelSize: PixelSizeInCells? = nil, maxSixelSize: PixelSizeInCells? = nil,
         badge: BadgePainter? = nil, tmux: TmuxPassthroughTarget? = nil) {
        let workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        renderers = ChafaRendererPool(count: workers) {
            ChafaRenderer(mode: mode, colorDepth: depth, cellPixelSize: cellPixelSize, maxSixelSize: maxSixelSize)
        }
        pixelBadge = mode.isPixelProtocol ? badge : nil
        pixelOutput = mode.isPixelProtocol
            ? PixelOutput(mode: mode, tmux: tmux, cellPixelSize: cellPixelSize,
                          maxSixelSize: mode == .sixels ? maxSixelSize : nil) : nil
        renderedLimit = mode.isPixelProtocol ? 300 : 2_000
        scheduler = ThumbnailScheduler(workers: workers)
        diskCache = ThumbnailCache(version: version, environment: environment, warn: warn)
        modeDescription = reason
    }

    deinit { scheduler.shutdown() }

    public func setReadyHandler(_ handler: @escaping @Sendable () -> Void) {
        state.withLockedValue { $0.onReady = handler }
    }

    /// Call without the state's lock held.
    private func announceReady() {
        state.withLockedValue { $0.onReady }()
    }

    /// Whether a picture is being decoded or rendered (the loop never asks: it is woken instead; tests check
    /// that a scroll back schedules nothing).
    var hasWorkInFlight: Bool { state.withLockedValue { !$0.inFlight.isEmpty || !$0.prewarming.isEmpty } }

    public func picture(for key: ThumbnailKey) -> RenderedImage? {
        state.withLockedValue { $0.rendered[key] }
    }

    public func hasFailed(_ key: ThumbnailKey) -> Bool {
        state.withLockedValue { $0.failed.contains(key) }
    }

    public func takeReadyKeys() -> [ThumbnailKey] {
        state.withLockedValue { s in
            defer { s.ready.removeAll() }
            return s.ready
        }
    }

    public func request(_ key: ThumbnailKey, item: LibraryItem, priority: Urgency) {
        let known: (known: Bool, previous: Urgency?) = state.withLockedValue { s in
            (s.rendered[key] != nil || s.failed.contains(key) || s.prewarming.contains(key), s.inFlight[key])
        }
        if known.known { return }
        let job = Job.picture(key)
        if let previous = known.previous {
            if previous != priority {
                state.withLockedValue { $0.inFlight[key] = priority }
                scheduler.reprioritize(job, to: priority)
            }
            return
        }
        let pixelBadge = self.pixelBadge
        state.withLockedValue { s in
            s.inFlight[key] = priority
            // A live item shown as a traditional still (movie missing or unplayable) wears LIVE OFF.
            s.badges[key] = pixelBadge?.badge(for: item, liveOff: item.liveOffReason != nil || s.liveOffIDs.contains(item.id))
        }
        if let zoom = key.zoom {
            submitZoomed(key, zoom: zoom, item: item, priority: priority)
            return
        }
        let frames = self.frames, diskCache = self.diskCache, notes = self.notes
        let size = thumbnailSize(for: key)
        // Symbols: an embedded thumbnail with what the cells can show serves (never stored in the shared cache).
        let options = CellPictureResolution.decodeOptions(mode: renderers.mode, columns: key.width, rows: key.height)
        scheduler.submit(job, priority: priority, job: {
            let result = Self.decode(item, size: size, options: options, frames: frames, diskCache: diskCache, notes: notes)
            if case .failure(let error) = result { notes.set(PictureNote(error: error, shownInPart: false), for: item.id) }
            return result
        }, completion: { [weak self] _, result in
            self?.finish(key, result)
        })
    }

    public func invalidate(itemIDs: Set<ItemID>) {
        guard !itemIDs.isEmpty else { return }
        // Every size, and the small Exif thumbnails kept for small cells (these stayed behind while the keys
        // were strings, and a rotated or replaced photo came back from them unchanged).
        frames.removeAll { itemIDs.contains($0.itemID) }
        for id in itemIDs { notes.set(nil, for: id) }
        state.withLockedValue { s in
            for key in s.rendered.keys where itemIDs.contains(key.itemID) { s.rendered[key] = nil }
            s.renderedOrder.removeAll { itemIDs.contains($0.itemID) }
            s.failed = s.failed.filter { !itemIDs.contains($0.itemID) }
        }
    }

    /// Pixel modes: these items' movies could not be played, so their pictures are drawn again with the
    /// LIVE OFF badge (symbol mode composites the badge when drawing and needs nothing).
    public func markLiveOff(itemIDs: Set<ItemID>) {
        guard pixelBadge != nil, !itemIDs.isEmpty else { return }
        state.withLockedValue { s in
            let added = itemIDs.subtracting(s.liveOffIDs)
            guard !added.isEmpty else { return }
            s.liveOffIDs.formUnion(added)
            let stale = s.rendered.keys.filter { added.contains($0.itemID) }
            for key in stale { s.rendered[key] = nil }
            s.renderedOrder.removeAll { added.contains($0.itemID) }
            s.ready += stale
        }
    }

    public func cancelAll(except keep: Set<ThumbnailKey>) {
        scheduler.cancelAll(except: Set(keep.map(Job.picture)))
        state.withLockedValue { s in
            s.inFlight = s.inFlight.filter { keep.contains($0.key) }
            s.badges = s.badges.filter { keep.contains($0.key) }
        }
    }

    public var zoomCellPixels: ZoomCellPixels {
        guard renderers.mode.isPixelProtocol else { return .symbols }
        let cell = CellGeometry.pixelBox(columns: 1, rows: 1, cell: renderers.cellPixelSize)
        let limit = renderers.maxSixelSize.map { _ in
            CellGeometry.sixelCells(columns: .max, rows: .max, limit: renderers.maxSixelSize, cell: renderers.cellPixelSize)
        }
        return ZoomCellPixels(width: cell.width, height: cell.height, maxColumns: limit?.columns, maxRows: limit?.rows)
    }

    /// The viewer's 1:1 zoom: the crop of the full-size image (decoded once per photo), rendered at the key's
    /// cells; in pixel modes the crop has exactly the cells' pixels, so it is sent one image pixel per terminal
    /// pixel.
    private func submitZoomed(_ key: ThumbnailKey, zoom: ZoomedPicture, item: LibraryItem, priority: Urgency) {
        state.withLockedValue { $0.badges[key] = nil }
        let fullSize = self.fullSize, notes = self.notes, cells = pixelCells(key)
        scheduler.submit(.picture(key), priority: priority, job: {
            let result = fullSize.frame(for: item).map { frame in
                // Within the terminal's sixel limit the 1:1 crop covers fewer cells (centred where it is shown).
                let crop = zoom.crop(imageWidth: frame.width, imageHeight: frame.height,
                                     columns: cells.columns, rows: cells.rows)
                return frame.cropped(to: PixelRect(x: crop.x, y: crop.y, width: crop.width, height: crop.height))
            }
            if case .failure(let error) = result { notes.set(PictureNote(error: error, shownInPart: false), for: item.id) }
            return result
        }, completion: { [weak self] _, result in
            self?.finish(key, result)
        })
    }

    /// Runs on a worker: renders the decoded frame at the key's cell size and publishes it.
    private func finish(_ key: ThumbnailKey, _ result: Result<PixelFrame, ImagingError>) {
        var image: RenderedImage?
        if case .success(let frame) = result {
            let prepared = renderers.mode.isPixelProtocol ? pixelReady(frame, key: key) : frame
            let cells = pixelCells(key)
            // A picture that cannot be drawn is marked failed below, as any other, and its note says why.
            switch renderers.withRenderer({ renderer in
                Result { () throws(RenderError) in try renderer.render(prepared, maxColumns: cells.columns, maxRows: cells.rows) }
            }) {
            case .success(let rendered):
                image = rendered
                if case .render? = notes.note(for: key.itemID)?.failure { notes.set(nil, for: key.itemID) }
            case .failure(let why):
                notes.set(PictureNote(renderFailure: why), for: key.itemID)
            }
        }
        let limit = renderedLimit
        state.withLockedValue { s in
            s.badges[key] = nil
            guard s.inFlight.removeValue(forKey: key) != nil else { return }
            if let image {
                s.keepRendered(image, for: key, limit: limit)
            } else {
                s.failed.insert(key)
            }
            s.ready.append(key)
        }
        announceReady()
    }

    /// The freedesktop size whose pixels cover the key's cells.
    private func thumbnailSize(for key: ThumbnailKey) -> ThumbnailSize {
        let box = CellGeometry.pixelBox(columns: key.width, rows: key.height, cell: renderers.cellPixelSize)
        return ThumbnailSize.covering(max(box.width, box.height))
    }

    /// Makes the first screen's pictures while the library scan still runs (first paint waits for the scan
    /// otherwise): the freedesktop cache is keyed by path and mtime only, so a still's cached thumbnail
    /// needs no probe. Cache hits only (a miss is left to the normal request after the scan, which knows
    /// the item); symbol mode only (pixel pictures need the item's kind for their badge). Everything runs on
    /// the picture workers (the one decode pool), with the `firstScreen` priority that the loop's per-frame
    /// `cancelAll` leaves alone: first `stills` (item ids, i.e. still paths, in display order), then one job
    /// per picture.
    public func prewarm(stills: @escaping @Sendable () -> [ItemID], width: Int, height: Int) {
        guard !renderers.mode.isPixelProtocol, width > 0, height > 0 else { return }
        scheduler.submit(.prewarmListing(columns: width, rows: height), priority: .firstScreen, work: { [weak self] in
            let keys = stills().map { ThumbnailKey(itemID: $0, width: width, height: height) }
            guard let self, !keys.isEmpty else { return }
            // A picture the loop already asked for (the scan finished before this listing ran) keeps its request.
            let fresh = self.state.withLockedValue { s in
                let fresh = keys.filter { s.rendered[$0] == nil && s.inFlight[$0] == nil && !s.prewarming.contains($0) }
                s.prewarming.formUnion(fresh)
                return fresh
            }
            for key in fresh { self.submitPrewarm(key) }
        })
    }

    private func submitPrewarm(_ key: ThumbnailKey) {
        let size = thumbnailSize(for: key)
        let cacheKey = FrameKey(itemID: key.itemID, size: size)
        let frames = self.frames, diskCache = self.diskCache
        scheduler.submit(.picture(key), priority: .firstScreen, job: {
            guard let frame = frames.frame(for: cacheKey) ?? diskCache.cached(forFile: key.itemID.rawValue, size: size) else {
                return .failure(.cannotDecode("not in the thumbnail cache"))
            }
            frames.insert(frame, for: cacheKey)
            return .success(frame)
        }, completion: { [weak self] _, result in
            self?.finishPrewarm(key, result)
        })
    }

    /// Runs on a worker: renders a cache hit and publishes it; either way the loop redraws (a miss is then
    /// requested the normal way).
    private func finishPrewarm(_ key: ThumbnailKey, _ result: Result<PixelFrame, ImagingError>) {
        var image: RenderedImage?
        if case .success(let frame) = result {
            // try?: a cache hit that cannot be rendered is left to the normal request, which records why it failed.
            image = renderers.withRenderer { try? $0.render(frame, maxColumns: key.width, maxRows: key.height) }
        }
        let limit = renderedLimit
        state.withLockedValue { s in
            s.prewarming.remove(key)
            if let image, s.rendered[key] == nil { s.keepRendered(image, for: key, limit: limit) }
            s.ready.append(key)
        }
        announceReady()
    }

    /// Pixel modes: the frame resampled to exactly the pixels of the cells it will cover, with the badge drawn
    /// into its corner at that size (so the badge keeps its size whatever the photo's resolution).
    private func pixelReady(_ frame: PixelFrame, key: ThumbnailKey) -> PixelFrame {
        let badge = state.withLockedValue { $0.badges[key] }
        let cells = pixelCells(key)
        return frame.sizedForCells(columns: cells.columns, rows: cells.rows, cell: renderers.cellPixelSize, badge: badge)
    }

    /// The cells a picture for `key` may cover: the key's, or fewer for a sixel above the terminal's limit
    /// (sized here, before the badge is drawn and the zoom crop is cut, so both keep their pixel size).
    private func pixelCells(_ key: ThumbnailKey) -> (columns: Int, rows: Int) {
        CellGeometry.sixelCells(columns: key.width, rows: key.height, limit: renderers.maxSixelSize,
                                cell: renderers.cellPixelSize)
    }

    public func pictureNote(for itemID: ItemID) -> PictureNote? { notes.note(for: itemID) }

    private static func decode(_ item: LibraryItem, size: ThumbnailSize, options: DecodeOptions,
                               frames: ThumbnailMemoryCache<FrameKey>,
                               diskCache: ThumbnailCache, notes: PictureNotes) -> Result<PixelFrame, ImagingError> {
        var cacheKey = FrameKey(itemID: item.id, size: size)
        // A small embedded thumbnail is kept apart, for cells no bigger than those it was taken for.
        let smallKey = options.embeddedThumbnailSufficientBox.map { FrameKey(itemID: item.id, size: size, servesAtMost: $0) }
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
}
