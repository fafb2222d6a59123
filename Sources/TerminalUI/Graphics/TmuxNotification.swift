/// The control-mode lines after which tmux may have wiped or moved the pane's pictures (tmux 3.3a's
/// control-notify.c): the session's window switched (away and back), a layout changed (split, resize,
/// zoom), a client attached to or left the session, or another pane became active. Pure.
enum TmuxNotification {
    static let redrawHints: Set<String> = [
        "%session-window-changed", "%layout-change", "%window-pane-changed", "%client-session-changed",
        "%client-detached", "%session-changed", "%sessions-changed",
    ]

    /// Whether the line is worth asking tmux about (any other line, such as a command's %begin/%end
    /// block, is not).
    static func hintsRedraw(_ line: String) -> Bool {
        let word = line.prefix { $0 != " " }
        return redrawHints.contains(String(word))
    }
}
