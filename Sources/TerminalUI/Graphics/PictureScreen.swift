import BrowserCore
import CNCurses

/// What curses believes the terminal shows in one cell.
enum ShownCell: Equatable {
    /// A picture cell's marker (pixels drawn over it, as far as curses knows nothing to write).
    case marker
    /// A space with no attributes and default colours.
    case blank
    /// Anything else (text, coloured cells, or a line curses forgot).
    case text
}

/// What the sixel and iTerm2 outputs need of curses: the frame being drawn (the window) and what curses
/// believes the terminal shows (curscr). Behind a protocol so each output is tested against a recording
/// screen, without a terminal.
///
/// Why markers: curses erases with whole-line shortcuts (EL, EL1, ECH) wherever the rest of a line is
/// blank, and rewrites short unchanged runs instead of moving the cursor; either wipes pixels beside the
/// cells that really changed. A picture's cells hold a marker (DirectCellOutput's: a Braille glyph chosen
/// by the row, with A_INVIS) in the frame and, once drawn, in curscr: curses then has nothing to write
/// there, can use no line erase across them, and a picture is drawn again only when curses really writes
/// its cells.
protocol PictureScreen: AnyObject {
    /// Puts markers into the frame over `rect`.
    func reserve(_ rect: CellRect)
    func shown(x: Int, y: Int) -> ShownCell
    /// Tells curses the frame's cell (a marker) is already on the terminal: it writes nothing there.
    func markShown(x: Int, y: Int)
    /// For each of `rows`, the columns where the frame differs from what curses believes shown (what the
    /// next update writes), ascending; rows without a difference are left out.
    func changedColumns(rows: Set<Int>) -> [Int: [Int]]
    /// Curses forgets what every line shows and writes each afresh (no line of pixels is ever scrolled).
    func forgetAllLines()
    /// Hands the frame, changed by the output, to curses' update.
    func commit()
}

/// The curses screen: stdscr and curscr.
final class CursesPictureScreen: PictureScreen {
    let window: UnsafeMutablePointer<WINDOW>

    init(window: UnsafeMutablePointer<WINDOW>) {
        self.window = window
    }

    func reserve(_ rect: CellRect) {
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                lg_put_cell(window, Int32(y), Int32(x), DirectCellOutput.markerCharacter(row: y),
                            DirectCellOutput.markerAttribute, 0)
            }
        }
    }

    func shown(x: Int, y: Int) -> ShownCell {
        guard let screen = curscr else { return .text }
        // Reading moves curscr's cursor, curses' idea of where the terminal's is: put it back.
        let (row, column) = (getcury(screen), getcurx(screen))
        defer { wmove(screen, row, column) }
        var cell = cchar_t()
        guard mvwin_wch(screen, Int32(y), Int32(x), &cell) != ERR else { return .text }
        var text = [wchar_t](repeating: 0, count: 8)
        var attributes: attr_t = 0
        var pair: Int16 = 0
        guard getcchar(&cell, &text, &attributes, &pair, nil) != ERR else { return .text }
        if attributes & DirectCellOutput.markerAttribute != 0 { return .marker }
        return text[0] == 0x20 && text[1] == 0 && attributes == 0 && pair == 0 ? .blank : .text
    }

    func markShown(x: Int, y: Int) {
        guard let screen = curscr else { return }
        lg_copy_cell(window, screen, Int32(y), Int32(x))
    }

    func changedColumns(rows: Set<Int>) -> [Int: [Int]] {
        CursesRowChanges.columns(rows, window: window, columns: Int(getmaxx(window)))
    }

    func forgetAllLines() {
        for row in 0..<Int(getmaxy(window)) { wredrawln(window, Int32(row), 1) }
    }

    func commit() { wnoutrefresh(window) }
}
