import BrowserCore
import BrowserRuntime
import CNCurses
import Foundation
import GraphicsSettings
import TerminalGraphics
import TerminalProtocol

/// Symbol-mode pictures written straight to the terminal by `CellScreenWriter` (one combined SGR per colour
/// change, unchanged cells skipped), with curses kept for the text (DECISIONS.md: curses sends separate
/// foreground and background SGRs for every cell, 1.26x chafa's bytes for a screen of pictures).
///
/// How curses is kept out of the picture cells: `ScreenPainter.picture` puts a marker in the window (a glyph
/// that depends only on the row, with A_INVIS, which no text uses), and `prepare` copies it into curscr,
/// curses' idea of the screen. Curses then sees nothing to do there; where text replaces a picture the
/// window differs from the marker and curses writes the text. `write`, after `doupdate`, sends the picture
/// cells that changed, between save-cursor and restore-cursor (DECSC/DECRC also restore the SGR state), so
/// curses' cursor and attributes stay what it believes. The cells that showed text in the last frame and are
/// picture again go before `doupdate` instead (`prepare`), so old text never stays beside the new.
///
/// When the grid scrolls (`CellScreenWriter.bestScroll`), the terminal's rows are scrolled here with a
/// scroll region, and curscr's rows moved the same way.
///
/// Curses' scroll optimisation would move picture cells behind the writer's back. It moves a line only when
/// the line is identical to a line elsewhere on the old screen, unique in both: markers that differ from row
/// to row make picture lines never qualify, and a frame where a text-only line could (it moved) has every
/// picture cell written again after the update.
final class DirectCellOutput {
    static let markerAttribute: attr_t = lg_a_invis()

    private var writer: CellScreenWriter
    private let fd: Int32
    private var placements: [CellPlacement] = []
    private var owned: [Bool] = []
    /// Where the pictures of the previous frame were.
    private var lastRects: [[Int]] = []
    /// Set by `prepare` when curses might move lines in this update: every picture cell is written after it.
    private var rewriteAll = false
    /// The picture cells of the frame on screen (`owned` of the last frame), to find the cells text left.
    private var ownedOnScreen: [Bool] = []
    /// Curses clears the screen in its next update (a resize, Ctrl-L, a resume): nothing may be written before it.
    private var clearComing = false
    /// Bytes written by the last frame (scroll and cells), for the trace and tests.
    private(set) var lastFrameBytes = 0

    /// Counts what the terminal takes (issue 28.4); nil in tests that write to a pipe.
    private let meter: TerminalThroughput?

    init(colorDepth: ColorDepth, size: TerminalSize, fd: Int32 = STDOUT_FILENO, meter: TerminalThroughput? = nil) {
        writer = CellScreenWriter(colorDepth: colorDepth, screenColumns: size.columns, screenRows: size.rows)
        self.fd = fd
        self.meter = meter
    }

    /// Called by `ScreenPainter.picture` for each symbol picture of the frame.
    func add(_ placement: CellPlacement) { placements.append(placement) }

    /// The screen was cleared or resized (curses repaints everything, markers included): every picture cell
    /// is written again.
    func screenCleared(size: TerminalSize) {
        clearComing = true
        if size.columns != writer.screenColumns || size.rows != writer.screenRows {
            writer.reset(screenColumns: size.columns, screenRows: size.rows)
        } else {
            writer.forgetAll()
        }
    }

    /// Curses repaints the whole screen (Ctrl-L): every picture cell is written again.
    func screenCleared() {
        clearComing = true
        writer.forgetAll()
    }

    /// Before `doupdate`, after the frame was drawn into `window`: marks the picture cells that are still
    /// pictures (no text drawn over them) as already on screen for curses.
    func prepare(window: UnsafeMutablePointer<WINDOW>, size: TerminalSize) {
        lastFrameBytes = 0
        if size.columns != writer.screenColumns || size.rows != writer.screenRows {
            writer.reset(screenColumns: size.columns, screenRows: size.rows)
        }
        let columns = size.columns
        owned = [Bool](repeating: false, count: columns * size.rows)
        var pictureRows = Set<Int>()
        for placement in placements {
            for row in 0..<placement.height {
                let y = placement.y + row
                guard y >= 0, y < size.rows else { continue }
                for column in 0..<placement.width {
                    let x = placement.x + column
                    guard x >= 0, x < columns else { continue }
                    let isPicture = lg_cell_attrs(window, Int32(y), Int32(x)) & Self.markerAttribute != 0
                    owned[y * columns + x] = isPicture
                    if isPicture { pictureRows.insert(y) }
                }
            }
        }
        guard let screen = curscr else { return }
        let isOwned: (Int, Int) -> Bool = { [owned] x, y in owned[y * columns + x] }
        // Only a frame whose pictures moved can be a scroll (a movie frame replaces cells in place).
        let rects = placements.map { [$0.x, $0.y, $0.width, $0.height] }
        let moved = rects != lastRects
        lastRects = rects
        var scrolled = false
        if moved, let scroll = writer.bestScroll(for: placements, isOwned: isOwned) {
            scrolled = true
            // The grid moved: scroll the terminal's rows ourselves and move curscr's the same way. Curses
            // keeps a hash of each old line from when it last wrote it, and its own scroll optimiser pairs
            // new lines with old ones by those hashes: every row of the band gets its hash forgotten (content
            // kept), or a text line that was at row y before our scroll would anchor a second, curses-made
            // scroll of the rows around y + shift, writing markers over pictures the writer believes shown.
            send(Array("\u{1B}7".utf8) + writer.scroll(band: scroll.band, shift: scroll.shift) + Array("\u{1B}8".utf8))
            let order = scroll.shift > 0 ? Array(scroll.band) : scroll.band.reversed()
            for y in order {
                if scroll.band.contains(y + scroll.shift) {
                    lg_copy_row(screen, Int32(y + scroll.shift), Int32(y), Int32(columns))
                } else {
                    lg_blank_row(screen, Int32(y), Int32(columns))
                }
            }
            for y in scroll.band { lg_forget_row_hash(window, screen, Int32(y), Int32(columns)) }
            wnoutrefresh(window)
        }
        rewriteAll = Self.curscesMightScroll(window: window, screen: screen, size: size, pictureRows: pictureRows)
        for y in pictureRows.sorted() {
            for x in 0..<columns where owned[y * columns + x] {
                lg_copy_cell(window, screen, Int32(y), Int32(x))
            }
        }
        if !rewriteAll, !clearComing, !scrolled { writeUncovered() }
    }

