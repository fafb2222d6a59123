import CNCurses

/// Which screen rows curses' next `doupdate` will write to. Curses erases with whole-line shortcuts (EL,
/// EL1, ECH) that wipe sixel pixels outside the cells that changed, so a picture on such a row is drawn
/// again after the update.
enum CursesRowChanges {
    /// Rows among `candidates` where the window's content differs from what curses believes is on screen.
    static func rows(_ candidates: Set<Int>, window: UnsafeMutablePointer<WINDOW>, columns: Int) -> Set<Int> {
        guard columns > 0, let screen = curscr else { return [] }
        var wanted = [cchar_t](repeating: cchar_t(), count: columns + 1)
        var shown = [cchar_t](repeating: cchar_t(), count: columns + 1)
        var changed: Set<Int> = []
        for row in candidates {
            let a = mvwin_wchnstr(window, Int32(row), 0, &wanted, Int32(columns))
            let b = mvwin_wchnstr(screen, Int32(row), 0, &shown, Int32(columns))
            guard a != ERR, b != ERR else {
                changed.insert(row)
                continue
            }
            let same = wanted.withUnsafeBytes { x in shown.withUnsafeBytes { y in x.elementsEqual(y) } }
            if !same { changed.insert(row) }
        }
        return changed
    }
}
