import BrowserCore
import BrowserRuntime
import TerminalGraphics
import TerminalProtocol

/// kitty's graphics protocol: images on their own layer, transmitted once under an id and placed again by
/// id wherever they move (`KittyImageStore`), deleted by id when they go. Curses' text never touches them.
final class KittyOutput: PictureOutput {
    let showsTextOverPictures = false
    let letsCursesMoveText = false
    /// A playing movie's frames all go to this one image id, each replacing the last (frames are never
    /// placed twice, and must not push the thumbnails' ids out of `ids`).
    static let movieImageID: UInt32 = 0xFFFF_FF00

    /// Inside tmux: passthrough depth and the pane's origin on the outer terminal (moves with the pane).
    private var tmux: TmuxPassthroughTarget?
    private let terminal: TerminalBytes
    private var ledger = ImagePlacementLedger<ThumbnailKey>(erasure: .deleteByID)
    private var ids = KittyImageStore<ThumbnailKey>()
    private var needsDeleteAll = false
    private var frame: [PixelPicture] = []
    private var pending: (plan: ImagePlacementPlan<ThumbnailKey>, images: [ThumbnailKey: RenderedImage])?

    init(tmux: TmuxPassthroughTarget?, terminal: TerminalBytes) {
        self.tmux = tmux
        self.terminal = terminal
    }

    func show(_ picture: RenderedImage, key: ThumbnailKey, in box: CellRect, painter: ScreenPainter) -> CellRect {
        let rect = ScreenPainter.placement(of: picture, in: box)
        frame.append(PixelPicture(key: key, rect: rect, image: picture))
        return rect
    }

    func beforeUpdate(overlays: [CellRect], screen: TerminalSize) {
        let pictures = frame
        frame.removeAll(keepingCapacity: true)
        let plan = ledger.plan(wanted: pictures.map { ImagePlacement(key: $0.key, rect: $0.rect) }, overlays: overlays,
                               screen: screen)
        var images: [ThumbnailKey: RenderedImage] = [:]
        let drawn = Set(plan.draw.map(\.key))
        for picture in pictures where drawn.contains(picture.key) { images[picture.key] = picture.image }
        pending = (plan, images)
    }

    func afterUpdate() {
        guard let (plan, images) = pending else { return }
        pending = nil
        var out: [UInt8] = []
        if needsDeleteAll { out += wrap(PixelSequences.kittyDeleteAll) }
        needsDeleteAll = false
        let redrawn = Set(plan.draw.map(\.key))
        let movieDrawn = plan.draw.contains { $0.key.movieFrame != nil }
        // A picture that only moved is replaced by placing it again under the same ids.
        for placement in plan.erase where !redrawn.contains(placement.key) {
            if placement.key.movieFrame != nil {
                // The next frame replaces the image; only when the movie stops does it go.
                if !movieDrawn { out += wrap(PixelSequences.kittyFree(id: Self.movieImageID)) }
            } else if let id = ids.existing(placement.key) {
                out += wrap(PixelSequences.kittyDelete(id: id))
            }
        }
        terminal.send(out)
        // Each picture is one write, in screen order, as far as the pacing lets them go (issue 28.4); the rest
        // are withdrawn from the ledger and drawn by a later turn that still shows them.
        let onScreen = Set(ledger.placed.map(\.key))
        var turn = terminal.beginPictures()
        for (index, placement) in plan.draw.enumerated() {
            guard let image = images[placement.key] else { continue }
            // A picture the terminal holds is placed by id (a few dozen bytes): the budget counts what is sent.
            let isStored = placement.key.movieFrame == nil && ids.existing(placement.key) != nil
            guard turn.admits(isStored ? 64 : image.bytes.count) else {
                ledger.withdraw(Array(plan.draw[index...]))
                break
            }
            let bytes = payload(for: placement.key, image: image, onScreen: onScreen)
            if let tmux {
                // kitty chunks are split by `positionedThroughTmux` itself.
                terminal.send(PixelSequences.positionedThroughTmux(bytes, row: placement.rect.y,
                                                                   column: placement.rect.x, target: tmux))
            } else {
                terminal.send(PixelSequences.positioned(bytes, row: placement.rect.y, column: placement.rect.x))
            }
        }
        turn.finish()
    }

    /// The protocol bytes of one picture, unwrapped (the caller positions and wraps them).
    private func payload(for key: ThumbnailKey, image: RenderedImage, onScreen: Set<ThumbnailKey>) -> [UInt8] {
        if key.movieFrame != nil { return PixelSequences.kittyTransmit(image.bytes, id: Self.movieImageID) }
        let decision = ids.place(key, pixelBytes: image.kittyPixelBytes, onScreen: onScreen)
        var out: [UInt8] = []
        for freed in decision.free { out += PixelSequences.kittyFree(id: freed) }
        out += decision.transmit ? PixelSequences.kittyTransmit(image.bytes, id: decision.id)
            : PixelSequences.kittyPlace(id: decision.id)
        return out
    }

    private func wrap(_ bytes: [UInt8]) -> [UInt8] {
        tmux.map { PixelSequences.tmuxPassthrough(bytes, depth: $0.depth) } ?? bytes
    }

    func redrawAfterClear(size: TerminalSize) {
        ledger.screenCleared()
        needsDeleteAll = true
    }

    func tmuxRedrew(target: TmuxPassthroughTarget) {
        tmux = target
        ledger.screenCleared()
        needsDeleteAll = true
    }

    func removeAll() {
        terminal.send(wrap(PixelSequences.kittyDeleteAll))
    }
}

extension RenderedImage {
    /// What the terminal stores for a kitty picture: RGBA at its pixel size (a compressed payload's byte count
    /// says nothing about it), else estimated from chafa's raw payload.
    var kittyPixelBytes: Int {
        if let pixels = pixelSize { return pixels.width * pixels.height * 4 }
        return KittyImageStore<ThumbnailKey>.pixelBytes(ofPayload: bytes.count)
    }
}
