import BrowserCore
import BrowserRuntime
import TerminalGraphics
import TerminalProtocol

/// iTerm2's inline images (`OSC 1337 ; File=`; iTerm2, WezTerm, Konsole, mlterm): pixels in the cells like
/// sixel, placed and erased by `CellPixelPictures`; the payload is a compressed file (JPEG or PNG).
final class ITermOutput: PictureOutput {
    let showsTextOverPictures = false
    let letsCursesMoveText = false
    private let pictures: CellPixelPictures

    init(tmux: TmuxPassthroughTarget?, screen: any PictureScreen, terminal: TerminalBytes) {
        pictures = CellPixelPictures(tmux: tmux, screen: screen, terminal: terminal)
    }

    func show(_ picture: RenderedImage, key: ThumbnailKey, in box: CellRect, painter: ScreenPainter) -> CellRect {
        pictures.show(picture, key: key, in: box)
    }

    func beforeUpdate(overlays: [CellRect], screen: TerminalSize) {
        pictures.beforeUpdate(overlays: overlays, screen: screen)
    }

    func afterUpdate() {
        pictures.afterUpdate { picture, tmux in
            let bytes = picture.image.bytes
            guard let tmux else { return PixelSequences.positioned(bytes, row: picture.rect.y, column: picture.rect.x) }
            return PixelSequences.positionedThroughTmux(bytes, row: picture.rect.y, column: picture.rect.x, target: tmux)
        }
    }

    func redrawAfterClear(size: TerminalSize) { pictures.redrawAfterClear() }
    func tmuxRedrew(target: TmuxPassthroughTarget) { pictures.tmuxRedrew(target: target) }
    func removeAll() {}
}
