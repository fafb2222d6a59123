import BrowserCore
import Foundation
import Concurrent
import GraphicsSettings
import Imaging
import LivePairing
import LiveStudio
import MediaFormats
import TerminalGraphics

/// The key-photo mode's services (issue 20): reads a Live Photo movie's frame times, decodes the frame the
/// reducer asks for through `MovieDecoder` (its own decoder, not the playback engine's) and renders it for
/// the viewer's picture area, and writes the chosen frame as a new Live Photo with the very code of
/// `livegrid edit --key-photo-at` (`StudioEditor`). Everything runs on its own queues and is posted back to
/// the event loop: the draw loop never waits on a decode or a file.
public final class KeyPhotoStudio: @unchecked Sendable {  // C boundary: `decoder` (libav) and `renderer` (chafa) only on `queue`; the rest in `state`
    private let queue = DispatchQueue(label: "livegrid.key-photo")
    private let writeQueue = DispatchQueue(label: "livegrid.key-photo.write")
    private let renderer: ChafaRenderer?
    private let pixels: PixelOutput?
    private let post: @Sendable (BrowserAction) -> Void

    private struct FrameKey: Equatable {
        var itemID: ItemID
        var time: Double
        var columns: Int
        var rows: Int
    }
    private struct FrameState {
        /// The frame the reducer wants shown (`showFrame`), nil outside the mode.
        var wanted: (item: LibraryItem, time: Double)?
        var shown: (key: FrameKey, image: RenderedImage, serial: Int)?
        var decoding: FrameKey?
        /// A frame that did not decode is not asked for again (each failure would redraw and retry).
        var failed: FrameKey?
        var serial = 0
    }
    private let state = Locked(FrameState())
    /// Only touched on `queue`: one decoder per movie while the mode lasts (seeks are cheap, opening is not).
    private var decoder: (itemID: ItemID, decoder: MovieDecoder)?

    /// The export dialog's effect previews and effect exports.
    private let effects: EffectPreviewer
    /// `$HOME` from the launch environment, for `~` in a typed destination.
    private let home: String?

    /// `depth` nil: the terminal has no colours (no frames are drawn; writing still works). `wake` wakes the
    /// event loop when a preview frame is ready (`takeNewFrame`).
    public init(depth: GraphicsSettings.ColorDepth?, pixels: PixelOutput?, post: @escaping @Sendable (BrowserAction) -> Void,
                home: String? = nil, wake: @escaping @Sendable () -> Void = {}) {
        self.home = home
        let previewRenderer: ChafaRenderer?
        if let pixels, pixels.mode.isPixelProtocol {
            renderer = ChafaRenderer(mode: pixels.mode, colorDepth: .truecolor, cellPixelSize: pixels.cellPixelSize,
                                     maxSixelSize: pixels.maxSixelSize)
            previewRenderer = ChafaRenderer(mode: pixels.mode, colorDepth: .truecolor, cellPixelSize: pixels.cellPixelSize,
                                     maxSixelSize: pixels.maxSixelSize)
            self.pixels = pixels
        } else {
            renderer = depth.map { ChafaRenderer(mode: .symbols, colorDepth: $0) }
            previewRenderer = depth.map { ChafaRenderer(mode: .symbols, colorDepth: $0) }
            self.pixels = nil
        }
        self.post = post
        effects = EffectPreviewer(renderer: previewRenderer, pixels: self.pixels, post: post, wake: wake)
    }

    /// For the export dialog: the effect preview's latest picture for an area of `columns` x `rows`.
    public func effectPicture(columns: Int, rows: Int) -> (image: RenderedImage, serial: Int)? {
        effects.picture(columns: columns, rows: rows)
    }

    /// True once per new preview frame (the loop redraws).
    public func takeNewFrame() -> Bool { effects.takeNewFrame() }

    public func perform(_ request: StudioRequest) {
        switch request {
        case .loadFrameTimes(let item):
            queue.async { [self] in loadFrameTimes(item) }
        case .showFrame(let item, let time):
            state.withLockedValue { $0.wanted = (item, time) }
        case .writeKeyPhoto(let item, let seconds, let directory):
            writeQueue.async { [self] in write(item, seconds: seconds, directory: directory) }
        case .leave:
            state.withLockedValue { $0 = FrameState(serial: $0.serial) }
            queue.async { [self] in decoder = nil }
        case .previewEffect(let item, let effect):
            effects.preview(item, effect)
        case .stopEffectPreview:
            effects.stop()
        case .exportEffects(let items, let chosen, let destination):
            effects.export(items, effects: chosen, destination: TriagePrompt.expandingTilde(destination, home: home))
        }
    }

