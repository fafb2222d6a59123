#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex and condition variable (what a `MoviePlayer`'s threads wait on, and a `PlaybackClock` sleeps them on) whose timed waits run on CLOCK_MONOTONIC (Foundation's NSCondition waits
/// until a wall-clock `Date`, which a clock change would stretch). Waits wake early on `broadcast()`.
// unchecked: a pthread mutex and condition (C), the only way to wait on CLOCK_MONOTONIC.
public final class MonotonicCondition: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()

    public init() {
        pthread_mutex_init(&mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if os(Linux)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(&condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    public func lock() { pthread_mutex_lock(&mutex) }
    public func unlock() { pthread_mutex_unlock(&mutex) }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits (lock held) until broadcast.
    public func wait() { pthread_cond_wait(&condition, &mutex) }

    /// Waits (lock held) until broadcast or `seconds` passed on the monotonic clock.
    public func wait(seconds: Double) {
        guard seconds > 0 else { return }
        #if os(Linux)
        let deadline = MonotonicClock.now() + seconds
        var spec = timespec()
        spec.tv_sec = Int(deadline.rounded(.down))
        spec.tv_nsec = Int((deadline - deadline.rounded(.down)) * 1_000_000_000)
        _ = pthread_cond_timedwait(&condition, &mutex, &spec)
        #else
        var spec = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1_000_000_000))
        _ = pthread_cond_timedwait_relative_np(&condition, &mutex, &spec)
        #endif
    }

    public func broadcast() { pthread_cond_broadcast(&condition) }
}
