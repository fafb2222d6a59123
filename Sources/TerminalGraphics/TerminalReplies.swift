/// What the terminal answered to livegrid's one-time probe (kitty graphics query, `CSI 16 t`, `CSI 14 t`,
/// then DA1), parsed from the raw bytes. Pure, so detection is unit-tested with recorded replies.
public struct TerminalReplies: Sendable, Hashable {
    /// DA1 attributes (`CSI ? 62 ; 4 ; 22 c` → [62, 4, 22]); attribute 4 means sixel graphics.
    public var primaryDeviceAttributes: [Int]?
    /// The kitty graphics query (`ESC _ G i=31 ...`) was answered with OK.
    public var kittyGraphicsOK: Bool
    /// `CSI 6 ; height ; width t`: the cell size in pixels.
    public var cellPixelSize: PixelSizeInCells?
    /// `CSI 4 ; height ; width t`: the text area in pixels.
    public var windowPixelSize: PixelSizeInCells?
    /// `CSI ? flags u`: the kitty keyboard protocol's current flags (nil: the terminal does not speak it).
    /// Asked in the same probe so the browser pays one round trip at start-up, not two (it matters over SSH).
    public var keyboardProtocolFlags: Int?

    public init(primaryDeviceAttributes: [Int]? = nil, kittyGraphicsOK: Bool = false,
                cellPixelSize: PixelSizeInCells? = nil, windowPixelSize: PixelSizeInCells? = nil)
    {
        self.primaryDeviceAttributes = primaryDeviceAttributes
        self.kittyGraphicsOK = kittyGraphicsOK
        self.cellPixelSize = cellPixelSize
        self.windowPixelSize = windowPixelSize
    }

    /// No replies at all (not a tty, or a terminal that answers nothing before the deadline).
    public static let none = TerminalReplies()

    public var supportsSixel: Bool { primaryDeviceAttributes?.contains(4) ?? false }

    /// The probe sequence to send: kitty graphics query, cell size, window size, kitty keyboard flags, then
    /// DA1 (every terminal answers DA1, so its reply ends the wait).
    public static let probeSequence = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[16t\u{1B}[14t\u{1B}[?u\u{1B}[c"

    /// The probe sent through tmux passthrough to the terminal outside: the same without the kitty keyboard
    /// query (keys come from tmux, which does not speak that protocol).
    public static let passthroughProbeSequence = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[16t\u{1B}[14t\u{1B}[c"

    /// Parses whatever arrived; unknown bytes are ignored.
    public static func parse(_ bytes: [UInt8]) -> TerminalReplies {
        var replies = TerminalReplies()
        var i = 0
        func number(_ s: Substring) -> Int? { Int(s) }
        while i < bytes.count {
            guard bytes[i] == 0x1B, i + 1 < bytes.count else { i += 1; continue }
            if bytes[i + 1] == UInt8(ascii: "[") {
                // CSI params final
                var j = i + 2
                while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { break }
                let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                let final = bytes[j]
                if final == UInt8(ascii: "c"), params.hasPrefix("?") {
                    replies.primaryDeviceAttributes = params.dropFirst().split(separator: ";").compactMap(number)
                } else if final == UInt8(ascii: "u"), params.hasPrefix("?") {
                    replies.keyboardProtocolFlags = number(params.dropFirst()) ?? 0
                } else if final == UInt8(ascii: "t") {
                    let fields = params.split(separator: ";").compactMap(number)
                    if fields.count == 3, fields[1] > 0, fields[2] > 0 {
                        let size = PixelSizeInCells(width: fields[2], height: fields[1])
                        if fields[0] == 6 { replies.cellPixelSize = size }
                        if fields[0] == 4 { replies.windowPixelSize = size }
                    }
                }
                i = j + 1
            } else if bytes[i + 1] == UInt8(ascii: "_") {
                // APC ... ST
                var j = i + 2
                while j + 1 < bytes.count, !(bytes[j] == 0x1B && bytes[j + 1] == UInt8(ascii: "\\")) { j += 1 }
                let body = String(decoding: bytes[(i + 2)..<min(j, bytes.count)], as: UTF8.self)
                if body.hasPrefix("G"), body.contains("i=31"), body.hasSuffix(";OK") { replies.kittyGraphicsOK = true }
                i = j + 2
            } else {
                i += 1
            }
        }
        return replies
    }
}

/// A width and height in pixels (kept separate from Imaging's PixelSize so this file stays dependency-free).
public struct PixelSizeInCells: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