    /// Before `doupdate`: the picture cells that showed text in the last frame (a download line that got
    /// shorter, a mark or a panel that went). Written after curses' update like the rest, the old text stayed
    /// on screen beside the new one until then: a cell read "✓ playable █░ 99%" (badge34). Written first, the
    /// old text goes before the new comes. Not when curses clears or may move lines in this update (it would
    /// wipe or move them), nor after a scroll of our own (the old frame's cells moved).
    private func writeUncovered() {
        guard ownedOnScreen.count == owned.count else { return }
        let columns = writer.screenColumns
        let uncovered: (Int, Int) -> Bool = { [owned, ownedOnScreen] x, y in
            let index = y * columns + x
            return index < owned.count && owned[index] && !ownedOnScreen[index]
        }
        let cells = writer.paint(placements, isOwned: nil, onlyWhere: uncovered)
        guard !cells.isEmpty else { return }
        send(Array("\u{1B}7".utf8) + cells + Array("\u{1B}8".utf8))
    }

    /// True when curses' hash-based scroll could move lines in this update (hashmap.c): it pairs a new line
    /// with an old line at another row when both are unique and identical, grows that pair over neighbouring
    /// lines identical at the same shift, and moves only runs of 3 lines or more. Picture lines never pair
    /// (their markers differ from row to row), so this asks whether text lines could make such a run.
    static func curscesMightScroll(window: UnsafeMutablePointer<WINDOW>, screen: UnsafeMutablePointer<WINDOW>,
                                   size: TerminalSize, pictureRows: Set<Int>) -> Bool {
        let columns = Int32(size.columns)
        let old = (0..<size.rows).map { lg_row_hash(screen, Int32($0), columns) }
        let new = (0..<size.rows).map { pictureRows.contains($0) ? UInt64($0) &+ 0x9E37_79B9 : lg_row_hash(window, Int32($0), columns) }
        return CursesScrollPrediction.mightMoveLines(old: old, new: new)
    }

    /// After `doupdate`: the picture cells that changed.
    func write() {
        let columns = writer.screenColumns
        if rewriteAll { writer.forgetAll() }
        rewriteAll = false
        clearComing = false
        ownedOnScreen = owned
        let cells = writer.paint(placements, isOwned: { [owned] x, y in
            let index = y * columns + x
            return index < owned.count && owned[index]
        })
        placements.removeAll(keepingCapacity: true)
        guard !cells.isEmpty else { return }
        send(Array("\u{1B}7".utf8) + cells + Array("\u{1B}8".utf8))
    }

    /// The marker curses keeps for a picture cell on screen row `row`: a Braille pattern (one column wide)
    /// chosen by the row, so no two picture rows look alike to curses' line matching.
    /// In a locale that is not UTF-8 a printable ASCII character instead (curses would print a Braille one
    /// as `M-b...` whenever it writes a marker itself, after a clear): 94 of them, rows 94 apart alike.
    static func markerCharacter(row: Int) -> wchar_t {
        if TerminalTextEncoding.asciiOnly { return wchar_t(0x21 + row % 94) }
        return wchar_t(0x2800 + (row & 0xFF))
    }

    private func send(_ bytes: [UInt8]) {
        lastFrameBytes += bytes.count
        TerminalBytes.fileDescriptor(fd, meter: meter).send(bytes)
    }
}

/// The part of curses' scroll optimisation that decides whether any line moves, on line hashes (pure, tested).
enum CursesScrollPrediction {
    /// True when some run of 3 or more new lines equals old lines at one shift and starts from a line
    /// unique in both screens (curses' anchor).
    static func mightMoveLines(old: [UInt64], new: [UInt64]) -> Bool {
        guard old.count == new.count, !old.isEmpty else { return false }
        var oldCount: [UInt64: Int] = [:], newCount: [UInt64: Int] = [:], oldIndex: [UInt64: Int] = [:]
        for (row, hash) in old.enumerated() { oldCount[hash, default: 0] += 1; oldIndex[hash] = row }
        for hash in new { newCount[hash, default: 0] += 1 }
        for (row, hash) in new.enumerated() {
            guard oldCount[hash] == 1, newCount[hash] == 1, let from = oldIndex[hash], from != row else { continue }
            let shift = from - row
            var top = row, bottom = row
            while top - 1 >= 0, top - 1 + shift >= 0, new[top - 1] == old[top - 1 + shift] { top -= 1 }
            while bottom + 1 < new.count, bottom + 1 + shift < old.count, new[bottom + 1] == old[bottom + 1 + shift] { bottom += 1 }
            if bottom - top + 1 >= 3 { return true }
        }
        return false
    }
}
