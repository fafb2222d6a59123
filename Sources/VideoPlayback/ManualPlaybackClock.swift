import Concurrent

/// A clock that moves only when told (`advance(by:)`, `advance(to:)`), for tests: a player on it shows frame n
/// exactly when the test moves time to frame n's deadline, and a thread sleeping on it wakes only then (or
/// when its own condition is broadcast). `nextDeadline(waitingUpTo:)` lets a test drive a playback from one
/// sleep to the next, the way swift-nio's `EmbeddedEventLoop` runs the tasks due after `advanceTime(by:)`.
public final class ManualPlaybackClock: PlaybackClock {
    private struct Sleeper {
        var id: Int
        var deadline: Double
        var condition: MonotonicCondition
    }

    private struct State {
        var now: Double
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state: Locked<State>
    /// Broadcast whenever a thread starts or stops sleeping on this clock (what a test waits for).
    private let sleepersChanged = MonotonicCondition()

    public init(now: Double = 1000) {
        state = Locked(State(now: now))
    }

    public func now() -> Double { state.withLockedValue { $0.now } }

    public func sleep(until deadline: Double, on condition: MonotonicCondition) {
        // The caller holds `condition`'s lock from here until `wait()` releases it, and `advance` takes that
        // lock before broadcasting: a wake-up between registering and waiting cannot be lost.
        let id: Int? = state.withLockedValue { state in
            guard deadline > state.now else { return nil }
            state.nextID += 1
            state.sleepers.append(Sleeper(id: state.nextID, deadline: deadline, condition: condition))
            return state.nextID
        }
        guard let id else { return }
        sleepersChanged.withLock { sleepersChanged.broadcast() }
        condition.wait()
        state.withLockedValue { $0.sleepers.removeAll { $0.id == id } }
        sleepersChanged.withLock { sleepersChanged.broadcast() }
    }

    /// Moves time forward by `seconds` and wakes the threads whose deadline has come.
    public func advance(by seconds: Double) {
        move { $0 + max(0, seconds) }
    }

    /// Moves time forward to `time` (never backwards) and wakes the threads whose deadline has come.
    public func advance(to time: Double) {
        move { max($0, time) }
    }

    private func move(_ newTime: (Double) -> Double) {
        let due: [MonotonicCondition] = state.withLockedValue { state in
            state.now = newTime(state.now)
            return state.sleepers.filter { $0.deadline <= state.now }.map(\.condition)
        }
        // Outside the clock's lock: a sleeper holds its condition's lock while it reads the clock.
        for condition in due { condition.withLock { condition.broadcast() } }
    }

    /// The earliest deadline a thread sleeps until, waiting up to `timeout` seconds of real time for one to
    /// start sleeping; nil if none did (the player is busy decoding, or ended).
    public func nextDeadline(waitingUpTo timeout: Double) -> Double? {
        let deadline = MonotonicClock.now() + timeout
        return sleepersChanged.withLock {
            while true {
                if let earliest = state.withLockedValue({ $0.sleepers.map(\.deadline).min() }) { return earliest }
                let left = deadline - MonotonicClock.now()
                if left <= 0 { return nil }
                sleepersChanged.wait(seconds: left)
            }
        }
    }

    /// Waits up to `timeout` seconds of real time until no thread sleeps on this clock (a stopped player's
    /// threads have left); true if so.
    public func waitUntilNobodySleeps(waitingUpTo timeout: Double) -> Bool {
        let deadline = MonotonicClock.now() + timeout
        return sleepersChanged.withLock {
            while state.withLockedValue({ !$0.sleepers.isEmpty }) {
                let left = deadline - MonotonicClock.now()
                if left <= 0 { return false }
                sleepersChanged.wait(seconds: left)
            }
            return true
        }
    }

    /// How many threads sleep on this clock now.
    public var sleeperCount: Int { state.withLockedValue { $0.sleepers.count } }
}
