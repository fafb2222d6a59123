import GraphicsSettings
import TerminalProtocol

/// One symbol picture to put on screen: `image`'s cells from its top-left corner, at screen column `x`, row `y`,
/// at most `width` x `height` cells of it (a picture larger than its box is clipped, as ScreenPainter does).
public struct CellPlacement: Sendable {
    public var image: RenderedImage
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(image: RenderedImage, x: Int, y: Int, width: Int? = nil, height: Int? = nil) {
        self.image = image
        self.x = x
        self.y = y
        self.width = min(width ?? image.columns, image.columns)
        self.height = min(height ?? image.rows, image.rows)
    }
}

/// Writes symbol-mode pictures to a terminal with as few bytes as chafa's own printer or fewer: one combined
/// SGR per colour change (`ESC[38;2;r;g;b;48;2;r;g;bm`), a colour that did not change (in truecolour: by
/// more than `truecolorTolerance` levels) is not repeated, a
/// colour a glyph does not show is not sent (the foreground of a space, the background of a full block), and
/// a cell that already shows the same glyph in the same colours (it remembers what it wrote) is skipped with a
/// cursor move. A pure value: bytes in, bytes out, no file descriptor.
///
/// Why not through ncurses (DECISIONS.md): curses sends every cell's colour pair as separate foreground and
/// background sequences and re-sends both on every pair change, 1.26x chafa's bytes on a full screen.
///
/// What it remembers is only right while nothing else writes over those cells: whoever does (curses repainting
/// a row, a clear screen, a resize) calls `forget`/`forgetAll`, and the next paint writes those cells again.
public struct CellScreenWriter: Sendable {
    public let colorDepth: ColorDepth
    public private(set) var screenColumns: Int
    public private(set) var screenRows: Int
    /// What this writer last wrote at each screen position (row-major), nil where it does not know.
    private var shown: [Ink?]

    /// A glyph with the colour codes it was written with; `-1` marks a colour the glyph does not show.
    struct Ink: Equatable, Sendable {
        var character: Unicode.Scalar
        var foreground: Int32
        var background: Int32
        var bold: Bool

        /// Same glyph, and colours that look the same (`CellScreenWriter.closeEnough`).
        func looksLike(_ other: Ink, tolerance: Int32) -> Bool {
            character == other.character && bold == other.bold
                && CellScreenWriter.closeEnough(foreground, other.foreground, tolerance: tolerance)
                && CellScreenWriter.closeEnough(background, other.background, tolerance: tolerance)
        }
    }

    /// In truecolour, a colour within this many levels (of 255) in each channel of the pen's is drawn with the
    /// pen's (issue 28: bytes per picture). A full colour SGR is ~30 bytes against a 3-byte glyph, and
    /// neighbouring cells of a sky, a wall or a noisy flat area differ by a level or two: the pen is reused
    /// there. 3 levels (1.2 %) is below what an eye tells apart between two cells, and below chafa's own error
    /// in averaging a cell's colours. Measured on the slow-link benchmark's first screen (28 photos, 160x48):
    /// 126,667 picture bytes exact, 113,593 at 1, 108,380 at 2, 105,195 at 3. Each cell is compared with the
    /// colour it wants, never with a colour reused before, so the error never adds up.
    public static let truecolorTolerance: Int32 = 3

    /// The tolerance for this writer's colour codes: indexed codes are compared exactly.
    var tolerance: Int32 { colorDepth == .truecolor ? Self.truecolorTolerance : 0 }

    /// True when the two colour codes look the same: equal, or (truecolour, `tolerance` > 0) packed RGB
    /// within `tolerance` per channel. A code of -1 (a colour the glyph does not show) matches only -1.
    static func closeEnough(_ a: Int32, _ b: Int32, tolerance: Int32) -> Bool {
        if a == b { return true }
        guard tolerance > 0, a >= 0, b >= 0 else { return false }
        for shift: Int32 in [16, 8, 0] where abs(((a >> shift) & 0xFF) - ((b >> shift) & 0xFF)) > tolerance { return false }
        return true
    }

    public init(colorDepth: ColorDepth, screenColumns: Int, screenRows: Int) {
        self.colorDepth = colorDepth
        self.screenColumns = max(0, screenColumns)
        self.screenRows = max(0, screenRows)
        shown = Array(repeating: nil, count: self.screenColumns * self.screenRows)
    }

