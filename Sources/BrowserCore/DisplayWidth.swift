import MediaFormats

/// Terminal column widths of text, without relying on the C locale (tests run with none set).
public enum DisplayWidth {
    /// Columns a scalar takes: 0 for combining marks and zero-width characters, 2 for East Asian wide and
    /// emoji ranges, 1 otherwise.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        VisibleText.columns(scalar)
    }

    public static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    /// `text` cut to at most `width` columns, ending in "…" when cut; control characters become "?" so a
    /// hostile file name cannot move the cursor
    /// (bidi controls too, so it cannot reorder the line).
    public static func fit(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            // Bytes of a non-UTF-8 name show as U+FFFD, every other character `VisibleText` escapes as "?".
            cleaned.append(VisibleText.isRawByte(scalar) ? "\u{FFFD}" : VisibleText.needsEscape(scalar) ? "?" : scalar)
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
