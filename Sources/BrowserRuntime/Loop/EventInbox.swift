import BrowserCore
import Foundation

/// Actions posted by background threads (scan results, downloads, triage, playback notes) for the UI loop to
/// apply on its next turn. Posting also wakes the loop (`LoopWake`): no producer needs a busy flag.
public final class EventInbox: @unchecked Sendable {  // the lock below guards `actions`; the wake is a file descriptor
    private let lock = NSLock()
    private var actions: [BrowserAction] = []
    public let wake = LoopWake()

    public init() {}

    public func post(_ action: BrowserAction) {
        lock.withLock { actions.append(action) }
        wake.wake()
    }

    /// Takes every posted action. Empties the wake pipe first: anything posted after that wakes the loop's
    /// next wait.
    public func drain() -> [BrowserAction] {
        wake.reset()
        return lock.withLock {
            defer { actions.removeAll() }
            return actions
        }
    }

    public var isEmpty: Bool { lock.withLock { actions.isEmpty } }
}
