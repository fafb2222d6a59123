import BrowserCore
import Concurrent
import Foundation
import Imaging
import LivePairing
import LiveStudio
import MediaFormats
import TerminalGraphics
import TerminalProtocol
import VideoPlayback

/// The export dialog's effect previews (issue 20: "preview the entire contents before deciding to share"):
/// the effect is rendered with the CLI's renderer into a temporary file outside the library (the system's
/// temporary directory, removed when the preview stops), then played in a loop (loop, bounce, GIF) or shown
/// (long exposure) with its chafa renderer, the movie through the one `MoviePlayer` (looping, silent: the
/// exports have no sound) and a `TerminalVideoSink`. Nothing reaches the destination
/// before Enter; then `export` writes through `StudioExport` (`livegrid export --as`).
final class EffectPreviewer: Sendable {
    private let renderQueue = DispatchQueue(label: "livegrid.effect-preview")
    private let writeQueue = DispatchQueue(label: "livegrid.effect-export")
    /// The chafa renderer (C state, one caller at a time) and what the previews need of it without the lock.
    private let renderer: Locked<ChafaRenderer>?
    private let rendererMode: GraphicsMode
    private let rendererCell: PixelSizeInCells?
    private let pixels: PixelOutput?
    private let post: @Sendable (BrowserAction) -> Void
    private let wake: @Sendable () -> Void
    /// The previews' playback clock (a test moves a manual one).
    private let clock: any PlaybackClock

    private struct PreviewState {
        /// Bumped by every new preview and by stop: older renders and players end at their next check.
        var generation = 0
        var area = (columns: 60, rows: 20)
        var latest: (image: RenderedImage, serial: Int, columns: Int, rows: Int)?
        /// A long exposure's picture, rendered again when the area changes.
        var still: PixelFrame?
        var serial = 0
        var hasNewFrame = false
        var temporaryFile: String?
        /// The player of the current loop or bounce preview (stopped by the next preview and by stop).
        var player: MoviePlayer?
    }
    private let state = Locked(PreviewState())

    init(renderer: sending ChafaRenderer?, pixels: PixelOutput?, post: @escaping @Sendable (BrowserAction) -> Void,
         wake: @escaping @Sendable () -> Void, clock: any PlaybackClock = SystemPlaybackClock()) {
        rendererMode = renderer?.mode ?? .symbols
        rendererCell = renderer?.cellPixelSize
        if let renderer { self.renderer = Locked(renderer) } else { self.renderer = nil }
        self.pixels = pixels
        self.post = post
        self.wake = wake
        self.clock = clock
    }

    func preview(_ item: LibraryItem, _ effect: SharingEffect) {
        let token = restart()
        renderQueue.async { [self] in render(item, effect, token: token) }
    }

    func stop() { _ = restart() }

    /// The picture for a preview area of `columns` x `rows`: the latest frame; a new size re-renders the
    /// next frame (a still at once).
    func picture(columns: Int, rows: Int) -> (image: RenderedImage, serial: Int)? {
        let (current, stillFrame, resized, token): ((image: RenderedImage, serial: Int, columns: Int, rows: Int)?, PixelFrame?, MoviePlayer?, Int) = state.withLockedValue { preview in
            let sizeChanged = preview.area.columns != columns || preview.area.rows != rows
            preview.area = (columns, rows)
            return (preview.latest, sizeChanged ? preview.still : nil, sizeChanged ? preview.player : nil, preview.generation)
        }
        if let stillFrame { renderQueue.async { [self] in present(stillFrame, token: token) } }
        // The next frames decode at the new size (the ones already decoded are fitted by the renderer).
        resized?.setTargetSize(box())
        guard let current else { return nil }
        return (current.image, current.serial)
    }

    func takeNewFrame() -> Bool {
        state.withLockedValue { preview in
            defer { preview.hasNewFrame = false }
            return preview.hasNewFrame
        }
    }

    func export(_ items: [LibraryItem], effects: [SharingEffect], destination: String) {
        writeQueue.async { [self] in
            var written: [String] = [], failures: [String] = []
            for (item, effect) in zip(items, effects) {
                do {
                    let lines = try StudioExport(destination: destination, effect: Self.studioEffect(effect)).export(item)
                    if let path = lines.first { written.append((path as NSString).lastPathComponent) }
                } catch {
                    failures.append("\(item.displayName): \(ErrorCause.of(error))")
                }
            }
            var text = written.isEmpty ? "no effect written" : "Exported \(written.joined(separator: ", ")) to \(destination)"
            if let first = failures.first { text += " · \(failures.count) failed: \(first)" }
            post(.studio(.effectsExported(message: text)))
        }
    }

    // MARK: - private

    /// A new generation: the player of the previous one stops at its next frame, its file is removed.
    private func restart() -> Int {
        let (old, player, token): (String?, MoviePlayer?, Int) = state.withLockedValue { preview in
            preview.generation += 1
            preview.latest = nil
            preview.still = nil
            defer { preview.temporaryFile = nil; preview.player = nil }
            return (preview.temporaryFile, preview.player, preview.generation)
        }
        player?.stop()
        if let old {
            try? FileManager.default.removeItem(atPath: old)   // try?: a stale temporary preview; a leftover costs only temporary space
            // The per-process folder goes too once empty (rmdir leaves it while another preview renders).
            _ = rmdir((old as NSString).deletingLastPathComponent)
        }
        return token
    }

