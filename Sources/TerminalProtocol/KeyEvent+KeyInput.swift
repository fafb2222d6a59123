extension KeyEvent {
    /// The legacy key this kitty key event stands for (what the keymap knows), or nil. Without the
    /// "alternate keys" flag a shifted key arrives as its base key plus Shift: letters are upper-cased and
    /// the US layout's shifted symbols assumed.
    public var keyInput: KeyInput? {
        switch key {
        case .up: return .up
        case .down: return .down
        case .left: return .left
        case .right: return .right
        case .pageUp: return .pageUp
        case .pageDown: return .pageDown
        case .home: return .home
        case .end: return .end
        case .enter: return .enter
        case .escape: return .escape
        case .tab: return .tab
        case .backspace: return .backspace
        case .function(let n): return .function(n)
        case .insert, .delete: return nil
        case .character(let scalar):
            if modifiers.contains(.ctrl), (0x61...0x7A).contains(scalar.value), let control = Unicode.Scalar(scalar.value & 0x1F) {
                return .character(Character(control))
            }
            if modifiers.contains(.shift) {
                if (0x61...0x7A).contains(scalar.value), let upper = Unicode.Scalar(scalar.value - 0x20) {
                    return .character(Character(upper))
                }
                if let shifted = Self.usShifted[Character(scalar)] { return .character(shifted) }
            }
            return .character(Character(scalar))
        }
    }

    private static let usShifted: [Character: Character] = [
        "1": "!", "2": "@", "3": "#", "4": "$", "5": "%", "6": "^", "7": "&", "8": "*", "9": "(", "0": ")",
        "-": "_", "=": "+", "[": "{", "]": "}", "\\": "|", ";": ":", "'": "\"", ",": "<", ".": ">", "/": "?",
        "`": "~",
    ]
}
