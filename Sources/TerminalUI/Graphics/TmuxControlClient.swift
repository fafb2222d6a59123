import Concurrent
import Foundation

/// Lines tmux sends the redraw watch when something may have wiped or moved the pane's pictures.
protocol TmuxNotificationStream: AnyObject, Sendable {
    /// The process tmux knows as the client (it counts in `#{session_attached}`; queries leave it out).
    var clientPID: Int { get }
    /// Blocks until tmux sends the next line; nil once the stream ended (tmux refused, exited, or `close`).
    func nextLine() -> String?
    /// Ends the stream and its process; safe to call more than once and from any thread.
    func close()
}

/// A tmux control-mode client (`tmux -C attach-session`) on livegrid's pane's session: tmux writes a line
/// (`%session-window-changed`, `%layout-change`, `%client-session-changed`, `%client-detached`) when the
/// things that wipe pixel pictures happen, so the watch sleeps in read(2) instead of asking tmux every
/// 300 ms. Flags: `no-output` (no copy of the panes' output, livegrid's own pictures included),
/// `ignore-size` (never sizes the window), `read-only`. The client ends when its stdin closes, which the
/// kernel does for us if livegrid dies by any signal, SIGKILL included: nothing is left behind in tmux.
final class TmuxControlClient: TmuxNotificationStream {
    private let process: ChildProcess
    /// Bytes read but not yet returned as a line (only the reading thread uses it; the lock is uncontended).
    private let buffer = Locked<[UInt8]>([])
    private let closed = Locked(false)
    var clientPID: Int { Int(process.pid) }

    /// Starts the client; nil when tmux cannot be started.
    init?(tmux: String, socket: String, pane: String?) {
        var arguments = ["-S", socket, "-C", "attach-session"]
        if let pane { arguments += ["-t", pane] }
        arguments += ["-f", "ignore-size,no-output,read-only"]
        guard let process = ChildProcess(tmux, arguments) else { return nil }
        self.process = process
    }

    deinit { close() }

    func nextLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let line = buffer.withLockedValue { buffer -> String? in
                guard let newline = buffer.firstIndex(of: 10) else { return nil }
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            if let line { return line }
            let count = chunk.withUnsafeMutableBytes { read(process.output, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer.withLockedValue { $0 += chunk[..<count] }
        }
    }

    func close() {
        let wasClosed = closed.withLockedValue { closed -> Bool in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        // End of stdin is how a control client is told to detach: it answers %exit and exits.
        process.closeInput()
        process.end(after: 1)
    }
}
