import BrowserCore
import BrowserRuntime
import TerminalGraphics
import TerminalProtocol

/// What sixel and iTerm2 share: their pictures are pixels in the cells, which text written over them erases.
/// Each picture's cells hold markers (see `PictureScreen`), so curses writes only the cells that really
/// change and every picture is sent once: again only when curses writes its cells, it moves, or the screen
/// was cleared. The two outputs differ in how a payload reaches the terminal (`payload`).
final class CellPixelPictures {
    /// Inside tmux: passthrough depth and the pane's origin on the outer terminal (moves with the pane).
    var tmux: TmuxPassthroughTarget?
    private let screen: any PictureScreen
    private let terminal: TerminalBytes
    private var ledger = ImagePlacementLedger<ThumbnailKey>(erasure: .repaintCells)
    private var frame: [PixelPicture] = []
    private var pending: [PixelPicture] = []

    init(tmux: TmuxPassthroughTarget?, screen: any PictureScreen, terminal: TerminalBytes) {
        self.tmux = tmux
        self.screen = screen
        self.terminal = terminal
    }

    func show(_ picture: RenderedImage, key: ThumbnailKey, in box: CellRect) -> CellRect {
        let rect = ScreenPainter.placement(of: picture, in: box)
        frame.append(PixelPicture(key: key, rect: rect, image: picture))
        return rect
    }

    func beforeUpdate(overlays: [CellRect], screen size: TerminalSize) {
        let pictures = frame
        frame.removeAll(keepingCapacity: true)
        let wanted = pictures.map { ImagePlacement(key: $0.key, rect: $0.rect) }
        if ledger.replacesPictures(wanted, isReplaceable: { $0.movieFrame != nil }) {
            // The grid scrolled: curses must not scroll the region (the pixels would move with it, see
            // ImagePlacementLedger.replacesPictures). Forgetting every line costs one text repaint.
            screen.forgetAllLines()
        }
        let visible = ImagePlacementLedger<ThumbnailKey>.visible(wanted, overlays: overlays, screen: size)
        let placedBefore = Set(ledger.placed)
        for placement in visible {
            screen.reserve(placement.rect)
            guard !placedBefore.contains(placement) else { continue }
            // A new picture's cells that curses believes blank or holding pixels already need no text: the
            // picture covers them. Text there (a placeholder) is replaced by markers, which look blank.
            for y in placement.rect.rowRange {
                for x in placement.rect.x..<(placement.rect.x + placement.rect.width) where screen.shown(x: x, y: y) != .text {
                    screen.markShown(x: x, y: y)
                }
            }
        }
        let changed = screen.changedColumns(rows: Set(visible.flatMap { $0.rect.rowRange }))
        let plan = ledger.plan(wanted: wanted, overlays: overlays, screen: size,
                               overwritten: { CursesRowChanges.overwrites($0, changed: changed) })
        if let tmux {
            // Through tmux curses' writes do not reach the pixels (see `eraseThroughTmux`): erase them
            // directly, except where a new picture covers exactly the same cells.
            let drawnRects = Set(plan.draw.map(\.rect))
            let gone = plan.erase.map(\.rect).filter { !drawnRects.contains($0) }
            terminal.send(PixelSequences.eraseThroughTmux(gone, target: tmux))
        }
        screen.commit()
        let drawn = Set(plan.draw)
        pending = pictures.filter { drawn.contains(ImagePlacement(key: $0.key, rect: $0.rect)) }
    }

    /// After the update: each picture to draw, through `payload` (the protocol's bytes of one picture,
    /// positioned and wrapped), one write each, in screen order, as far as the pacing lets them go (issue 28.4);
    /// the rest are withdrawn from the ledger (their cells hold blank markers) and drawn by a later turn that
    /// still shows them.
    func afterUpdate(payload: (PixelPicture, TmuxPassthroughTarget?) -> [UInt8]) {
        let pictures = pending
        pending = []
        var turn = terminal.beginPictures()
        for (index, picture) in pictures.enumerated() {
            let bytes = payload(picture, tmux)
            guard turn.admits(bytes.count) else {
                ledger.withdraw(pictures[index...].map { ImagePlacement(key: $0.key, rect: $0.rect) })
                break
            }
            terminal.send(bytes)
        }
        turn.finish()
    }

    func redrawAfterClear() { ledger.screenCleared() }

    func tmuxRedrew(target: TmuxPassthroughTarget) {
        tmux = target
        ledger.screenCleared()
    }
}
