import BrowserCore
import BrowserRuntime
import CNCurses
import TerminalGraphics
import TerminalProtocol

/// Symbol pictures: coloured block characters in the cells. Written straight to the terminal by
/// `DirectCellOutput` (curses keeping the text), or through curses itself when there is no direct output
/// (no colours, LIVEGRID_CURSES_PICTURES=1, or a memory surface in the tests).
final class SymbolCellsOutput: PictureOutput {
    let showsTextOverPictures = true
    var letsCursesMoveText: Bool { direct == nil }
    private let direct: DirectCellOutput?
    private let window: UnsafeMutablePointer<WINDOW>?

    init(direct: DirectCellOutput?, window: UnsafeMutablePointer<WINDOW>?) {
        self.direct = direct
        self.window = window
    }

    func show(_ picture: RenderedImage, key: ThumbnailKey, in box: CellRect, painter: ScreenPainter) -> CellRect {
        painter.picture(picture, in: box)
        return ScreenPainter.placement(of: picture, in: box)
    }

    func beforeUpdate(overlays: [CellRect], screen: TerminalSize) {
        if let direct, let window { direct.prepare(window: window, size: screen) }
    }

    func afterUpdate() { direct?.write() }

    func redrawAfterClear(size: TerminalSize) { direct?.screenCleared(size: size) }

    func tmuxRedrew(target: TmuxPassthroughTarget) {}

    func removeAll() {}
}