    private func isCurrent(_ token: Int) -> Bool { state.withLockedValue { $0.generation == token } }

    private func render(_ item: LibraryItem, _ effect: SharingEffect, token: Int) {
        guard isCurrent(token) else { return }
        do {
            guard let movie = try PlayableMovie.source(for: item) else { throw StudioWriting.Failure("no movie") }
            if effect == .longExposure {
                let exposure = try StudioRenderer.longExposure(source: movie)
                let frame = Self.pixelFrame(exposure.image)
                state.withLockedValue { if $0.generation == token { $0.still = frame } }
                present(frame, token: token)
            } else {
                let path = try Self.temporaryPath(effect, token: token)
                state.withLockedValue { if $0.generation == token { $0.temporaryFile = path } }
                switch effect {
                case .gif: _ = try StudioRenderer.renderGIF(source: movie, to: path, maxBytes: StudioExport.defaultGIFBytes)
                default: _ = try StudioRenderer.renderMovieEffect(Self.studioEffect(effect), source: movie, to: path)
                }
                // try?: a preview no longer wanted; a leftover temporary costs only temporary space.
                guard isCurrent(token) else { try? FileManager.default.removeItem(atPath: path); return }
                try play(path, token: token)
            }
            if isCurrent(token) { post(.studio(.effectPreviewReady(itemID: item.id, effect: effect))) }
        } catch {
            if isCurrent(token) { post(.studio(.effectPreviewFailed(itemID: item.id, effect: effect, .effectNotRendered(cause: ErrorCause.of(error))))) }
        }
    }

    /// Plays the rendered file over and over at its own pace until the next preview or stop. A decoding
    /// failure simply ends the preview; the export itself reports its own errors.
    private func play(_ path: String, token: Int) throws {
        let video = TerminalVideoSink(render: { [weak self] frame in self?.render(frame.pixels)?.image },
                                      target: PreviewTarget(previewer: self, token: token))
        let player = MoviePlayer(source: try FileByteSource(path: path),
                                 options: PlaybackOptions(targetSize: box(), decoderThreads: 1, loops: true),
                                 clock: clock, video: video)
        let isCurrent: Bool = state.withLockedValue { preview in
            guard preview.generation == token else { return false }
            preview.player = player
            return true
        }
        if isCurrent { player.start() }
    }

    /// Where a preview's frames go: the newest is kept for the event loop while its preview is current.
    private struct PreviewTarget: RenderedFrameTarget {
        weak var previewer: EffectPreviewer?
        let token: Int
        func show(_ image: RenderedImage) { previewer?.store(image, token: token) }
    }

    private func box() -> PixelSize {
        let (columns, rows) = state.withLockedValue { $0.area }
        return PlaybackGeometry.pixelBox(columns: columns, rows: rows, mode: rendererMode, cell: pixels?.cellPixelSize)
    }

    /// Renders one frame for the current area and keeps it (a long exposure's still, on `renderQueue`).
    private func present(_ frame: PixelFrame, token: Int) {
        guard let image = render(frame)?.image else { return }
        store(image, token: token)
    }

    /// One frame rendered for the current area (the renderer is locked: the player's presenter thread and
    /// `renderQueue` may both render).
    private func render(_ frame: PixelFrame) -> (image: RenderedImage, columns: Int, rows: Int)? {
        guard let renderer else { return nil }
        let (columns, rows) = state.withLockedValue { $0.area }
        var picture = frame
        if rendererMode.isPixelProtocol {
            picture = picture.sizedForCells(columns: columns, rows: rows, cell: rendererCell, badge: nil)
        }
        // try?: a frame chafa cannot render is skipped; the next one (or the next pass of the loop) replaces it.
        guard let image = try? renderer.withLockedValue({ [picture] in try $0.render(picture, maxColumns: columns, maxRows: rows) }) else { return nil }
        return (image, columns, rows)
    }

    /// Keeps `image` as the preview's picture if its preview is still current, and wakes the loop.
    private func store(_ image: RenderedImage, token: Int) {
        let fresh = state.withLockedValue { preview -> Bool in
            guard preview.generation == token else { return false }
            preview.serial += 1
            preview.latest = (image, preview.serial, image.columns, image.rows)
            preview.hasNewFrame = true
            return true
        }
        if fresh { wake() }
    }

    private static func temporaryPath(_ effect: SharingEffect, token: Int) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-preview-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("preview-\(token).\(studioEffect(effect).fileExtension)").path
    }

    static func studioEffect(_ effect: SharingEffect) -> StudioEffect {
        switch effect {
        case .loop: return .loop
        case .bounce: return .bounce
        case .gif: return .gif
        case .longExposure: return .longExposure
        }
    }

    /// RGB to the RGBA the renderers take.
    static func pixelFrame(_ image: RGBImage) -> PixelFrame {
        var rgba = [UInt8](repeating: 255, count: image.width * image.height * 4)
        var source = 0, target = 0
        while source + 2 < image.rgb.count, target + 3 < rgba.count {
            rgba[target] = image.rgb[source]
            rgba[target + 1] = image.rgb[source + 1]
            rgba[target + 2] = image.rgb[source + 2]
            source += 3
            target += 4
        }
        return PixelFrame(width: image.width, height: image.height, rgba: rgba)
    }
}
