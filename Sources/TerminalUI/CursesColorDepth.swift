import GraphicsSettings
import TerminalGraphics

/// How many colours the terminal (as ncurses sees it) can show, and how RGB maps onto them.
public enum CursesColorDepth: Sendable, Equatable {
    /// Colour numbers are 0xRRGGBB (terminfo `RGB` flag, e.g. TERM=xterm-direct).
    case direct
    case indexed256
    case indexed16
    case indexed8
    case monochrome

    public init(colorCount: Int, hasRGBFlag: Bool) {
        if hasRGBFlag || colorCount >= 0x1000000 { self = .direct }
        else if colorCount >= 256 { self = .indexed256 }
        else if colorCount >= 16 { self = .indexed16 }
        else if colorCount >= 8 { self = .indexed8 }
        else { self = .monochrome }
    }

    /// The depth chafa should render for, so pictures use exactly the colours curses can show; nil = none.
    public var renderDepth: GraphicsSettings.ColorDepth? {
        switch self {
        case .direct: return .truecolor
        case .indexed256: return .indexed256
        case .indexed16: return .indexed16
        case .indexed8: return .indexed8
        case .monochrome: return nil
        }
    }

    /// The terminal colour number closest to `rgb`.
    public func colorNumber(for rgb: CellColor) -> Int {
        switch self {
        case .direct:
            // xterm-direct reserves 0...7 for the ANSI colours; nudge near-black to 8 so it stays black.
            let value = (Int(rgb.r) << 16 | Int(rgb.g) << 8 | Int(rgb.b))
            return value < 8 ? 8 : value
        case .indexed256: return Self.nearest256(rgb)
        case .indexed16: return Self.nearest(rgb, in: Self.ansi16)
        case .indexed8: return Self.nearest(rgb, in: Array(Self.ansi16.prefix(8)))
        case .monochrome: return -1
        }
    }

    /// xterm's default ANSI palette.
    static let ansi16: [CellColor] = [
        CellColor(r: 0, g: 0, b: 0), CellColor(r: 205, g: 0, b: 0), CellColor(r: 0, g: 205, b: 0), CellColor(r: 205, g: 205, b: 0),
        CellColor(r: 0, g: 0, b: 238), CellColor(r: 205, g: 0, b: 205), CellColor(r: 0, g: 205, b: 205), CellColor(r: 229, g: 229, b: 229),
        CellColor(r: 127, g: 127, b: 127), CellColor(r: 255, g: 0, b: 0), CellColor(r: 0, g: 255, b: 0), CellColor(r: 255, g: 255, b: 0),
        CellColor(r: 92, g: 92, b: 255), CellColor(r: 255, g: 0, b: 255), CellColor(r: 0, g: 255, b: 255), CellColor(r: 255, g: 255, b: 255),
    ]

    static func distance(_ a: CellColor, _ b: CellColor) -> Int {
        let dr = Int(a.r) - Int(b.r), dg = Int(a.g) - Int(b.g), db = Int(a.b) - Int(b.b)
        // Weighted for the eye's sensitivity (green most, blue least).
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }

    static func nearest(_ rgb: CellColor, in palette: [CellColor]) -> Int {
        var best = 0
        var bestDistance = Int.max
        for (index, colour) in palette.enumerated() {
            let d = distance(rgb, colour)
            if d < bestDistance { best = index; bestDistance = d }
        }
        return best
    }

    /// The 6×6×6 cube (16...231) or the grey ramp (232...255), whichever is closer.
    static func nearest256(_ rgb: CellColor) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func cubeIndex(_ v: UInt8) -> Int {
            let value = Int(v)
            if value < 48 { return 0 }
            if value < 115 { return 1 }
            return min(5, (value - 35) / 40)
        }
        let r = cubeIndex(rgb.r), g = cubeIndex(rgb.g), b = cubeIndex(rgb.b)
        let cube = CellColor(r: UInt8(levels[r]), g: UInt8(levels[g]), b: UInt8(levels[b]))
        let average = (Int(rgb.r) + Int(rgb.g) + Int(rgb.b)) / 3
        let greyIndex = average > 238 ? 23 : max(0, (average - 3) / 10)
        let greyLevel = UInt8(8 + 10 * greyIndex)
        let grey = CellColor(r: greyLevel, g: greyLevel, b: greyLevel)
        return distance(rgb, grey) < distance(rgb, cube) ? 232 + greyIndex : 16 + 36 * r + 6 * g + b
    }
}
