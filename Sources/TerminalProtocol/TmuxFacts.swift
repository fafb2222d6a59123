/// What tmux says about the pane livegrid runs in and the terminal outside it, parsed from one
/// `tmux display -p -t $TMUX_PANE FORMAT` line. Pure, so the graphics decision is unit-tested with recorded
/// answers (the query itself lives in TerminalUI). In TerminalProtocol: recorded facts, no I/O.
public struct TmuxFacts: Sendable, Hashable {
    /// `#{version}`: "3.3a", "next-3.4".
    public var version: String
    /// The pane's `allow-passthrough` (tmux reports option flags as 1/0; 3.4's "all" as 2).
    public var allowsPassthrough: Bool
    /// The pane's top-left cell inside the window.
    public var paneTop: Int
    public var paneLeft: Int
    /// Lines of tmux's status bar above the window (`status-position top`), which shift the pane down on
    /// the client's terminal.
    public var statusLinesAbove: Int
    /// The attached client's terminal: `#{client_termname}` (its TERM), `#{client_termtype}` (its XTVERSION
    /// or DA2 name, "XTerm(379)"), `#{client_termfeatures}`. Empty when no client is attached.
    public var clientTermname: String
    public var clientTermtype: String
    public var clientTermfeatures: String
    /// The client process, to find the tmux it runs in (nested tmux) on the same machine.
    public var clientPID: Int?
    /// Whether the pane's window is the one the session shows, and how many clients show the session:
    /// tmux redraws a window that comes back into view, wiping its pixel pictures.
    public var windowActive: Bool
    public var sessionAttached: Int

    public init(version: String, allowsPassthrough: Bool, paneTop: Int = 0, paneLeft: Int = 0,
                statusLinesAbove: Int = 0, clientTermname: String = "", clientTermtype: String = "",
                clientTermfeatures: String = "", clientPID: Int? = nil, windowActive: Bool = true,
                sessionAttached: Int = 1)
    {
        self.version = version
        self.allowsPassthrough = allowsPassthrough
        self.paneTop = paneTop
        self.paneLeft = paneLeft
        self.statusLinesAbove = statusLinesAbove
        self.clientTermname = clientTermname
        self.clientTermtype = clientTermtype
        self.clientTermfeatures = clientTermfeatures
        self.clientPID = clientPID
        self.windowActive = windowActive
        self.sessionAttached = sessionAttached
    }

    /// The format asked of `tmux display -p`; `parse` reads its answer. Options expand by name in formats.
    public static let format = "#{version}|#{allow-passthrough}|#{pane_top}|#{pane_left}|#{status}|#{status-position}"
        + "|#{window_active}|#{session_attached}|#{client_pid}|#{client_termname}|#{client_termtype}|#{client_termfeatures}"

    /// nil when the line is not an answer to `format` (an old tmux, an error message).
    public static func parse(_ line: String) -> TmuxFacts? {
        let trimmed = line.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        let fields = String(trimmed)
            .split(separator: "|", maxSplits: 11, omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 12, !fields[0].isEmpty, let top = Int(fields[2]), let left = Int(fields[3]) else { return nil }
        let statusLines: Int
        switch fields[4] {
        case "off", "0": statusLines = 0
        case "on", "1": statusLines = 1
        default: statusLines = Int(fields[4]) ?? 1
        }
        return TmuxFacts(version: fields[0], allowsPassthrough: ["1", "2", "on", "all"].contains(fields[1]),
                         paneTop: top, paneLeft: left, statusLinesAbove: fields[5] == "top" ? statusLines : 0,
                         clientTermname: fields[9], clientTermtype: fields[10], clientTermfeatures: fields[11],
                         clientPID: Int(fields[8]), windowActive: fields[6] == "1",
                         sessionAttached: Int(fields[7]) ?? 0)
    }

    /// tmux 3.3 brought `allow-passthrough`; older tmux passes `ESC P tmux;` sequences unconditionally in
    /// some builds and not at all in others, so livegrid only trusts 3.3 and later.
    public var hasPassthroughOption: Bool {
        let digits = version.drop { !$0.isNumber }
        let parts = digits.split(separator: ".", maxSplits: 1)
        guard let major = parts.first.flatMap({ Int($0) }) else { return version.hasPrefix("next") || version == "master" }
        let minor = parts.count > 1 ? Int(parts[1].prefix { $0.isNumber }) ?? 0 : 0
        return major > 3 || (major == 3 && minor >= 3)
    }

    /// The client's terminal is itself tmux (or screen): livegrid runs in nested tmux.
    public var clientIsTmux: Bool {
        clientTermname.hasPrefix("tmux") || clientTermname.hasPrefix("screen") || clientTermtype.hasPrefix("tmux")
    }

    public var hasClient: Bool { !clientTermname.isEmpty }

    /// The pane as the client's terminal sees it (cell offset of the pane's top-left corner).
    public var origin: (row: Int, column: Int) { (paneTop + statusLinesAbove, paneLeft) }

    /// Whether tmux shows the pane to a client now (a hidden pane's passthrough goes nowhere).
    public var isShown: Bool { windowActive && sessionAttached > 0 }
}

/// The tmux livegrid runs in and, when that tmux's client runs in another tmux, that one too: innermost
/// first. Each level unwraps one passthrough wrapper and shifts the picture by its pane's position.
public struct TmuxChain: Sendable, Hashable {
    public var levels: [TmuxFacts]
    /// The outermost known client is a tmux livegrid could not ask (another machine, over SSH): one more
    /// wrapper is needed, and that tmux's pane position is unknown (taken as the top-left corner).
    public var outerLevelUnknown: Bool

    public init(levels: [TmuxFacts], outerLevelUnknown: Bool = false) {
        self.levels = levels
        self.outerLevelUnknown = outerLevelUnknown
    }

    /// How many times each sequence for the outer terminal is wrapped.
    public var depth: Int { levels.count + (outerLevelUnknown ? 1 : 0) }

    /// The pane's top-left corner on the outer terminal's screen: every level's pane offset added up.
    public var origin: (row: Int, column: Int) {
        levels.reduce((0, 0)) { ($0.0 + $1.origin.row, $0.1 + $1.origin.column) }
    }

    /// The innermost tmux whose passthrough is off (its "which" words for the status bar), if any.
    public var passthroughOff: (index: Int, facts: TmuxFacts)? {
        levels.enumerated().first { !$0.element.allowsPassthrough }.map { ($0.offset, $0.element) }
    }

    /// The first tmux too old for passthrough, if any.
    public var tooOld: TmuxFacts? { levels.first { !$0.hasPassthroughOption } }

    /// The terminal outside all the tmux levels, in words ("XTerm(379)", "xterm-kitty"), or nil.
    public var outerTerminal: String? {
        guard !outerLevelUnknown, let outer = levels.last, outer.hasClient, !outer.clientIsTmux else { return nil }
        return outer.clientTermtype.isEmpty ? outer.clientTermname : outer.clientTermtype
    }

    /// Whether every level shows the pane to a client (a picture sent now reaches the outer terminal).
    public var isShown: Bool { levels.allSatisfy(\.isShown) }
}
