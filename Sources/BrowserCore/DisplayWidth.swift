/// Terminal column widths of text, without relying on the C locale (tests run with none set).
public enum DisplayWidth {
    /// Columns a scalar takes: 0 for combining marks and zero-width characters, 2 for East Asian wide and
    /// emoji ranges, 1 otherwise.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
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

    public static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    /// `text` cut to at most `width` columns, ending in "…" when cut; control characters become "?" so a
    /// hostile file name cannot move the cursor.
    public static func fit(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            cleaned.append(scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                           ? "?" : scalar)
        }
        let safe = String(cleaned)
        if of(safe) <= width { return safe }
        var result = String.UnicodeScalarView()
        var used = 0
        for scalar in safe.unicodeScalars {
            let w = of(scalar)
            if used + w > width - 1 { break }
            result.append(scalar)
            used += w
        }
        return String(result) + "…"
    }

    /// `text` fitted and padded with spaces to exactly `width` columns.
    public static func pad(_ text: String, width: Int) -> String {
        let fitted = fit(text, width: width)
        return fitted + String(repeating: " ", count: max(0, width - of(fitted)))
    }

    /// `text` broken into lines of at most `width` columns, at most `maxLines` of them (the last one ends in
    /// "…" when more was left). Breaks after a space, "/", "-" or "," when one falls in the second half
    /// of the line, so paths and identifiers split where a reader expects; otherwise mid-word. Control
    /// characters become "?" as in `fit`.
    public static func wrap(_ text: String, width: Int, maxLines: Int = .max) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        var remaining = Array(fit(text, width: Int.max).unicodeScalars)
        var lines: [String] = []
        while !remaining.isEmpty {
            if lines.count == maxLines - 1 {
                lines.append(fit(String(String.UnicodeScalarView(remaining)), width: width))
                break
            }
            var used = 0, end = 0, lastBreak: Int? = nil
            while end < remaining.count, used + of(remaining[end]) <= width {
                used += of(remaining[end])
                if " /-,".unicodeScalars.contains(remaining[end]) { lastBreak = end + 1 }
                end += 1
            }
            if end < remaining.count, let lastBreak, lastBreak * 2 >= end { end = lastBreak }
            end = max(end, 1)   // a scalar wider than the line still moves on
            let line = String(String.UnicodeScalarView(remaining[..<end]))
            lines.append(line.hasSuffix(" ") ? String(line.dropLast()) : line)
            remaining.removeFirst(end)
            while remaining.first == " " { remaining.removeFirst() }
        }
        return lines
    }
}
