import BrowserCore
import Foundation
import Concurrent

/// Actions posted by background threads (scan results, downloads, triage, playback notes) for the UI loop to
/// apply on its next turn. Posting also wakes the loop (`LoopWake`): no producer needs a busy flag.
public final class EventInbox: Sendable {
    private let actions = Locked<[BrowserAction]>([])
    public let wake = LoopWake()

    public init() {}

    public func post(_ action: BrowserAction) {
        actions.withLockedValue { $0.append(action) }
        wake.wake()
    }

    /// Takes every posted action. Empties the wake pipe first: anything posted after that wakes the loop's
    /// next wait.
    public func drain() -> [BrowserAction] {
        wake.reset()
        return actions.withLockedValue { posted in
            defer { posted.removeAll() }
            return posted
        }
    }

    public var isEmpty: Bool { actions.withLockedValue { $0.isEmpty } }
}
