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

    /// The badge on a placeholder, in the same corner.
    func drawOnPlaceholder(item: LibraryItem, liveOff: Bool, in rect: CellRect, painter: ScreenPainter) {
        guard liveOff else { return drawOnPlaceholder(kind: item.kind, in: rect, painter: painter) }
        guard rect.height >= 1, let badge = badge(for: item, liveOff: true) else { return }
        let text = String(String.UnicodeScalarView(badge.text(fitting: rect.width)))
        let width = DisplayWidth.of(text)
        let x = (corner == .topLeft || corner == .bottomLeft) ? rect.x : rect.x + rect.width - width
        let y = (corner == .topLeft || corner == .topRight) ? rect.y : rect.y + rect.height - 1
        painter.text(text, x: x, y: y, width: width, attributes: lg_a_bold(), color: .badgeLive)
    }
}
