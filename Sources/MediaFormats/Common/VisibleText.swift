/// Text made safe for a terminal, the way GNU `ls -b` shows file names: a name is data, and data must never
/// reach the terminal as a control sequence (`ESC ] 2 ;` sets the window title, `ESC [ 2 J` clears the
/// screen, a lone C1 0x9B is a CSI on some terminals, U+202E turns the rest of the line around).
///
/// Every human-readable line livegrid prints goes through `escaped` at the print edge; JSON output does not
/// (the encoder already escapes control characters and keeps the name exact).
public enum VisibleText {
    /// `text` with every control character, bidi control and line separator written as a visible, inert
    /// escape (`\e`, `\n`, `\t`, `\r`, `\x07`, `\u009B`, `\u202E`), and every byte of a file name that was
    /// not valid UTF-8 (see `PathBytes`) as U+FFFD. Idempotent: escaping escaped text changes nothing.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let replacement = escape(scalar) {
                result.append(contentsOf: replacement.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether `scalar` must not reach a terminal as it is.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || isBidiControl(value)
            || value == 0x2028 || value == 0x2029 || PathBytes.escapeRange.contains(value)
    }

    /// U+061C, U+200E/F, U+202A-E, U+2066-9: they reorder what follows on screen (Trojan Source).
    public static func isBidiControl(_ value: UInt32) -> Bool {
        value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }

    /// Whether `scalar` stands for a raw byte of a non-UTF-8 file name.
    public static func isRawByte(_ scalar: Unicode.Scalar) -> Bool {
        PathBytes.escapeRange.contains(scalar.value)
    }

    /// Terminal columns a scalar takes: 0 for combining marks, zero-width and control characters, 2 for East
    /// Asian wide and emoji ranges, 1 otherwise (without the C locale, which tests run without).
    public static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 || (0x0300...0x036F).contains(value) || (0x200B...0x200F).contains(value)
            || (0xFE00...0xFE0F).contains(value) || (0x20D0...0x20FF).contains(value) {
            return 0
        }
        if value < 0x20 || value == 0x7F { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    public static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    /// `text` escaped, cut to at most `width` columns (ending in "…" when cut) and padded with spaces to
    /// exactly `width`: a table column that never runs into the next one.
    public static func column(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        let safe = escaped(text)
        var used = columns(safe)
        if used > width {
            var cut = String.UnicodeScalarView()
            used = 0
            for scalar in safe.unicodeScalars {
                let w = columns(scalar)
                if used + w > width - 1 { break }
                cut.append(scalar)
                used += w
            }
            return String(cut) + "…" + String(repeating: " ", count: max(0, width - 1 - used))
        }
        return safe + String(repeating: " ", count: width - used)
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        guard needsEscape(scalar) else { return nil }
        let value = scalar.value
        if PathBytes.escapeRange.contains(value) { return "\u{FFFD}" }
        switch value {
        case 0x0A: return "\\n"
        case 0x09: return "\\t"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        case 0..<0x80: return "\\x" + hex(value, digits: 2)
        default: return "\\u" + hex(value, digits: 4)
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
