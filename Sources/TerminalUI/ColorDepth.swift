/// How many colours the terminal (as ncurses sees it) can show, and how RGB maps onto them.
public enum ColorDepth: Sendable, Equatable {
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

    public var name: String {
        switch self {
        case .direct: return "truecolor"
        case .indexed256: return "256 colours"
        case .indexed16: return "16 colours"
        case .indexed8: return "8 colours"
        case .monochrome: return "no colour"
        }
    }

    /// The terminal colour number closest to `rgb`.
    public func colorNumber(for rgb: RGB) -> Int {
        switch self {
        case .direct:
            // xterm-direct reserves 0...7 for the ANSI colours; nudge near-black to 8 so it stays black.
            let value = Int(rgb.packed)
            return value < 8 ? 8 : value
        case .indexed256: return Self.nearest256(rgb)
        case .indexed16: return Self.nearest(rgb, in: Self.ansi16)
        case .indexed8: return Self.nearest(rgb, in: Array(Self.ansi16.prefix(8)))
        case .monochrome: return -1
        }
    }

    /// xterm's default ANSI palette.
    static let ansi16: [RGB] = [
        RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0),
        RGB(0, 0, 238), RGB(205, 0, 205), RGB(0, 205, 205), RGB(229, 229, 229),
        RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0), RGB(255, 255, 0),
        RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
    ]

    static func distance(_ a: RGB, _ b: RGB) -> Int {
        let dr = Int(a.red) - Int(b.red), dg = Int(a.green) - Int(b.green), db = Int(a.blue) - Int(b.blue)
        // Weighted for the eye's sensitivity (green most, blue least).
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }

    static func nearest(_ rgb: RGB, in palette: [RGB]) -> Int {
        var best = 0
        var bestDistance = Int.max
        for (index, colour) in palette.enumerated() {
            let d = distance(rgb, colour)
            if d < bestDistance { best = index; bestDistance = d }
        }
        return best
    }

    /// The 6×6×6 cube (16...231) or the grey ramp (232...255), whichever is closer.
    static func nearest256(_ rgb: RGB) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func cubeIndex(_ v: UInt8) -> Int {
            let value = Int(v)
            if value < 48 { return 0 }
            if value < 115 { return 1 }
            return min(5, (value - 35) / 40)
        }
        let r = cubeIndex(rgb.red), g = cubeIndex(rgb.green), b = cubeIndex(rgb.blue)
        let cube = RGB(UInt8(levels[r]), UInt8(levels[g]), UInt8(levels[b]))
        let average = (Int(rgb.red) + Int(rgb.green) + Int(rgb.blue)) / 3
        let greyIndex = average > 238 ? 23 : max(0, (average - 3) / 10)
        let greyLevel = UInt8(8 + 10 * greyIndex)
        let grey = RGB(greyLevel, greyLevel, greyLevel)
        return distance(rgb, grey) < distance(rgb, cube) ? 232 + greyIndex : 16 + 36 * r + 6 * g + b
    }
}
