import BrowserCore
import GraphicsSettings
import LivePairing
import TerminalGraphics

/// Puts the item-kind mark in one corner of a picture: the LIVE badge on Live and Motion Photos, the VIDEO
/// mark on videos, nothing on stills. Every cell uses the same corner, so the eye learns where to look.
/// The marks themselves (glyphs, words, colours) are TerminalGraphics' `LiveBadge`.
public struct BadgePainter: Sendable {
    public var corner: BadgeCorner
    public var style: LiveBadge.Style

    public init(corner: BadgeCorner, style: LiveBadge.Style) {
        self.corner = corner
        self.style = style
    }

    public func badge(for kind: ItemKind) -> LiveBadge? {
        switch kind {
        case .live, .motion: return LiveBadge(.live, style: style, corner: corner)
        case .video: return LiveBadge(.video, style: style, corner: corner)
        case .still: return nil
        }
    }

    /// The badge as text no wider than `width` columns (for placeholders and the list layout).
    public func label(for kind: ItemKind, fitting width: Int) -> String? {
        badge(for: kind).map { String(String.UnicodeScalarView($0.text(fitting: width))) }
    }

    /// The picture with its badge composited into its corner cells.
    public func badged(_ picture: RenderedImage, kind: ItemKind) -> RenderedImage {
        guard let badge = badge(for: kind) else { return picture }
        return picture.compositing(badge)
    }
}
