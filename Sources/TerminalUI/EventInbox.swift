import BrowserCore
import Foundation

/// Actions posted by background threads (scan results) for the UI loop to apply on its next turn.
final class EventInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var actions: [BrowserAction] = []

    func post(_ action: BrowserAction) {
        lock.lock()
        actions.append(action)
        lock.unlock()
    }

    func drain() -> [BrowserAction] {
        lock.lock()
        defer { lock.unlock() }
        let drained = actions
        actions.removeAll()
        return drained
    }

    var isEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return actions.isEmpty
    }
}
