import CNCurses

/// The other spellings of the navigation keys, taught to ncurses (`define_key`) where the terminfo entry in use
/// does not list them. Over SSH a user often has TERM=xterm while the real terminal is tmux or screen, which
/// send Home and End as ESC [ 1 ~ and ESC [ 4 ~ where xterm's entry says ESC O H and ESC O F: ncurses then
/// handed over ESC, "[", "4", "~" one by one, and "[" asked to rotate the photo. A spelling the entry already
/// binds (to any key) is left alone.
enum AlternateKeySequences {
    static let sequences: [(String, Int32)] = [
        ("\u{1B}[1~", KEY_HOME), ("\u{1B}[7~", KEY_HOME), ("\u{1B}[H", KEY_HOME), ("\u{1B}OH", KEY_HOME),
        ("\u{1B}[4~", KEY_END), ("\u{1B}[8~", KEY_END), ("\u{1B}[F", KEY_END), ("\u{1B}OF", KEY_END),
        ("\u{1B}[3~", KEY_DC), ("\u{1B}[5~", KEY_PPAGE), ("\u{1B}[6~", KEY_NPAGE),
        ("\u{1B}[A", KEY_UP), ("\u{1B}[B", KEY_DOWN), ("\u{1B}[C", KEY_RIGHT), ("\u{1B}[D", KEY_LEFT),
        ("\u{1B}OA", KEY_UP), ("\u{1B}OB", KEY_DOWN), ("\u{1B}OC", KEY_RIGHT), ("\u{1B}OD", KEY_LEFT),
    ]

    /// Call after `keypad(…, true)`.
    static func install() {
        for (sequence, key) in sequences where key_defined(sequence) == 0 {
            _ = define_key(sequence, key)
        }
    }

    /// After an ESC that ncurses did not match: the rest of an escape sequence that is already waiting
    /// (CSI "ESC [" or SS3 "ESC O", then parameters up to a final byte), read and dropped so that its bytes
    /// are not taken for keys. False when what follows the ESC is not a sequence (an Escape key press): the
    /// byte read is given back.
    static func dropUnknownSequence(_ window: UnsafeMutablePointer<WINDOW>) -> Bool {
        wtimeout(window, 0)
        var character: wint_t = 0
        guard wget_wch(window, &character) == OK else { return false }
        guard character == wint_t(UInt8(ascii: "[")) || character == wint_t(UInt8(ascii: "O")) else {
            _ = unget_wch(wchar_t(character))
            return false
        }
        // Parameters and intermediates are 0x20-0x3F; a final byte 0x40-0x7E ends it (bounded: a hostile stream
        // cannot keep this loop reading).
        for _ in 0..<32 {
            guard wget_wch(window, &character) == OK else { return true }
            if character >= 0x40 && character <= 0x7E { return true }
        }
        return true
    }
}
