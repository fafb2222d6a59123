import BrowserCore
import CNCurses

/// Which cells curses' next `doupdate` writes, and whether that reaches a picture's pixels.
enum CursesRowChanges {
    /// ncurses writes an unchanged run between two changes instead of moving the cursor when the run is
    /// no longer than a cursor move costs (`_inline_cost`, a CUP of at most ~10 bytes; tty_update.c's
    /// PutRange). A picture inside a run that short is overwritten; twice the cost leaves a margin.
    static let rewrittenRunLimit = 20

    /// For each of `candidates`, the columns where the window differs from what curses believes is on
    /// screen (curscr), ascending.
    static func columns(_ candidates: Set<Int>, window: UnsafeMutablePointer<WINDOW>, columns: Int) -> [Int: [Int]] {
        guard columns > 0, let screen = curscr else { return [:] }
        var wanted = [cchar_t](repeating: cchar_t(), count: columns + 1)
        var shown = [cchar_t](repeating: cchar_t(), count: columns + 1)
        let stride = MemoryLayout<cchar_t>.stride
        var changed: [Int: [Int]] = [:]
        for row in candidates {
            let a = mvwin_wchnstr(window, Int32(row), 0, &wanted, Int32(columns))
            let b = mvwin_wchnstr(screen, Int32(row), 0, &shown, Int32(columns))
            guard a != ERR, b != ERR else {
                changed[row] = Array(0..<columns)
                continue
            }
            let differing = wanted.withUnsafeBytes { x in
                shown.withUnsafeBytes { y in
                    (0..<columns).filter { column in
                        let range = (column * stride)..<((column + 1) * stride)
                        return !x[range].elementsEqual(y[range])
                    }
                }
            }
            if !differing.isEmpty { changed[row] = differing }
        }
        return changed
    }

    /// Whether an update writing `changed` (columns per row) writes into `rect`: a changed cell inside it,
    /// or changes on both sides of it close enough that curses rewrites the unchanged run between them.
    /// Line erases cannot reach it: its marker cells are never blank.
    static func overwrites(_ rect: CellRect, changed: [Int: [Int]]) -> Bool {
        for row in rect.y..<(rect.y + rect.height) {
            guard let columns = changed[row] else { continue }
            let left = columns.last { $0 < rect.x }
            let right = columns.first { $0 >= rect.x }
            if let right, right < rect.x + rect.width { return true }
            if let left, let right, right - left - 1 <= rewrittenRunLimit { return true }
        }
        return false
    }
}
