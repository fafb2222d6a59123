import BrowserCore
import BrowserRuntime
import TerminalGraphics
import TerminalProtocol

/// Sixel pictures (xterm -ti vt340, foot, mlterm, WezTerm...): pixels in the cells, placed and erased by
/// `CellPixelPictures`. Through tmux, a sixel above tmux's passthrough limit is sent as stacked pieces.
final class SixelOutput: PictureOutput {
    let showsTextOverPictures = false
    let letsCursesMoveText = false
    private let pictures: CellPixelPictures
    /// Pixel rows per cell (a sixel too big for tmux is split at cell rows).
    private let cellHeight: Int

    init(tmux: TmuxPassthroughTarget?, cellHeight: Int?, screen: any PictureScreen, terminal: TerminalBytes) {
        pictures = CellPixelPictures(tmux: tmux, screen: screen, terminal: terminal)
        self.cellHeight = cellHeight ?? CellGeometry.defaultCellPixelSize.height
    }

    func show(_ picture: RenderedImage, key: ThumbnailKey, in box: CellRect, painter: ScreenPainter) -> CellRect {
        pictures.show(picture, key: key, in: box)
    }

    func beforeUpdate(overlays: [CellRect], screen: TerminalSize) {
        pictures.beforeUpdate(overlays: overlays, screen: screen)
    }

    func afterUpdate() {
        pictures.afterUpdate { [cellHeight] picture, tmux in
            let bytes = picture.image.bytes
            guard let tmux else { return PixelSequences.positioned(bytes, row: picture.rect.y, column: picture.rect.x) }
            let pieces = SixelBands.split(bytes, cellHeight: cellHeight, maxBytes: TmuxPassthrough.sequenceLimit - 4_096)
            return pieces.flatMap { piece in
                PixelSequences.positionedThroughTmux(piece.bytes, row: picture.rect.y + piece.rowOffset,
                                                     column: picture.rect.x, target: tmux)
            }
        }
    }

    func redrawAfterClear(size: TerminalSize) { pictures.redrawAfterClear() }
    func tmuxRedrew(target: TmuxPassthroughTarget) { pictures.tmuxRedrew(target: target) }
    func removeAll() {}
}
