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
}
