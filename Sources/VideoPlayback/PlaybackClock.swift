/// The time a `MoviePlayer` reads and the way it sleeps until a frame is due, injected so that the player's
/// tests never sleep and never read the wall clock (as swift-nio's `EmbeddedEventLoop.advanceTime(by:)`
/// lets an event loop's tests move time by hand). `SystemPlaybackClock` is CLOCK_MONOTONIC and a timed
/// pthread condition wait; `ManualPlaybackClock` stands still until a test advances it.
public protocol PlaybackClock: Sendable {
    /// Seconds on this clock (only differences matter).
    func now() -> Double

    /// Blocks the calling thread, which holds `condition`'s lock, until `deadline` on this clock or until
    /// `condition` is broadcast, whichever comes first (spurious wakes allowed: the caller asks again).
    /// The lock is released while waiting and held again on return, as `pthread_cond_timedwait` does.
    func sleep(until deadline: Double, on condition: MonotonicCondition)
}

/// CLOCK_MONOTONIC: what every real playback uses.
public struct SystemPlaybackClock: PlaybackClock {
    public init() {}

    public func now() -> Double { MonotonicClock.now() }

    public func sleep(until deadline: Double, on condition: MonotonicCondition) {
        condition.wait(seconds: deadline - MonotonicClock.now())
    }
}
