import GraphicsSettings
import Imaging
import TerminalProtocol

/// The mark on a picture that moves. Apple's Live icon is concentric circles, so the live marks use ◎ and
/// never anything like a play triangle (▶ means "video" to everyone and Live Photos are not videos).
/// Plain videos get a different mark, ▣ VIDEO (a framed square: a film frame), so the two never mix.
public struct LiveBadge: Sendable, Hashable {
    public enum Variant: String, Sendable, CaseIterable, Hashable {
        /// A Live Photo or Motion Photo with its motion on.
        case live
        /// A Live Photo shown as a traditional still (motion turned off): struck-through circles.
        case liveOff
        /// A plain video (not live): a distinct, non-live mark.
        case video
    }

    /// The words of config.toml's `[badge] style` (GraphicsSettings, so the config needs no renderer).
    public typealias Style = BadgeStyle

    public var variant: Variant
    public var style: Style
    public var corner: BadgeCorner

    public init(_ variant: Variant, style: Style = .overlay, corner: BadgeCorner = .topLeft) {
        self.variant = variant
        self.style = style
        self.corner = corner
    }

    /// The icon glyph of the text form.
    public var icon: Unicode.Scalar {
        // In a locale that is not UTF-8: the same badge in ASCII ("@ LIVE", "/ LIVE OFF", "# VIDEO").
        if TerminalTextEncoding.asciiOnly {
            switch variant {
            case .live: return "@"
            case .liveOff: return "/"
            case .video: return "#"
            }
        }
        switch variant {
        case .live: return "\u{25CE}"      // ◎ BULLSEYE: concentric circles
        case .liveOff: return "\u{2298}"   // ⊘ CIRCLED DIVISION SLASH: circles struck through
        case .video: return "\u{25A3}"     // ▣ WHITE SQUARE CONTAINING BLACK SMALL SQUARE
        }
    }

    public var label: String {
        switch variant {
        case .live: return "LIVE"
        case .liveOff: return "LIVE OFF"
        case .video: return "VIDEO"
        }
    }

    /// The text form, e.g. " ◎ LIVE " (one cell per scalar), or just the icon when `columns` is too narrow.
    public func text(fitting columns: Int) -> [Unicode.Scalar] {
        let full: [Unicode.Scalar] = [" ", icon, " "] + label.unicodeScalars + [" "]
        if full.count <= columns { return full }
        let compact: [Unicode.Scalar] = [" ", icon, " "]
        if compact.count <= columns { return compact }
        return columns >= 1 ? [icon] : []
    }

    // MARK: colours

    static let solidBackground = CellColor(r: 0xF2, g: 0xF2, b: 0xF2)
    static let solidForeground = CellColor(r: 0x1A, g: 0x1A, b: 0x1A)
    /// Overlay backing keeps a third of the picture's colour: a hint of the photo, always dark enough.
    static let overlayDarkening = 0.3
}

extension RenderedImage {
    /// This image with `badge`'s text form written into its cells (symbol mode; pixel modes draw the pixel
    /// form into the frame before encoding, see `PixelFrame.drawingBadge`).
    public func compositing(_ badge: LiveBadge) -> RenderedImage {
        guard mode == .symbols, cells.count == columns * rows, rows > 0 else { return self }
        var result = self
        let text = badge.text(fitting: columns)
        let row = badge.corner.isTop ? 0 : rows - 1
        let start = badge.corner.isLeft ? 0 : columns - text.count
        for (i, scalar) in text.enumerated() {
            let column = start + i
            guard let under = cell(column: column, row: row) else { continue }
            let cell: TerminalCell
            switch badge.style {
            case .overlay:
                cell = TerminalCell(character: scalar, foreground: .white,
                                    background: under.background.darkened(LiveBadge.overlayDarkening), bold: true)
            case .solid:
                cell = TerminalCell(character: scalar, foreground: LiveBadge.solidForeground,
                                    background: LiveBadge.solidBackground, bold: true)
            }
            result.setCell(cell, column: column, row: row)
        }
        return result
    }
}
