import BrowserCore
import LivePairing
import TerminalGraphics

extension BadgePainter {
    /// The badge for an item, LIVE OFF (struck-through circles) when it must show as a traditional still.
    public func badge(for item: LibraryItem, liveOff: Bool) -> LiveBadge? {
        liveOff ? LiveBadge(.liveOff, style: style, corner: corner) : badge(for: item.kind)
    }

    public func badged(_ picture: RenderedImage, item: LibraryItem, liveOff: Bool) -> RenderedImage {
        guard let badge = badge(for: item, liveOff: liveOff) else { return picture }
        return picture.compositing(badge)
    }

    /// The badge as text no wider than `width` columns (the list layout).
    public func label(for item: LibraryItem, liveOff: Bool, fitting width: Int) -> String? {
        badge(for: item, liveOff: liveOff).map { String(String.UnicodeScalarView($0.text(fitting: width))) }
    }
}
