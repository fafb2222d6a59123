import Foundation
import Imaging
import LivePairing
import MediaFormats
import TerminalGraphics

/// Real pictures: decodes on the imaging scheduler's workers (through the freedesktop thumbnail cache for
/// stills, a poster frame for videos), renders with chafa into symbol cells on the same worker, and hands
/// finished `RenderedImage`s to the UI thread through a locked dictionary. The UI thread only ever takes
/// locks for a moment: it never waits on a decode.
public final class ChafaThumbnailProvider: ThumbnailProvider, @unchecked Sendable {
    public let modeDescription: String
    private let scheduler: ThumbnailScheduler
    private let renderer: ChafaRenderer
    /// chafa canvases are made per picture but share the renderer's symbol map: one render at a time.
    private let renderLock = NSLock()
    private let diskCache: ThumbnailCache
    /// Decoded pixels by item and freedesktop size: a resize or zoom re-renders without decoding again.
    private let frames = ThumbnailMemoryCache<String>(capacityBytes: 256 << 20)

    private let lock = NSLock()
    private var rendered: [ThumbnailKey: RenderedImage] = [:]
    private var renderedOrder: [ThumbnailKey] = []
    private var failed: Set<ThumbnailKey> = []
    private var inFlight: [ThumbnailKey: PicturePriority] = [:]
    private var ready: [ThumbnailKey] = []
    /// Rendered pictures kept for redraws (a few screens' worth; cells are small).
    private let renderedLimit = 2_000

    public init(depth: TerminalGraphics.ColorDepth, reason: String, version: String,
                warn: @escaping @Sendable (String) -> Void) {
        renderer = ChafaRenderer(mode: .symbols, colorDepth: depth)
        scheduler = ThumbnailScheduler(workers: max(1, min(4, ProcessInfo.processInfo.activeProcessorCount)))
        diskCache = ThumbnailCache(version: version, warn: warn)
        modeDescription = reason
    }

    deinit { scheduler.shutdown() }

    public var hasPendingWork: Bool { lock.withLock { !inFlight.isEmpty || !ready.isEmpty } }

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
            (rendered[key] != nil || failed.contains(key), inFlight[key])
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
        lock.withLock { inFlight[key] = priority }
        let frames = self.frames, diskCache = self.diskCache
        let box = CellGeometry.pixelBox(columns: key.width, rows: key.height, cell: renderer.cellPixelSize)
        let size = ThumbnailSize.covering(max(box.width, box.height))
        scheduler.submit(schedulerKey, priority: Self.schedulerPriority(priority), job: {
            Self.decode(item, size: size, frames: frames, diskCache: diskCache)
        }, completion: { [weak self] _, result in
            self?.finish(key, result)
        })
    }

    public func cancelAll(except keep: Set<ThumbnailKey>) {
        scheduler.cancelAll(except: Set(keep.map(Self.schedulerKey)))
        lock.withLock { inFlight = inFlight.filter { keep.contains($0.key) } }
    }

    /// Runs on a worker: renders the decoded frame at the key's cell size and publishes it.
    private func finish(_ key: ThumbnailKey, _ result: Result<PixelFrame, ImagingError>) {
        var image: RenderedImage?
        if case .success(let frame) = result {
            image = renderLock.withLock { try? renderer.render(frame, maxColumns: key.width, maxRows: key.height) }
        }
        lock.withLock {
            guard inFlight.removeValue(forKey: key) != nil else { return }
            if let image {
                rendered[key] = image
                renderedOrder.append(key)
                if renderedOrder.count > renderedLimit {
                    for old in renderedOrder.prefix(renderedLimit / 4) { rendered[old] = nil }
                    renderedOrder.removeFirst(renderedLimit / 4)
                }
            } else {
                failed.insert(key)
            }
            ready.append(key)
        }
    }

    private static func decode(_ item: LibraryItem, size: ThumbnailSize, frames: ThumbnailMemoryCache<String>,
                               diskCache: ThumbnailCache) -> Result<PixelFrame, ImagingError> {
        let cacheKey = "\(item.id)@\(size.rawValue)"
        if let frame = frames.frame(for: cacheKey) { return .success(frame) }
        do {
            let frame: PixelFrame
            if let still = item.still {
                frame = try diskCache.thumbnail(forFile: still.path, size: size, info: still.info).frame
            } else if let movie = item.movie {
                frame = try posterFrame(path: movie.path, box: PixelSize(square: size.pixels))
            } else {
                return .failure(.cannotDecode("nothing to show"))
            }
            frames.insert(frame, for: cacheKey)
            return .success(frame)
        } catch let error as ImagingError {
            return .failure(error)
        } catch {
            return .failure(.cannotDecode("\(error)"))
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
