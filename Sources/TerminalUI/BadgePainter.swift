import BrowserCore
import CNCurses
import LivePairing

/// Draws the item-kind mark in one corner of a picture: the LIVE badge on Live and Motion Photos, a play
/// mark on videos, nothing on stills. Every cell uses the same corner, so the eye learns where to look.
struct BadgePainter {
    var corner: BadgeCornerSetting
    var style: BadgeStyleSetting

    static let liveLabel = "◎ LIVE"
    static let narrowLiveLabel = "LIVE"
    static let videoLabel = "▶"

    /// The label for an item, fitted to a picture `width` columns wide; nil = no mark (stills).
    static func label(for kind: ItemKind, width: Int) -> String? {
        switch kind {
        case .live, .motion:
            if width >= DisplayWidth.of(liveLabel) + 2 { return " \(liveLabel) " }
            return width >= 4 ? narrowLiveLabel : nil
        case .video:
            return width >= 3 ? " \(videoLabel) " : nil
        case .still:
            return nil
        }
    }

    func draw(kind: ItemKind, in rect: CellRect, picture: CellPicture?, painter: ScreenPainter) {
        guard rect.height >= 1, let label = Self.label(for: kind, width: rect.width) else { return }
        let width = DisplayWidth.of(label)
        let x = (corner == .topLeft || corner == .bottomLeft) ? rect.x : rect.x + rect.width - width
        let y = (corner == .topLeft || corner == .topRight) ? rect.y : rect.y + rect.height - 1
        let color: UIColor = kind == .video ? .badgeVideo : .badgeLive
        switch style {
        case .solid:
            painter.text(label, x: x, y: y, width: width, attributes: lg_a_bold(), color: color)
        case .overlay:
            // Bold text over the picture's own background colour: the picture stays visible around the letters.
            if let picture {
                let offsetX = max(0, (rect.width - picture.width) / 2), offsetY = max(0, (rect.height - picture.height) / 2)
                for (index, scalar) in label.unicodeScalars.enumerated() {
                    let background = picture.cell(x: x - rect.x - offsetX + index, y: y - rect.y - offsetY)?.background
                        ?? RGB(0, 0, 0)
                    let pair = painter.colors.pair(foreground: RGB(255, 255, 255), background: background)
                    lg_put_cell(painter.window, Int32(y), Int32(x + index), wchar_t(bitPattern: scalar.value),
                                lg_a_bold(), pair)
                }
            } else {
                painter.text(label, x: x, y: y, width: width, attributes: lg_a_bold() | lg_a_reverse())
            }
        }
    }
}