    /// The screen changed size or was cleared: nothing on it is known any more.
    public mutating func reset(screenColumns: Int, screenRows: Int) {
        self = CellScreenWriter(colorDepth: colorDepth, screenColumns: screenColumns, screenRows: screenRows)
    }

    /// Someone else wrote everywhere (a clear screen): every cell is written again next time.
    public mutating func forgetAll() {
        for index in shown.indices { shown[index] = nil }
    }

    /// Someone else wrote over screen row `row` (a curses repaint of that line).
    public mutating func forget(row: Int) {
        guard row >= 0, row < screenRows else { return }
        for index in (row * screenColumns)..<((row + 1) * screenColumns) { shown[index] = nil }
    }

    /// Screen positions this writer believes it drew (for the caller's own bookkeeping and tests).
    public var knownCellCount: Int { shown.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    /// The bytes that bring the screen from what was written before to `placements` (later placements win
    /// where they overlap). Positions not covered by any placement, or where `isOwned(x, y)` is false (the
    /// caller drew text over the picture there), are forgotten: the caller's other writer (curses) owns them
    /// now. The cursor is left after the last cell written and the pen in its colours (the caller saves and
    /// restores both, or resets).
    public mutating func paint(_ placements: [CellPlacement], isOwned: ((Int, Int) -> Bool)? = nil) -> [UInt8] {
        let wanted = plan(placements, isOwned: isOwned)
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        var cursor: (x: Int, y: Int)?
        var lastRow: Int?
        var pen: (foreground: Int32, background: Int32, bold: Bool)?
        // What is on screen afterwards: the colours really written (the pen's where it was close enough), and
        // a cell left alone keeps what it showed.
        var next = wanted
        let tolerance = self.tolerance
        for y in 0..<screenRows {
            for x in 0..<screenColumns {
                let index = y * screenColumns + x
                guard let ink = wanted[index] else { continue }
                if let old = shown[index], ink.looksLike(old, tolerance: tolerance) {
                    next[index] = old
                    continue
                }
                if cursor == nil || cursor! != (x, y) {
                    moveCursor(from: cursor, lastRow: lastRow, to: (x, y), into: &out)
                }
                next[index] = setPen(&pen, to: ink, into: &out)
                appendUTF8(ink.character, into: &out)
                // Past the last column the terminal's cursor waits to wrap: its position is not x + 1.
                cursor = x + 1 < screenColumns ? (x + 1, y) : nil
                lastRow = y
            }
        }
        shown = next
        return out
    }

    /// `paint` for the cells `isPart(x, y)` picks only, keeping what the writer knows of every other cell, so a
    /// later `paint` of the whole frame skips the cells written here and writes the rest (once each). For the
    /// cells that must reach the terminal before curses' text (`DirectCellOutput`: a picture uncovered by text
    /// that went away, before the text that replaces it).
    public mutating func paint(_ placements: [CellPlacement], isOwned: ((Int, Int) -> Bool)? = nil,
                               onlyWhere isPart: (Int, Int) -> Bool) -> [UInt8] {
        let before = shown
        let columns = screenColumns
        let out = withoutActuallyEscaping(isPart) { isPart in
            paint(placements, isOwned: { x, y in isPart(x, y) && isOwned?(x, y) ?? true })
        }
        for index in shown.indices where !isPart(index % columns, index / columns) { shown[index] = before[index] }
        return out
    }

    /// A scroll that saves bytes before `paint`ing `placements`: the rows `band` (screen rows, inclusive)
    /// moved up by `shift` rows (down when negative), if that leaves at least `minimumGain` more cells
    /// already right than leaving them in place. The grid scrolled by a row of pictures then costs a few
    /// bytes of scrolling and the new row, instead of every picture cell again.
    public func bestScroll(for placements: [CellPlacement], isOwned: ((Int, Int) -> Bool)? = nil,
                           minimumGain: Int = 64) -> (band: ClosedRange<Int>, shift: Int)? {
        let wanted = plan(placements, isOwned: isOwned)
        var rowsUsed: [Int] = []
        for y in 0..<screenRows {
            let range = (y * screenColumns)..<((y + 1) * screenColumns)
            if range.contains(where: { wanted[$0] != nil || shown[$0] != nil }) { rowsUsed.append(y) }
        }
        guard let top = rowsUsed.first, let bottom = rowsUsed.last, bottom > top else { return nil }
        func matches(_ shift: Int) -> Int {
            var count = 0
            for y in top...bottom {
                let from = y + shift
                guard from >= top, from <= bottom else { continue }
                for x in 0..<screenColumns {
                    if let ink = wanted[y * screenColumns + x], let old = shown[from * screenColumns + x],
                       ink.looksLike(old, tolerance: tolerance) { count += 1 }
                }
            }
            return count
        }
        let stay = matches(0)
        var best: (shift: Int, count: Int)?
        for shift in 1...max(1, (bottom - top) / 2) {
            for signed in [shift, -shift] {
                let count = matches(signed)
                if count > (best?.count ?? stay) { best = (signed, count) }
            }
        }
        guard let best, best.count - stay >= minimumGain else { return nil }
        return (top...bottom, best.shift)
    }

    /// Scrolls screen rows `band` up by `shift` rows (down when negative) with a scroll region (DECSTBM, SU
    /// or SD), and moves what this writer remembers with them; the rows scrolled in are unknown. Leaves the
    /// pen reset and the scroll region reset, which homes the cursor: callers save and restore the cursor
    /// around it, and move their own idea of the screen (curses' curscr) the same way.
    public mutating func scroll(band: ClosedRange<Int>, shift: Int) -> [UInt8] {
        guard shift != 0, band.lowerBound >= 0, band.upperBound < screenRows, abs(shift) < band.count else { return [] }
        // Reset first: the rows scrolled in take the current background (BCE). A band that is the whole
        // screen needs no scroll region.
        let whole = band.lowerBound == 0 && band.upperBound == screenRows - 1
        var out: [UInt8] = Array("\u{1B}[0m".utf8)
        if !whole { out += TerminalSequences.scrollRegion(rows: band) }
        out += TerminalSequences.scroll(by: shift)
        if !whole { out += TerminalSequences.resetScrollRegion }
        var moved = shown
        for y in band {
            let from = y + shift
            for x in 0..<screenColumns {
                moved[y * screenColumns + x] = band.contains(from) ? shown[from * screenColumns + x] : nil
            }
        }
        shown = moved
        return out
    }

    /// What should be on screen: the placements' cells, where they are still the caller's.
    private func plan(_ placements: [CellPlacement], isOwned: ((Int, Int) -> Bool)?) -> [Ink?] {
        var wanted = [Ink?](repeating: nil, count: shown.count)
        for placement in placements { lay(placement, into: &wanted) }
        if let isOwned {
            for y in 0..<screenRows {
                for x in 0..<screenColumns where wanted[y * screenColumns + x] != nil && !isOwned(x, y) {
                    wanted[y * screenColumns + x] = nil
                }
            }
        }
        return wanted
    }

    /// Puts one placement's cells into `wanted`, clipped to the screen.
    private func lay(_ placement: CellPlacement, into wanted: inout [Ink?]) {
        let image = placement.image
        guard image.mode == .symbols, image.cells.count == image.columns * image.rows else { return }
        for row in 0..<max(0, placement.height) {
            let y = placement.y + row
            guard y >= 0, y < screenRows else { continue }
            for column in 0..<max(0, placement.width) {
                let x = placement.x + column
                guard x >= 0, x < screenColumns else { continue }
                wanted[y * screenColumns + x] = ink(for: image.cells[row * image.columns + column])
            }
        }
    }

    /// The colour codes of a cell at this depth, with the colour its glyph does not show set to -1.
    func ink(for cell: TerminalCell) -> Ink {
        var foreground: Int32, background: Int32
        switch colorDepth {
        case .truecolor:
            foreground = Self.packed(cell.foreground)
            background = Self.packed(cell.background)
        case .indexed256:
            foreground = Int32(cell.foregroundIndex ?? Palette.nearest256(cell.foreground))
            background = Int32(cell.backgroundIndex ?? Palette.nearest256(cell.background))
        case .indexed16, .indexed8:
            let limit = colorDepth == .indexed8 ? 8 : 16
            foreground = Int32(min(cell.foregroundIndex ?? Palette.nearest16(cell.foreground, limit: limit), limit - 1))
            background = Int32(min(cell.backgroundIndex ?? Palette.nearest16(cell.background, limit: limit), limit - 1))
        }
        if cell.character == " " { foreground = -1 }
        if cell.character == "\u{2588}" { background = -1 }   // FULL BLOCK
        return Ink(character: cell.character, foreground: foreground, background: background, bold: cell.bold)
    }

    private static func packed(_ color: CellColor) -> Int32 {
        Int32(color.r) << 16 | Int32(color.g) << 8 | Int32(color.b)
    }

    /// The shortest of: CUF (`ESC[nC`) on the same row, CR LF (plus CUF) to the next row, or CUP
    /// (`ESC[row;colH`). CR LF is safe: the target row is on screen below the last one written, so the line
    /// feed never scrolls, and CR also ends a pending wrap after the last column.
    private func moveCursor(from cursor: (x: Int, y: Int)?, lastRow: Int?, to target: (x: Int, y: Int),
                            into out: inout [UInt8]) {
        if let cursor, cursor.y == target.y, cursor.x < target.x {
            appendForward(target.x - cursor.x, into: &out)
            return
        }
        let absolute = 4 + digits(target.y + 1) + digits(target.x + 1)
        if let lastRow, lastRow + 1 == target.y {
            let forward = target.x == 0 ? 0 : 3 + (target.x > 1 ? digits(target.x) : 0)
            if 2 + forward < absolute {
                out += [0x0D, 0x0A]
                if target.x > 0 { appendForward(target.x, into: &out) }
                return
            }
        }
        out += [0x1B, 0x5B]
        appendNumber(target.y + 1, into: &out)
        out.append(0x3B)
        appendNumber(target.x + 1, into: &out)
        out.append(0x48)   // H
    }

    private func appendForward(_ count: Int, into out: inout [UInt8]) {
        out += [0x1B, 0x5B]
        if count > 1 { appendNumber(count, into: &out) }
        out.append(0x43)   // C
    }

    private func digits(_ value: Int) -> Int { value >= 10 ? 1 + digits(value / 10) : 1 }

    /// One SGR with only what changes: a reset when bold goes off (or the pen is unknown), then the colours
    /// that the glyph shows and that differ from the pen's by more than the tolerance. Returns the ink as
    /// drawn (the pen's colours where they were kept).
    @discardableResult
    private func setPen(_ pen: inout (foreground: Int32, background: Int32, bold: Bool)?, to ink: Ink,
                        into out: inout [UInt8]) -> Ink {
        var parameters: [UInt8] = []
        var current = pen ?? (foreground: -1, background: -1, bold: false)
        if pen == nil || (current.bold && !ink.bold) {
            parameters.append(0x30)   // 0: a known starting point (attributes someone else left are gone)
            current = (-1, -1, false)
        }
        func separate() { if !parameters.isEmpty { parameters.append(0x3B) } }
        if ink.bold && !current.bold {
            separate()
            parameters.append(0x31)
            current.bold = true
        }
        var drawn = ink
        if ink.foreground >= 0 {
            if Self.closeEnough(ink.foreground, current.foreground, tolerance: tolerance) {
                drawn.foreground = current.foreground
            } else {
                separate()
                appendColor(ink.foreground, background: false, into: &parameters)
                current.foreground = ink.foreground
            }
        }
        if ink.background >= 0 {
            if Self.closeEnough(ink.background, current.background, tolerance: tolerance) {
                drawn.background = current.background
            } else {
                separate()
                appendColor(ink.background, background: true, into: &parameters)
                current.background = ink.background
            }
        }
        pen = current
        if !parameters.isEmpty {
            out += [0x1B, 0x5B]
            out += parameters
            out.append(0x6D)   // m
        }
        return drawn
    }

    private func appendColor(_ code: Int32, background: Bool, into out: inout [UInt8]) {
        switch colorDepth {
        case .truecolor:
            out += background ? [0x34, 0x38, 0x3B, 0x32, 0x3B] : [0x33, 0x38, 0x3B, 0x32, 0x3B]   // 48;2; / 38;2;
            appendNumber(Int((code >> 16) & 0xFF), into: &out)
            out.append(0x3B)
            appendNumber(Int((code >> 8) & 0xFF), into: &out)
            out.append(0x3B)
            appendNumber(Int(code & 0xFF), into: &out)
        case .indexed256:
            out += background ? [0x34, 0x38, 0x3B, 0x35, 0x3B] : [0x33, 0x38, 0x3B, 0x35, 0x3B]   // 48;5; / 38;5;
            appendNumber(Int(code), into: &out)
        case .indexed16, .indexed8:
            let index = Int(code)
            let base = index < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
            appendNumber(base + index % 8, into: &out)
        }
    }

    private func appendNumber(_ value: Int, into out: inout [UInt8]) {
        if value >= 10 { appendNumber(value / 10, into: &out) }
        out.append(UInt8(0x30 + value % 10))
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, into out: inout [UInt8]) {
        // Only single-column glyphs keep the grid aligned; control characters would move the cursor.
        let safe = scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar
        UTF8.encode(safe) { out.append($0) }
    }
}
