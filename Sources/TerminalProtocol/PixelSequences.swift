/// The bytes the tty writer sends around protocol images. Pure, so the exact sequences are unit-tested.
public enum PixelSequences {
    /// DECSC: saves the cursor position and attributes.
    public static let saveCursor: [UInt8] = [0x1B, UInt8(ascii: "7")]
    /// DECRC: restores what `saveCursor` saved.
    public static let restoreCursor: [UInt8] = [0x1B, UInt8(ascii: "8")]

    /// `CSI row ; column H` for a zero-based cell.
    public static func moveCursor(row: Int, column: Int) -> [UInt8] {
        Array("\u{1B}[\(row + 1);\(column + 1)H".utf8)
    }

    /// Save the cursor, move to the cell, write the payload, restore: curses' idea of the cursor is unchanged.
    public static func positioned(_ payload: [UInt8], row: Int, column: Int) -> [UInt8] {
        saveCursor + moveCursor(row: row, column: column) + payload + restoreCursor
    }

    /// chafa's kitty output (`ESC _G a=T,f=32,s=..,v=..,c=..,r=..,m=1 ESC \` then chunks) with an image id and
    /// placement id added to its first command, replies suppressed (`q=2`: a reply would arrive as typed
    /// keys) and the cursor left where it is (`C=1`: a picture on the bottom rows never scrolls the screen).
    public static func kittyTransmit(_ chafaBytes: [UInt8], id: UInt32) -> [UInt8] {
        let prefix: [UInt8] = [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")]
        guard chafaBytes.count > prefix.count, Array(chafaBytes.prefix(prefix.count)) == prefix else { return chafaBytes }
        return prefix + Array("i=\(id),p=1,q=2,C=1,".utf8) + chafaBytes.dropFirst(prefix.count)
    }

    /// Shows an image already transmitted at the cursor; the same image and placement id replace the old
    /// placement, so a picture that moved is never shown twice.
    public static func kittyPlace(id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=p,i=\(id),p=1,q=2,C=1\u{1B}\\".utf8)
    }

    /// Deletes the placements of one image and keeps its data for a later `kittyPlace`.
    public static func kittyDelete(id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=i,i=\(id),q=2\u{1B}\\".utf8)
    }

    /// Deletes an image and frees its data in the terminal.
    public static func kittyFree(id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
    }

    /// Deletes every placement on the screen (after a clear, or on exit).
    public static let kittyDeleteAll: [UInt8] = Array("\u{1B}_Ga=d,d=a,q=2\u{1B}\\".utf8)

    /// Wraps a protocol sequence for tmux passthrough (`allow-passthrough on`, tmux ≥ 3.3).
    public static func tmuxPassthrough(_ bytes: [UInt8], depth: Int = 1) -> [UInt8] {
        TmuxPassthrough.wrap(bytes, depth: depth)
    }

    /// Erases sixel/iTerm2 pixels on the terminal outside tmux. Outside tmux curses repaints the cells to
    /// erase a picture, but tmux sends the outer terminal only cells whose text changed, and the blank
    /// cells under a picture do not change: the pixels would stay. So each row of each rect is erased with
    /// ECH (`CSI n X`, default colours) through passthrough, before curses' update writes any new text.
    /// (The UI's `CellRect` overload, in TerminalUI, maps its rects to `CellBox`.)
    public static func eraseThroughTmux(_ rects: [CellBox], target: TmuxPassthroughTarget) -> [UInt8] {
        guard !rects.isEmpty else { return [] }
        var inner = saveCursor + Array("\u{1B}[0m".utf8)
        for rect in rects where rect.width > 0 {
            for row in rect.y..<(rect.y + rect.height) {
                inner += moveCursor(row: target.originRow + row, column: target.originColumn + rect.x)
                inner += Array("\u{1B}[\(rect.width)X".utf8)
            }
        }
        inner += restoreCursor
        return TmuxPassthrough.wrap(inner, depth: target.depth)
    }

    /// A picture for the terminal outside tmux: save cursor, absolute move to the pane's cell shifted by the
    /// pane's origin, payload, restore — all inside the passthrough wrapper, so the outer terminal's cursor
    /// (not tmux's idea of the pane's cursor) is moved and put back. Long payloads (kitty chunks) are split
    /// into several wrappers, each below tmux's 1 MiB limit.
    public static func positionedThroughTmux(_ payload: [UInt8], row: Int, column: Int,
                                             target: TmuxPassthroughTarget) -> [UInt8] {
        let inner = positioned(payload, row: target.originRow + row, column: target.originColumn + column)
        return TmuxPassthrough.wrapInPieces(inner, depth: target.depth).flatMap { $0 }
    }
}

/// A rectangle of cells, zero-based (x: column, y: row): what the escape-sequence writers need to know of the
/// screen geometry, so that this module does not depend on BrowserCore's layout types.
public struct CellBox: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }
}
