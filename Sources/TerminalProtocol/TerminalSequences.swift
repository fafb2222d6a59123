/// The escape sequences livegrid writes to switch terminal input modes (kept in one place so the browser, the
/// signal handlers and the tests agree on the bytes).
public enum TerminalSequences {
    /// Kitty keyboard protocol: push flags 11 (disambiguate 1 | event types 2 | all keys as escapes 8).
    public static let kittyKeyboardPush = "\u{1B}[>11u"
    /// Kitty keyboard protocol: pop the flags pushed.
    public static let kittyKeyboardPop = "\u{1B}[<u"
    /// Asks the kitty keyboard flags (`CSI ? u`), then DA1, which every terminal answers.
    public static let kittyKeyboardQuery = "\u{1B}[?u\u{1B}[c"
    /// Button press/release reports in SGR form (1000 + 1006): curses does not decode the mouse in raw mode.
    public static let sgrMouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
    public static let sgrMouseOff = "\u{1B}[?1006l\u{1B}[?1000l"
    /// Button-event tracking (1002): motion is reported too, but only while a button is held, so a still
    /// pointer or one moved with no button sends nothing. Switched on while the viewer is zoomed (drag to pan).
    public static let buttonMotionOn = "\u{1B}[?1002h"
    /// Back to press/release only. Resetting any of 1000/1002/1003 switches mouse reports off in xterm and
    /// tmux, so 1000 is set again after it (1006, the SGR form, is a separate mode and stays).
    public static let buttonMotionOff = "\u{1B}[?1002l\u{1B}[?1000h"

    /// DSR 6 (cursor position report): every terminal answers `CSI row ; column R`, after it has parsed every
    /// byte written before the query (the link meter's round trip, issue 28.4).
    public static let cursorPositionQuery: [UInt8] = Array("\u{1B}[6n".utf8)

    /// CUP with no parameters: the cursor to the top-left cell.
    public static let cursorHome: [UInt8] = Array("\u{1B}[H".utf8)

    /// DECSTBM: the scroll region is screen rows `rows` (zero-based, inclusive); the terminal homes the cursor.
    public static func scrollRegion(rows: ClosedRange<Int>) -> [UInt8] {
        Array("\u{1B}[\(rows.lowerBound + 1);\(rows.upperBound + 1)r".utf8)
    }

    /// DECSTBM with no rows: the scroll region is the whole screen again (the cursor is homed).
    public static let resetScrollRegion: [UInt8] = Array("\u{1B}[r".utf8)

    /// SU (`CSI n S`) for `shift` > 0: the region's text moves up `shift` rows; SD (`CSI n T`) for `shift` < 0.
    /// Nothing for 0 (`CSI 0 S` would scroll one row).
    public static func scroll(by shift: Int) -> [UInt8] {
        guard shift != 0 else { return [] }
        return Array("\u{1B}[\(abs(shift))\(shift > 0 ? "S" : "T")".utf8)
    }
}
