import BrowserCore
import BrowserRuntime
import CNCurses
import Foundation
import TerminalGraphics
import TerminalProtocol

/// A protocol picture the renderer wants on screen this frame.
struct PixelPicture {
    var key: ThumbnailKey
    /// The cells it covers (already centred in its cell).
    var rect: CellRect
    var image: RenderedImage
}

/// The one writer of protocol images (ARCHITECTURE.md example 8). Each frame: `prepare` before curses'
/// `doupdate` (asks curses to repaint rows whose sixels must go), then `write` after it (kitty deletes, then
/// every new picture with save-cursor / move / write / restore), so text and images never interleave.
final class TerminalImageWriter {
    let mode: GraphicsMode
    /// Inside tmux: passthrough depth and the pane's origin on the outer terminal (moves with the pane).
    var tmux: TmuxPassthroughTarget?
    private let fd: Int32
    private var ledger: ImagePlacementLedger<ThumbnailKey>
    private var pending: (plan: ImagePlacementPlan<ThumbnailKey>, images: [ThumbnailKey: RenderedImage])?
    /// kitty: one image id per picture, transmitted once and placed again by id when it moves.
    private var kittyIDs = KittyImageStore<ThumbnailKey>()
    private var needsDeleteAll = false
    /// kitty: a playing movie's frames all go to this one image id, each replacing the last (frames are
    /// never placed twice, and must not push the thumbnails' ids out of `kittyIDs`).
    static let movieImageID: UInt32 = 0xFFFF_FF00

    /// Pixel rows per cell (a sixel too big for tmux is split at cell rows).
    private let cellHeight: Int

    init(mode: GraphicsMode, tmux: TmuxPassthroughTarget?, cellHeight: Int? = nil, fd: Int32 = STDOUT_FILENO) {
        self.mode = mode
        self.tmux = tmux
        self.cellHeight = cellHeight ?? CellGeometry.defaultCellPixelSize.height
        self.fd = fd
        ledger = ImagePlacementLedger(erasure: mode == .kitty ? .deleteByID : .repaintCells)
    }

    /// Before `doupdate`: decides what to erase and draw; rows whose pixels must go are marked for repaint.
    func prepare(_ pictures: [PixelPicture], overlays: [CellRect], window: UnsafeMutablePointer<WINDOW>,
                 screen: TerminalSize) {
        let wanted = pictures.map { ImagePlacement(key: $0.key, rect: $0.rect) }
        var rewritten = ledger.erasure == .repaintCells
            ? CursesRowChanges.rows(ledger.occupiedRows, window: window, columns: screen.columns) : []
        let scrolled = ledger.replacesPictures(wanted, isReplaceable: { $0.movieFrame != nil })
        if scrolled {
            // The grid scrolled: curses must not scroll the region (the pixels would move with it, see
            // ImagePlacementLedger.replacesPictures). Forgetting every line costs one text repaint.
            for row in 0..<screen.rows { wredrawln(window, Int32(row), 1) }
            rewritten.formUnion(0..<screen.rows)
        }
        let plan = ledger.plan(wanted: wanted, overlays: overlays, screen: screen, rewrittenRows: rewritten)
        for row in plan.repaintRows {
            wredrawln(window, Int32(row), 1)
        }
        if let tmux, ledger.erasure == .repaintCells {
            // Through tmux a repaint does not reach the pixels (see `eraseThroughTmux`): erase them directly,
            // except where a new picture covers exactly the same cells.
            let drawnRects = Set(plan.draw.map(\.rect))
            let gone = plan.erase.map(\.rect).filter { !drawnRects.contains($0) }
            send(PixelSequences.eraseThroughTmux(gone, target: tmux))
        }
        if !plan.repaintRows.isEmpty || scrolled { wnoutrefresh(window) }
        var images: [ThumbnailKey: RenderedImage] = [:]
        for picture in pictures where plan.draw.contains(where: { $0.key == picture.key }) {
            images[picture.key] = picture.image
        }
        pending = (plan, images)
    }

