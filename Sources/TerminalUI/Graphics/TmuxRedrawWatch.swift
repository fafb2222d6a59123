import Concurrent
import Foundation
import TerminalGraphics
import TerminalProtocol

/// What of tmux's view of the pane matters to its pixel pictures: whether a client shows it, where it sits
/// on the outer terminal, and which client shows it.
struct TmuxPaneView: Equatable, Sendable {
    var shown: Bool
    var originRow: Int
    var originColumn: Int
    var clientPIDs: [Int?]

    init(chain: TmuxChain) {
        shown = chain.isShown
        originRow = chain.origin.row
        originColumn = chain.origin.column
        clientPIDs = chain.levels.map(\.clientPID)
    }

    init(shown: Bool, originRow: Int, originColumn: Int, clientPIDs: [Int?] = []) {
        self.shown = shown
        self.originRow = originRow
        self.originColumn = originColumn
        self.clientPIDs = clientPIDs
    }

    /// tmux wiped (or moved) the pictures between `before` and `after`: the pane came back into view
    /// (window switched back, session re-attached), moved (a split, a layout change), or another client
    /// shows it now. A hidden pane needs nothing: its pictures are sent again when it shows.
    static func needsRedraw(before: TmuxPaneView, after: TmuxPaneView) -> Bool {
        guard after.shown else { return false }
        return !before.shown || before.originRow != after.originRow || before.originColumn != after.originColumn
            || before.clientPIDs != after.clientPIDs
    }
}

/// Watches tmux for redraws that wipe pixel pictures. tmux sends the pane nothing when its window is
/// switched away and back (focus events only with `focus-events on`, off by default, and not for every
/// case), so the watch listens to tmux's control mode instead: one control client per tmux level
/// (`TmuxControlClient`), whose notification lines make it ask tmux (`tmux display`, a few milliseconds)
/// and wake the loop when tmux wiped or moved the pictures; between events its threads sleep in read(2).
/// When tmux refuses control mode (or a control client ends), it falls back to asking every `interval`.
/// A resize asks at once (`poll()` from the loop).
final class TmuxRedrawWatch: Sendable {
    private struct State {
        var view: TmuxPaneView?
        var pendingTarget: TmuxPassthroughTarget?
        var stopped = false
        var polling = false
        var streams: [any TmuxNotificationStream] = []
        /// Livegrid's own control clients: never a client that shows the pane.
        var ignoredClients: Set<Int> = []
        /// Wakes the event loop when a redraw is pending.
        var wake: @Sendable () -> Void = {}
    }
    private let state = Locked(State())
    private let depth: Int
    private let ask: @Sendable (_ ignoringClients: Set<Int>) -> TmuxChain?
    let interval: TimeInterval

    /// `notifications` starts the control clients (on the watch's thread: it asks tmux); none means
    /// polling every `interval`.
    init(depth: Int, interval: TimeInterval = 0.3,
         notifications: @escaping @Sendable () -> [any TmuxNotificationStream] = { [] },
         ask: @escaping @Sendable (_ ignoringClients: Set<Int>) -> TmuxChain?)
    {
        self.depth = depth
        self.interval = interval
        self.ask = ask
        NamedThread.start("livegrid-tmux-watch") { [weak self] in
            let streams = notifications()
            guard let self else { streams.forEach { $0.close() }; return }
            let stoppedAlready = self.state.withLockedValue { state -> Bool in
                state.streams = streams
                state.ignoredClients = Set(streams.map(\.clientPID))
                return state.stopped
            }
            if stoppedAlready { streams.forEach { $0.close() }; return }
            self.poll()
            for (index, stream) in streams.enumerated().dropFirst() {
                NamedThread.start("livegrid-tmux-watch-\(index)") { [weak self] in self?.listen(to: stream) }
            }
            if let first = streams.first { self.listen(to: first) } else { self.pollEveryInterval() }
        }
    }

    /// Reads one control client's lines until it ends; asks tmux after each line that hints a redraw. A
    /// stream that ends while the watch runs (tmux refused control mode, the server went) leaves the
    /// watch polling, as it did before control mode.
    private func listen(to stream: any TmuxNotificationStream) {
        var session: String?
        while let line = stream.nextLine() {
            if isStopped { return }
            switch TmuxNotification.classify(line, session: session) {
            case .attached(let attached): session = attached
            case .redrawn: poll(redrawnByTmux: true)
            case .mayMove: poll()
            case .unrelated: break
            }
        }
        stream.close()   // reaps the ended client (no zombie for the rest of the session)
        let startPolling = state.withLockedValue { state -> Bool in
            guard !state.stopped, !state.polling else { return false }
            state.polling = true
            return true
        }
        if startPolling { pollEveryInterval() }
    }

    private func pollEveryInterval() {
        while !isStopped {
            poll()
            Thread.sleep(forTimeInterval: interval)
        }
    }

    private var isStopped: Bool { state.withLockedValue { $0.stopped } }

    /// Ends the watch and its control clients (their tmux clients detach).
    func stop() {
        let streams = state.withLockedValue { state -> [any TmuxNotificationStream] in
            state.stopped = true
            defer { state.streams = [] }
            return state.streams
        }
        streams.forEach { $0.close() }
    }

    /// What tmux said last about the pane.
    var currentView: TmuxPaneView? { state.withLockedValue { $0.view } }

    /// Whether the watch has fallen back to asking tmux every `interval`.
    var isPolling: Bool { state.withLockedValue { $0.polling } }

    /// Sets what wakes the event loop once a redraw is pending.
    func setWake(_ wake: @escaping @Sendable () -> Void) { state.withLockedValue { $0.wake = wake } }

    /// Asks tmux now; records a redraw for the loop when tmux wiped or moved the pictures.
    /// - Parameter redrawnByTmux: tmux said it redrew the pane's window: the pictures are gone if it shows,
    ///   whatever the answers say.
    func poll(redrawnByTmux: Bool = false) {
        let ignoring = state.withLockedValue { $0.ignoredClients }
        guard let chain = ask(ignoring) else { return }
        let now = TmuxPaneView(chain: chain)
        let depth = depth
        let wakeIfRedraw: (@Sendable () -> Void)? = state.withLockedValue { state in
            defer { state.view = now }
            guard let view = state.view,
                  TmuxPaneView.needsRedraw(before: view, after: now) || (redrawnByTmux && now.shown) else { return nil }
            state.pendingTarget = TmuxPassthroughTarget(chain: chain, depth: depth)
            return state.wake
        }
        wakeIfRedraw?()
    }

    /// The new passthrough target when the pictures must be drawn again (once per redraw), else nil.
    func takeRedraw() -> TmuxPassthroughTarget? {
        state.withLockedValue { state in
            defer { state.pendingTarget = nil }
            return state.pendingTarget
        }
    }
}
