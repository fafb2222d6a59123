import BrowserCore
import BrowserRuntime
import CNCurses
import LivePairing
import TerminalGraphics

/// The badge drawn with curses on a cell that has no picture yet (the picture-side badge is BrowserRuntime's
/// `BadgePainter`).
extension BadgePainter {
    /// The badge on a placeholder: a solid label in the same corner of the picture area.
    func drawOnPlaceholder(kind: ItemKind, in rect: CellRect, painter: ScreenPainter) {
        guard rect.height >= 1, let text = label(for: kind, fitting: rect.width) else { return }
        let width = DisplayWidth.of(text)
        let x = (corner == .topLeft || corner == .bottomLeft) ? rect.x : rect.x + rect.width - width
        let y = (corner == .topLeft || corner == .topRight) ? rect.y : rect.y + rect.height - 1
        painter.text(text, x: x, y: y, width: width, attributes: lg_a_bold(),
                     color: kind == .video ? .badgeVideo : .badgeLive)
    }

    /// The badge on a placeholder, in the same corner.
    func drawOnPlaceholder(item: LibraryItem, liveOff: Bool, in rect: CellRect, painter: ScreenPainter) {
        guard liveOff else { return drawOnPlaceholder(kind: item.kind, in: rect, painter: painter) }
        guard rect.height >= 1, let text = label(for: item, liveOff: true, fitting: rect.width) else { return }
        let width = DisplayWidth.of(text)
        let x = (corner == .topLeft || corner == .bottomLeft) ? rect.x : rect.x + rect.width - width
        let y = (corner == .topLeft || corner == .topRight) ? rect.y : rect.y + rect.height - 1
        painter.text(text, x: x, y: y, width: width, attributes: lg_a_bold(), color: .badgeLive)
    }
}