    /// After `doupdate`: writes the erasures and pictures prepared for this frame.
    func write() {
        guard let (plan, images) = pending else { return }
        pending = nil
        var out: [UInt8] = []
        if mode == .kitty {
            if needsDeleteAll { out += wrap(PixelSequences.kittyDeleteAll) }
            let redrawn = Set(plan.draw.map(\.key))
            let movieDrawn = plan.draw.contains { $0.key.movieFrame != nil }
            // A picture that only moved is replaced by placing it again under the same ids.
            for placement in plan.erase where !redrawn.contains(placement.key) {
                if placement.key.movieFrame != nil {
                    // The next frame replaces the image; only when the movie stops does it go.
                    if !movieDrawn { out += wrap(PixelSequences.kittyFree(id: Self.movieImageID)) }
                } else if let id = kittyIDs.existing(placement.key) {
                    out += wrap(PixelSequences.kittyDelete(id: id))
                }
            }
        }
        needsDeleteAll = false
        let onScreen = Set(ledger.placed.map(\.key))
        for placement in plan.draw {
            guard let image = images[placement.key] else { continue }
            let bytes = payload(for: placement.key, image: image, onScreen: onScreen)
            if let tmux {
                // A sixel above tmux's passthrough limit is sent as stacked pieces (kitty chunks are split
                // by `positionedThroughTmux` itself).
                let pieces = mode == .sixels
                    ? SixelBands.split(bytes, cellHeight: cellHeight, maxBytes: TmuxPassthrough.sequenceLimit - 4_096)
                    : [SixelBands.Piece(rowOffset: 0, bytes: bytes)]
                for piece in pieces {
                    out += PixelSequences.positionedThroughTmux(piece.bytes, row: placement.rect.y + piece.rowOffset,
                                                                column: placement.rect.x, target: tmux)
                }
            } else {
                out += PixelSequences.positioned(bytes, row: placement.rect.y, column: placement.rect.x)
            }
        }
        send(out)
    }

    private func send(_ out: [UInt8]) {
        guard !out.isEmpty else { return }
        out.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 { offset += written } else if errno != EINTR && errno != EAGAIN { break }
            }
        }
    }

    /// The screen was cleared (resize, Ctrl-L): every picture is drawn again.
    func screenCleared() {
        ledger.screenCleared()
        if mode == .kitty { needsDeleteAll = true }
    }

    /// On exit: kitty images live on their own layer and would outlive the text.
    func removeAll() {
        guard mode == .kitty else { return }
        let bytes = wrap(PixelSequences.kittyDeleteAll)
        _ = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress!, $0.count) }
    }

    /// The protocol bytes of one picture, unwrapped (the caller positions and wraps them).
    private func payload(for key: ThumbnailKey, image: RenderedImage, onScreen: Set<ThumbnailKey>) -> [UInt8] {
        guard mode == .kitty else { return image.bytes }
        if key.movieFrame != nil { return PixelSequences.kittyTransmit(image.bytes, id: Self.movieImageID) }
        let decision = kittyIDs.place(key, pixelBytes: KittyImageStore<ThumbnailKey>.pixelBytes(ofPayload: image.bytes.count),
                                      onScreen: onScreen)
        var out: [UInt8] = []
        for freed in decision.free { out += PixelSequences.kittyFree(id: freed) }
        out += decision.transmit ? PixelSequences.kittyTransmit(image.bytes, id: decision.id) : PixelSequences.kittyPlace(id: decision.id)
        return out
    }

    private func wrap(_ bytes: [UInt8]) -> [UInt8] {
        tmux.map { PixelSequences.tmuxPassthrough(bytes, depth: $0.depth) } ?? bytes
    }

    /// tmux redrew the pane (window switch, re-attach) or moved it: its pixel pictures are gone (or in the
    /// wrong place) though curses' text is intact, so every picture is drawn again at the new origin.
    func tmuxRedrew(target: TmuxPassthroughTarget) {
        tmux = target
        ledger.screenCleared()
        if mode == .kitty { needsDeleteAll = true }
    }
}
