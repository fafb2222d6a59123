import Imaging

/// The pixel form of the badge, drawn into a frame before a pixel protocol (sixel/kitty/iTerm2) encodes it:
/// a procedurally drawn icon (concentric circles, struck circles, or a framed square) and the label in a
/// built-in 5x7 bitmap font, scaled with the picture.
extension PixelFrame {
    public func drawingBadge(_ badge: LiveBadge) -> PixelFrame {
        var canvas = BadgeCanvas(frame: self)
        canvas.draw(badge)
        return canvas.frame
    }
}

struct BadgeCanvas {
    var frame: PixelFrame

    mutating func draw(_ badge: LiveBadge) {
        let scale = max(1, min(frame.width, frame.height) / 180)
        let glyphW = 5 * scale, glyphH = 7 * scale, gap = scale
        let pad = 2 * scale, margin = 3 * scale
        let iconSize = glyphH
        let label = Array(badge.label.uppercased())
        let labelWidth = label.count * (glyphW + gap) - gap
        var boxW = pad + iconSize + 2 * gap + labelWidth + pad
        let boxH = pad + glyphH + pad
        var showLabel = true
        if boxW + 2 * margin > frame.width {
            showLabel = false
            boxW = pad + iconSize + pad
        }
        guard boxW + 2 * margin <= frame.width, boxH + 2 * margin <= frame.height else { return }
        let x0 = badge.corner.isLeft ? margin : frame.width - margin - boxW
        let y0 = badge.corner.isTop ? margin : frame.height - margin - boxH

        let ink: (UInt8, UInt8, UInt8)
        switch badge.style {
        case .overlay:
            fillRect(x: x0, y: y0, w: boxW, h: boxH, color: (0, 0, 0), alpha: 0.6)
            ink = (255, 255, 255)
        case .solid:
            fillRect(x: x0, y: y0, w: boxW, h: boxH, color: (0xF2, 0xF2, 0xF2), alpha: 1)
            ink = (0x1A, 0x1A, 0x1A)
        }
        drawIcon(badge.variant, x: x0 + pad, y: y0 + pad, size: iconSize, color: ink)
        guard showLabel else { return }
        var x = x0 + pad + iconSize + 2 * gap
        for ch in label {
            drawGlyph(ch, x: x, y: y0 + pad, scale: scale, color: ink)
            x += glyphW + gap
        }
    }

    mutating func drawIcon(_ variant: LiveBadge.Variant, x: Int, y: Int, size: Int, color: (UInt8, UInt8, UInt8)) {
        let c = Double(size) / 2
        let outer = c, ring = max(1.0, Double(size) / 7)
        for py in 0..<size {
            for px in 0..<size {
                let dx = Double(px) + 0.5 - c, dy = Double(py) + 0.5 - c
                let d = (dx * dx + dy * dy).squareRoot()
                var on = false
                switch variant {
                case .live, .liveOff:
                    // Outer ring, middle ring, centre dot: Apple's concentric circles.
                    on = (d <= outer && d > outer - ring) || (d <= outer * 0.62 && d > outer * 0.62 - ring)
                        || d <= outer * 0.25
                    if variant == .liveOff && abs(dx + dy) <= ring * 0.75 && d <= outer { on = true }
                case .video:
                    let edge = max(abs(dx), abs(dy))
                    on = (edge <= c && edge > c - ring) || edge <= c * 0.45
                }
                if on { setPixel(x + px, y + py, color) }
            }
        }
    }

    mutating func drawGlyph(_ ch: Character, x: Int, y: Int, scale: Int, color: (UInt8, UInt8, UInt8)) {
        guard let rows = BadgeFont.glyphs[ch] else { return }
        for (row, bits) in rows.enumerated() {
            for col in 0..<5 where bits & (0x10 >> col) != 0 {
                fillRect(x: x + col * scale, y: y + row * scale, w: scale, h: scale, color: color, alpha: 1)
            }
        }
    }

    mutating func fillRect(x: Int, y: Int, w: Int, h: Int, color: (UInt8, UInt8, UInt8), alpha: Double) {
        let a = max(0, min(1, alpha))
        for py in max(0, y)..<min(frame.height, y + h) {
            for px in max(0, x)..<min(frame.width, x + w) {
                let i = (py * frame.width + px) * 4
                frame.rgba[i] = UInt8(Double(frame.rgba[i]) * (1 - a) + Double(color.0) * a)
                frame.rgba[i + 1] = UInt8(Double(frame.rgba[i + 1]) * (1 - a) + Double(color.1) * a)
                frame.rgba[i + 2] = UInt8(Double(frame.rgba[i + 2]) * (1 - a) + Double(color.2) * a)
                frame.rgba[i + 3] = 255
            }
        }
    }

    mutating func setPixel(_ x: Int, _ y: Int, _ color: (UInt8, UInt8, UInt8)) {
        fillRect(x: x, y: y, w: 1, h: 1, color: color, alpha: 1)
    }
}

/// 5x7 capitals for the badge labels (LIVE, OFF, VIDEO), one byte per row, bit 4 = leftmost column.
enum BadgeFont {
    static let glyphs: [Character: [UInt8]] = [
        "L": [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F],
        "I": [0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E],
        "V": [0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04],
        "E": [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F],
        "O": [0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        "F": [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10],
        "D": [0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E],
        " ": [0, 0, 0, 0, 0, 0, 0],
    ]
}
