import GraphicsSettings
import Imaging
import TerminalProtocol

/// An sRGB colour of a terminal cell.
public struct CellColor: Sendable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }
    public init(packed: Int32) {
        self.init(r: UInt8((packed >> 16) & 0xFF), g: UInt8((packed >> 8) & 0xFF), b: UInt8(packed & 0xFF))
    }
    public static let black = CellColor(r: 0, g: 0, b: 0)
    public static let white = CellColor(r: 255, g: 255, b: 255)

    /// Relative luminance-ish brightness 0...255 (Rec. 601 weights).
    public var brightness: Int { (299 * Int(r) + 587 * Int(g) + 114 * Int(b)) / 1000 }

    /// This colour scaled towards black (`factor` 0 = black, 1 = unchanged).
    public func darkened(_ factor: Double) -> CellColor {
        CellColor(r: UInt8(Double(r) * factor), g: UInt8(Double(g) * factor), b: UInt8(Double(b) * factor))
    }
}

/// One character cell: a symbol with its foreground and background colours. In indexed colour depths the
/// palette indices are kept too, so output never re-quantises.
public struct TerminalCell: Sendable, Hashable {
    public var character: Unicode.Scalar
    public var foreground: CellColor
    public var background: CellColor
    public var foregroundIndex: Int?
    public var backgroundIndex: Int?
    /// Bold (badge text).
    public var bold: Bool

    public init(character: Unicode.Scalar, foreground: CellColor, background: CellColor,
                foregroundIndex: Int? = nil, backgroundIndex: Int? = nil, bold: Bool = false)
    {
        self.character = character
        self.foreground = foreground
        self.background = background
        self.foregroundIndex = foregroundIndex
        self.backgroundIndex = backgroundIndex
        self.bold = bold
    }
}

/// A picture made for the terminal: a grid of cells (symbol mode) or an escape-sequence payload (sixel,
/// kitty, iTerm2) covering `columns` x `rows` cells. Nothing here writes to a terminal.
public struct RenderedImage: Sendable {
    public var columns: Int
    public var rows: Int
    public var mode: GraphicsMode
    public var colorDepth: ColorDepth
    /// Row-major `rows * columns` cells (symbol mode); empty for pixel protocols.
    public var cells: [TerminalCell]
    /// The protocol payload (pixel modes); empty in symbol mode.
    public var bytes: [UInt8]
    /// Pixel modes: the picture's size in pixels when known (a compressed kitty payload's length says
    /// nothing of what the terminal stores).
    public var pixelSize: PixelSize?

    public init(columns: Int, rows: Int, mode: GraphicsMode, colorDepth: ColorDepth, cells: [TerminalCell] = [],
                bytes: [UInt8] = [], pixelSize: PixelSize? = nil)
    {
        self.columns = columns
        self.rows = rows
        self.mode = mode
        self.colorDepth = colorDepth
        self.cells = cells
        self.bytes = bytes
        self.pixelSize = pixelSize
    }

    /// The cell at (column, row), or nil outside the grid.
    public func cell(column: Int, row: Int) -> TerminalCell? {
        guard column >= 0, column < columns, row >= 0, row < rows, cells.count == columns * rows else { return nil }
        return cells[row * columns + column]
    }

    public mutating func setCell(_ cell: TerminalCell, column: Int, row: Int) {
        guard column >= 0, column < columns, row >= 0, row < rows, cells.count == columns * rows else { return }
        cells[row * columns + column] = cell
    }

    /// The cells as lines of text with SGR colour sequences for this colour depth, each line ending with
    /// an attribute reset (what `livegrid show` prints; the browser draws cells through ncurses instead).
    public func ansiLines() -> [String] {
        guard cells.count == columns * rows else { return [] }
        var lines: [String] = []
        lines.reserveCapacity(rows)
        for row in 0..<rows {
            var line = ""
            var lastSGR = ""
            for column in 0..<columns {
                let cell = cells[row * columns + column]
                let sgr = sgrSequence(for: cell)
                if sgr != lastSGR {
                    line += sgr
                    lastSGR = sgr
                }
                line.unicodeScalars.append(cell.character)
            }
            line += "\u{1B}[0m"
            lines.append(line)
        }
        return lines
    }

    func sgrSequence(for cell: TerminalCell) -> String {
        let bold = cell.bold ? "1;" : ""
        switch colorDepth {
        case .truecolor:
            let f = cell.foreground, b = cell.background
            return "\u{1B}[0;\(bold)38;2;\(f.r);\(f.g);\(f.b);48;2;\(b.r);\(b.g);\(b.b)m"
        case .indexed256:
            let f = cell.foregroundIndex ?? Palette.nearest256(cell.foreground)
            let b = cell.backgroundIndex ?? Palette.nearest256(cell.background)
            return "\u{1B}[0;\(bold)38;5;\(f);48;5;\(b)m"
        case .indexed16, .indexed8:
            let limit = colorDepth == .indexed8 ? 8 : 16
            let f = min(cell.foregroundIndex ?? Palette.nearest16(cell.foreground, limit: limit), limit - 1)
            let b = min(cell.backgroundIndex ?? Palette.nearest16(cell.background, limit: limit), limit - 1)
            let fg = f < 8 ? 30 + f : 90 + f - 8
            let bg = b < 8 ? 40 + b : 100 + b - 8
            return "\u{1B}[0;\(bold)\(fg);\(bg)m"
        }
    }
}

/// xterm's palette, for cells whose colours were set by livegrid (badges) rather than by chafa.
enum Palette {
    static let ansi16: [CellColor] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ].map { CellColor(r: $0.0, g: $0.1, b: $0.2) }

    static func distance(_ a: CellColor, _ b: CellColor) -> Int {
        let dr = Int(a.r) - Int(b.r), dg = Int(a.g) - Int(b.g), db = Int(a.b) - Int(b.b)
        return dr * dr * 3 + dg * dg * 4 + db * db * 2
    }

    static func nearest16(_ c: CellColor, limit: Int) -> Int {
        var best = 0
        for i in 0..<limit where distance(c, ansi16[i]) < distance(c, ansi16[best]) { best = i }
        return best
    }

    static func nearest256(_ c: CellColor) -> Int {
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        let steps = [0, 95, 135, 175, 215, 255]
        let cube = CellColor(r: UInt8(steps[level(c.r)]), g: UInt8(steps[level(c.g)]), b: UInt8(steps[level(c.b)]))
        let cubeIndex = 16 + 36 * level(c.r) + 6 * level(c.g) + level(c.b)
        let grayLevel = max(0, min(23, (c.brightness - 3) / 10))
        let gv = UInt8(8 + 10 * grayLevel)
        let gray = CellColor(r: gv, g: gv, b: gv)
        return distance(c, gray) < distance(c, cube) ? 232 + grayLevel : cubeIndex
    }
}

extension RenderedImage {
    /// The pixel-protocol payload wrapped for tmux passthrough (`ESC P tmux; ... ESC \`, every ESC inside
    /// doubled); needs `allow-passthrough on` in tmux ≥ 3.3. chafa 1.12 has no passthrough API (1.14 has).
    /// tmux drops passthrough above about 1 MB, so callers keep pixel images small or use symbols there.
    public var bytesWrappedForTmux: [UInt8] {
        TmuxPassthrough.wrap(bytes, depth: 1)
    }
}
