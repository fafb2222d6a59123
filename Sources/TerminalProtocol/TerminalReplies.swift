/// What the terminal answered to livegrid's one-time probe (kitty graphics query, `CSI 16 t`, `CSI 14 t`,
/// XTSMGRAPHICS, then DA1), parsed from the raw bytes. Pure, so detection is unit-tested with recorded replies.
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
    /// XTSMGRAPHICS `CSI ? 2 ; 0 ; width ; height S`: the largest sixel picture the terminal shows (xterm
    /// shows nothing at all of a bigger one: its maxGraphicSize, 1000x1000 by default). Nil: no answer.
    public var maxSixelSize: PixelSizeInCells?

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
    public static let probeSequence = probe(kittyGraphics: true, keyboard: true)

    /// The probe sent through tmux passthrough to the terminal outside: the same without the kitty keyboard
    /// query (keys come from tmux, which does not speak that protocol).
    public static let passthroughProbeSequence = probe(kittyGraphics: true, keyboard: false)

    /// The kitty graphics query alone (an APC, which terminals that do not know it ignore, but tmux does not).
    public static let kittyGraphicsQuery = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"

    /// XTSMGRAPHICS "read the maximum sixel geometry" (item 2, action 1). A plain CSI, which terminals that
    /// do not know it parse and drop; tmux 3.3a drops it too (it has no sixel to limit).
    public static let maxSixelSizeQuery = "\u{1B}[?2;1;0S"

    /// The probe with or without the kitty graphics query and the kitty keyboard query; DA1 always last.
    public static func probe(kittyGraphics: Bool, keyboard: Bool) -> String {
        (kittyGraphics ? kittyGraphicsQuery : "") + "\u{1B}[16t\u{1B}[14t" + (keyboard ? "\u{1B}[?u" : "")
            + maxSixelSizeQuery + "\u{1B}[c"
    }

    /// Whether the kitty graphics query may be sent unwrapped (issue 31.6): not when TERM names tmux or
    /// screen, or TMUX is set. tmux without passthrough shows an APC it does not know as the pane's title
    /// (the query's text in the status line and in the window list), and over ssh, where TMUX is not
    /// forwarded, nothing tells livegrid how to wrap it. The query is only sent when it cannot do that.
    public static func mayAskKittyGraphicsUnwrapped(environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        if term.hasPrefix("tmux") || term.hasPrefix("screen") { return false }
        return (environment["TMUX"] ?? "").isEmpty
    }

    /// Parses whatever arrived with the one terminal input decoder (`InputDecoder`, which also decodes the
    /// keys); keys, unknown bytes and an unfinished sequence at the end are ignored.
    public static func parse(_ bytes: [UInt8]) -> TerminalReplies {
        var decoder = InputDecoder()
        var replies = TerminalReplies()
        for event in decoder.feed(bytes) { replies.record(event) }
        return replies
    }

    /// Takes in one decoded event; returns true for the DA1 reply, which every terminal sends last (the
    /// probe's answer is complete then). Keys and other events change nothing.
    @discardableResult
    public mutating func record(_ event: InputEvent) -> Bool {
        switch event {
        case .primaryDeviceAttributes(let attributes):
            primaryDeviceAttributes = attributes
            return true
        case .keyboardProtocolFlags(let flags):
            keyboardProtocolFlags = flags
        case .cellPixels(let height, let width) where height > 0 && width > 0:
            cellPixelSize = PixelSizeInCells(width: width, height: height)
        case .textAreaPixels(let height, let width) where height > 0 && width > 0:
            windowPixelSize = PixelSizeInCells(width: width, height: height)
        case .graphicsAttribute(item: 2, status: 0, let values) where values.count >= 2 && values[0] > 0 && values[1] > 0:
            maxSixelSize = PixelSizeInCells(width: values[0], height: values[1])
        case .applicationReply(let body):
            if body.hasPrefix("G"), body.contains("i=31"), body.hasSuffix(";OK") { kittyGraphicsOK = true }
        default:
            break
        }
        return false
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
