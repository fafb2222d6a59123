/// One key press as the front end decoded it, independent of curses key codes.
public enum KeyInput: Sendable, Hashable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab, delete
    case function(Int)

    /// Parses a key name as written in the config file: a single character, a name (`Up`, `PageDown`,
    /// `Enter`, `Esc`, `Space`, `Tab`, `Backspace`, `Home`, `End`, `F1`...`F12`) or `Ctrl-x`.
    public init?(name: String) {
        let lowered = name.lowercased()
        switch lowered {
        case "up": self = .up
        case "down": self = .down
        case "left": self = .left
        case "right": self = .right
        case "pageup", "pgup": self = .pageUp
        case "pagedown", "pgdn": self = .pageDown
        case "home": self = .home
        case "end": self = .end
        case "enter", "return": self = .enter
        case "esc", "escape": self = .escape
        case "backspace": self = .backspace
        case "tab": self = .tab
        case "delete", "del": self = .delete
        case "space": self = .character(" ")
        default:
            if name.count == 1, let character = name.first {
                self = .character(character)
            } else if lowered.hasPrefix("ctrl-"), lowered.count == 6, let letter = lowered.unicodeScalars.last,
                      letter.value >= 0x61, letter.value <= 0x7A,
                      let control = Unicode.Scalar(letter.value & 0x1F) {
                self = .character(Character(control))
            } else if lowered.hasPrefix("f"), let number = Int(lowered.dropFirst()), (1...24).contains(number) {
                self = .function(number)
            } else {
                return nil
            }
        }
    }
}
