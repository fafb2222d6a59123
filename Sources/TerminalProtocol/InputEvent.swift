/// Terminal input as events: what the decoder makes of the bytes a terminal sends.
public enum KeyEventType: Int, Sendable, Equatable {
    case press = 1, `repeat` = 2, release = 3
}

public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1)
    public static let alt = KeyModifiers(rawValue: 2)
    public static let ctrl = KeyModifiers(rawValue: 4)
    public static let `super` = KeyModifiers(rawValue: 8)

    /// From the xterm/kitty encoding "1 + bitmask".
    init(encoded: Int) { self.init(rawValue: max(0, encoded - 1) & 0xF) }
}

public enum Key: Sendable, Hashable {
    case character(Unicode.Scalar)
    case enter, escape, tab, backspace
    case up, down, left, right, home, end, pageUp, pageDown, insert, delete
    case function(Int)
}

public struct KeyEvent: Sendable, Hashable {
    public var key: Key
    public var modifiers: KeyModifiers
    public var type: KeyEventType
    public init(_ key: Key, modifiers: KeyModifiers = [], type: KeyEventType = .press) {
        self.key = key
        self.modifiers = modifiers
        self.type = type
    }
}

public enum MouseButton: Sendable, Hashable {
    case left, middle, right, wheelUp, wheelDown, none
}

public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case press, release, motion }
    public var button: MouseButton
    public var kind: Kind
    /// Zero-based cell column and row.
    public var column: Int
    public var row: Int
    public var modifiers: KeyModifiers
    public init(button: MouseButton, kind: Kind, column: Int, row: Int, modifiers: KeyModifiers = []) {
        self.button = button
        self.kind = kind
        self.column = column
        self.row = row
        self.modifiers = modifiers
    }
}

public enum InputEvent: Sendable, Hashable {
    case key(KeyEvent)
    case mouse(MouseEvent)
    /// Reply to `CSI ? u`: the kitty keyboard protocol flags in force (the terminal supports the protocol).
    case keyboardProtocolFlags(Int)
    /// Reply to DA1 (`CSI c`): attributes; 4 means sixel graphics.
    case primaryDeviceAttributes([Int])
    /// Reply to `CSI 14 t` (text area in pixels) or `CSI 16 t` (cell size in pixels): (height, width).
    case textAreaPixels(height: Int, width: Int)
    case cellPixels(height: Int, width: Int)
    /// Reply to XTSMGRAPHICS (`CSI ? item ; action ; value S`): `CSI ? item ; status ; values S`, status 0
    /// meaning success. Item 2 with values [width, height] is the largest sixel picture the terminal shows.
    case graphicsAttribute(item: Int, status: Int, values: [Int])
    /// Reply to DSR `CSI 6 n`: the cursor's row and column (1-based). The link meter's round trip (issue 28.4)
    /// asks it after a batch of pictures: its arrival says the terminal has parsed every byte before it.
    /// xterm's modified F3 (`CSI 1 ; 2 R`) has the same form; it was never a key here either.
    case cursorPosition(row: Int, column: Int)
    /// An APC reply such as the kitty graphics query's `_Gi=31;OK`.
    case applicationReply(String)
    /// A DCS reply (DECRQSS `1$r…`, XTGETTCAP `1+r…`, XTVERSION `>|…`): its body between `ESC P` and ST.
    case deviceControlReply(String)
    /// An OSC reply (a colour query's `11;rgb:…`): its body between `ESC ]` and ST or BEL.
    case operatingSystemReply(String)
    case focus(Bool)
    /// Bytes the decoder does not understand (never dropped silently: a caller may log them).
    case unknown([UInt8])
}

extension InputEvent {
    /// Something the user did (a key, the mouse, focus in or out), as opposed to the terminal's answer to a
    /// query or bytes nobody understood: only these may ever reach the keymap.
    public var isInput: Bool {
        switch self {
        case .key, .mouse, .focus: return true
        default: return false
        }
    }

    /// A key the user typed (not an answer of the terminal): what the start-up reply reader hands on to the
    /// main loop instead of dropping it (keys typed while livegrid starts, before curses' first read).
    public var typedKey: KeyEvent? {
        guard case .key(let key) = self, key.type != .release else { return nil }
        return key
    }
}
