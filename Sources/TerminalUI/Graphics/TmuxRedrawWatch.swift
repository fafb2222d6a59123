import Concurrent
import Foundation
import TerminalGraphics

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
/// case), so a background thread asks tmux every `interval` (one `tmux display`, about 8 ms of a process
/// start) and wakes the loop
/// when tmux wiped or moved the pictures; a resize asks at once.
final class TmuxRedrawWatch: Sendable {
    private struct State {
        var view: TmuxPaneView?
        var pendingTarget: TmuxPassthroughTarget?
        var stopped = false
        /// Wakes the event loop when a redraw is pending.
        var wake: @Sendable () -> Void = {}
    }
    private let state = Locked(State())
    private let depth: Int
    private let ask: @Sendable () -> TmuxChain?
    let interval: TimeInterval

    init(depth: Int, interval: TimeInterval = 0.3, ask: @escaping @Sendable () -> TmuxChain?) {
        self.depth = depth
        self.interval = interval
        self.ask = ask
        NamedThread.start("livegrid-tmux-watch") { [weak self] in
            while let self, !self.isStopped {
                self.poll()
                Thread.sleep(forTimeInterval: interval)
            }
        }
    }

    private var isStopped: Bool { state.withLockedValue { $0.stopped } }

    func stop() { state.withLockedValue { $0.stopped = true } }

    /// Sets what wakes the event loop once a redraw is pending.
    func setWake(_ wake: @escaping @Sendable () -> Void) { state.withLockedValue { $0.wake = wake } }

    /// Asks tmux now; records a redraw for the loop when tmux wiped or moved the pictures.
    func poll() {
        guard let chain = ask() else { return }
        let now = TmuxPaneView(chain: chain)
        let depth = depth
        let wakeIfRedraw: (@Sendable () -> Void)? = state.withLockedValue { state in
            defer { state.view = now }
            guard let view = state.view, TmuxPaneView.needsRedraw(before: view, after: now) else { return nil }
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