    /// For the renderer: the frame to draw in `rect` instead of the still while the mode shows `item`. Asks
    /// for a decode when the frame or the area changed; meanwhile the previous frame stays.
    public func picture(for item: LibraryItem, columns: Int, rows: Int) -> (image: RenderedImage, serial: Int)? {
        guard renderer != nil, columns > 0, rows > 0 else { return nil }
        let (picture, decodeItem, key) = state.withLockedValue { frames -> ((image: RenderedImage, serial: Int)?, LibraryItem?, FrameKey?) in
            guard let wanted = frames.wanted, wanted.item.id == item.id else { return (nil, nil, nil) }
            let key = FrameKey(itemID: item.id, time: wanted.time, columns: columns, rows: rows)
            if let shown = frames.shown, shown.key == key { return ((shown.image, shown.serial), nil, nil) }
            var decodeItem: LibraryItem?
            if frames.decoding != key, frames.failed != key {
                frames.decoding = key
                decodeItem = wanted.item
            }
            return (frames.shown.flatMap { $0.key.itemID == item.id ? ($0.image, $0.serial) : nil }, decodeItem, key)
        }
        if let decodeItem, let key { queue.async { [self] in decode(decodeItem, key: key) } }
        return picture
    }

    // MARK: - on `queue`

    private func loadFrameTimes(_ item: LibraryItem) {
        do {
            guard let source = try PlayableMovie.source(for: item) else {
                post(.studio(.failed(itemID: item.id, .noMovie(itemName: item.displayName))))
                return
            }
            let times = try StudioRenderer.frameTimes(ofMovie: source)
            post(.studio(.frameTimesLoaded(itemID: item.id, times: times, stillImageTime: item.movie?.info.stillImageTime)))
        } catch {
            post(.studio(.failed(itemID: item.id, .framesUnreadable(cause: ErrorCause.of(error)))))
        }
    }

    private func decode(_ item: LibraryItem, key: FrameKey) {
        // A newer request replaced this one while it waited: skip it.
        guard state.withLockedValue({ $0.decoding == key }), let renderer else { return }
        do {
            if decoder?.itemID != item.id {
                guard let source = try PlayableMovie.source(for: item) else { return }
                decoder = (item.id, try MovieDecoder(source: source, threadCount: 1))
            }
            guard let movie = decoder?.decoder else { return }
            let box = PlaybackGeometry.pixelBox(columns: key.columns, rows: key.rows, mode: renderer.mode, cell: pixels?.cellPixelSize)
            guard let frame = try movie.frame(at: key.time, fitting: box) else {
                post(.studio(.failed(itemID: item.id, .noFrame(seconds: key.time))))
                return
            }
            var picture = frame.pixels
            if renderer.mode.isPixelProtocol {
                // Exactly the cells' pixels, as thumbnails and playback frames are, so it replaces the still in place.
                picture = picture.sizedForCells(columns: key.columns, rows: key.rows, cell: renderer.cellPixelSize, badge: nil)
            }
            let image = try renderer.render(picture, maxColumns: key.columns, maxRows: key.rows)
            let current = state.withLockedValue { frames -> Bool in
                guard frames.decoding == key else { return false }
                frames.serial += 1
                frames.shown = (key, image, frames.serial)
                frames.decoding = nil
                return true
            }
            // Posting wakes the loop, which redraws with the new frame.
            if current { post(.studio(.frameShown(itemID: item.id, time: key.time))) }
        } catch {
            state.withLockedValue { frames in
                if frames.decoding == key { frames.decoding = nil }
                frames.failed = key
            }
            post(.studio(.failed(itemID: item.id, .frameUndecodable(seconds: key.time, cause: ErrorCause.of(error)))))
        }
    }

    // MARK: - on `writeQueue`

    private func write(_ item: LibraryItem, seconds: Double, directory: String) {
        guard let still = item.still?.path else { return }
        do {
            let written = try StudioEditor(item: still, outputDirectory: directory, request: .keyPhoto(at: seconds)).write()
            post(.studio(.written(itemID: item.id, paths: written.paths)))
        } catch {
            post(.studio(.failed(itemID: item.id, .notWritten(cause: ErrorCause.of(error)))))
        }
    }
}
