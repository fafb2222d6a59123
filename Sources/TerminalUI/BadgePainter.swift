import BrowserCore
import CNCurses
import LivePairing
import TerminalGraphics

/// Puts the item-kind mark in one corner of a picture: the LIVE badge on Live and Motion Photos, the VIDEO
/// mark on videos, nothing on stills. Every cell uses the same corner, so the eye learns where to look.
/// The marks themselves (glyphs, words, colours) are TerminalGraphics' `LiveBadge`.
struct BadgePainter {
    var corner: BadgeCorner
    var style: LiveBadge.Style

    init(corner: BadgeCorner, style: LiveBadge.Style) {
        self.corner = corner
        self.style = style
    }

    func badge(for kind: ItemKind) -> LiveBadge? {
        switch kind {
        case .live, .motion: return LiveBadge(.live, style: style, corner: corner)
        case .video: return LiveBadge(.video, style: style, corner: corner)
        case .still: return nil
        }
    }

    /// The badge as text no wider than `width` columns (for placeholders and the list layout).
    func label(for kind: ItemKind, fitting width: Int) -> String? {
        badge(for: kind).map { String(String.UnicodeScalarView($0.text(fitting: width))) }
    }

    /// The picture with its badge composited into its corner cells.
    func badged(_ picture: RenderedImage, kind: ItemKind) -> RenderedImage {
        guard let badge = badge(for: kind) else { return picture }
        return picture.compositing(badge)
    }

    /// The badge on a placeholder: a solid label in the same corner of the picture area.
    func drawOnPlaceholder(kind: ItemKind, in rect: CellRect, painter: ScreenPainter) {
        guard rect.height >= 1, let text = label(for: kind, fitting: rect.width) else { return }
        let width = DisplayWidth.of(text)
        let x = (corner == .topLeft || corner == .bottomLeft) ? rect.x : rect.x + rect.width - width
        let y = (corner == .topLeft || corner == .topRight) ? rect.y : rect.y + rect.height - 1
        painter.text(text, x: x, y: y, width: width, attributes: lg_a_bold(),
                     color: kind == .video ? .badgeVideo : .badgeLive)
    }
}
