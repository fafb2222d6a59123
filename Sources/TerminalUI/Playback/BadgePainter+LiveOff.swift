import BrowserCore
import CNCurses
import LivePairing
import TerminalGraphics

extension BadgePainter {
    /// The badge for an item, LIVE OFF (struck-through circles) when it must show as a traditional still.
    func badge(for item: LibraryItem, liveOff: Bool) -> LiveBadge? {
        liveOff ? LiveBadge(.liveOff, style: style, corner: corner) : badge(for: item.kind)
    }

    func badged(_ picture: RenderedImage, item: LibraryItem, liveOff: Bool) -> RenderedImage {
        guard let badge = badge(for: item, liveOff: liveOff) else { return picture }
        return picture.compositing(badge)
    }

    /// The badge as text no wider than `width` columns (the list layout).
    func label(for item: LibraryItem, liveOff: Bool, fitting width: Int) -> String? {
        badge(for: item, liveOff: liveOff).map { String(String.UnicodeScalarView($0.text(fitting: width))) }
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
