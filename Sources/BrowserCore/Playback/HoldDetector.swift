import TerminalProtocol
/// Turns key (or mouse button) events into "hold started" / "hold ended", whatever the terminal can report.
///
/// Terminals report key repeats, not releases, unless the kitty keyboard protocol (event types) or a mouse
/// button is in use. Three sources, best first:
/// 1. `.explicitRelease`: kitty keyboard protocol or mouse press/release: a release ends the hold at once.
/// 2. `.autoRepeat`: the first press starts; the hold lasts while repeats arrive; it ends when no repeat came
///    within a timeout. Before the first repeat the timeout covers the keyboard's initial delay (X.Org 660 ms,
///    macOS ~225 ms); once repeats flow it covers a few repeat intervals. Both are learned from observed gaps.
///
/// Playback starts the moment the key goes down, so the first movie frame is not delayed by tap detection.
/// A tap (press and release without a hold) therefore shows at most a glimpse and returns to the key photo;
/// it never toggles a playing state: there is no play/pause, only "while held".
public struct HoldDetector: Sendable {
    public enum Mode: Sendable, Equatable { case explicitRelease, autoRepeat }
    public enum Output: Sendable, Equatable { case holdStarted, holdEnded }

    public var mode: Mode
    /// Seconds without a repeat after the first press before the hold is over (learned, clamped).
    public private(set) var initialTimeout: Double
    /// Seconds without a repeat once repeats flow (learned, clamped).
    public private(set) var repeatTimeout: Double
    public private(set) var isHeld = false

    private var lastEventTime: Double = 0
    private var sawRepeat = false

    public init(mode: Mode, initialTimeout: Double = 0.70, repeatTimeout: Double = 0.18) {
        self.mode = mode
        self.initialTimeout = initialTimeout
        self.repeatTimeout = repeatTimeout
    }

    /// A key/button event at `time` (seconds, monotonic).
    public mutating func handle(_ type: KeyEventType, at time: Double) -> [Output] {
        switch (type, isHeld) {
        case (.press, false):
            isHeld = true
            sawRepeat = false
            lastEventTime = time
            return [.holdStarted]
        case (.press, true), (.repeat, true):
            // In auto-repeat mode terminals send repeats as presses: any event extends the hold.
            learn(gap: time - lastEventTime)
            sawRepeat = true
            lastEventTime = time
            return []
        case (.repeat, false):
            // A repeat without a press we saw (focus came back mid-hold): treat as a new hold.
            isHeld = true
            sawRepeat = true
            lastEventTime = time
            return [.holdStarted]
        case (.release, true):
            isHeld = false
            return [.holdEnded]
        case (.release, false):
            return []
        }
    }

    /// Called regularly (and whenever the event loop wakes): ends an auto-repeat hold whose repeats stopped.
    public mutating func tick(now: Double) -> [Output] {
        guard isHeld, mode == .autoRepeat else { return [] }
        let limit = sawRepeat ? repeatTimeout : initialTimeout
        if now - lastEventTime > limit {
            isHeld = false
            return [.holdEnded]
        }
        return []
    }

    /// When the next `tick` could change something (for the event loop's sleep), or nil.
    public var nextDeadline: Double? {
        guard isHeld, mode == .autoRepeat else { return nil }
        return lastEventTime + (sawRepeat ? repeatTimeout : initialTimeout)
    }

    /// Cancels a hold without a release (focus lost, item changed).
    public mutating func cancel() -> [Output] {
        guard isHeld else { return [] }
        isHeld = false
        return [.holdEnded]
    }

    private mutating func learn(gap: Double) {
        guard gap > 0 else { return }
        if !sawRepeat {
            // The first gap is the keyboard's initial delay: allow 30% more, within sane bounds.
            initialTimeout = min(1.2, max(0.25, gap * 1.3 + 0.05))
        } else {
            // Later gaps are the repeat interval: tolerate about three missed repeats (slow SSH links).
            repeatTimeout = min(0.5, max(0.08, max(repeatTimeout * 0.8, gap * 3)))
        }
    }
}
