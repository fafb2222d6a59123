/// What a control-mode line (tmux 3.3a's control-notify.c) means for pixel pictures. Pure.
enum TmuxNotification: Equatable {
    /// `%session-changed $N name`: the control client attached to session $N (the one it listens for).
    case attached(session: String)
    /// tmux redrew the session's current window: a window switch in the session, a layout change (split,
    /// resize, zoom) of the current window, or a client attaching to (or switching into) the session. When
    /// the pane shows, its pictures are gone, even if tmux's answers look the same as before (a switch away
    /// and back faster than livegrid asks).
    case redrawn
    /// Something that can hide or move the pane (a client left, another pane became active, sessions
    /// changed): ask tmux and compare.
    case mayMove
    /// Nothing for the pictures (a command's %begin/%end block, another session's window, a rename).
    case unrelated

    /// - Parameter session: the session the control client is attached to (from its `.attached` line).
    static func classify(_ line: String, session: String?) -> TmuxNotification {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard let name = words.first else { return .unrelated }
        let ours = { (index: Int) -> Bool in words.count > index && words[index] == session }
        switch name {
        case "%session-changed":
            return words.count > 1 ? .attached(session: words[1]) : .unrelated
        case "%session-window-changed":
            return ours(1) ? .redrawn : .unrelated
        case "%layout-change":
            // `%layout-change @W layout visible-layout flags`: "*" in the flags marks the session's current
            // window, the only one whose redraw can reach a shown pane.
            return words.count > 4 && words[4].contains("*") ? .redrawn : .unrelated
        case "%client-session-changed":
            return ours(2) ? .redrawn : .mayMove
        case "%client-detached", "%window-pane-changed", "%sessions-changed":
            return .mayMove
        default:
            return .unrelated
        }
    }
}
