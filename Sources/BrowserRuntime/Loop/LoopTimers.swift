import Foundation
import VideoPlayback

/// The loop's timers as deadlines on the monotonic clock (`MonotonicClock.now()`): hold detection, the hint
/// of movement, the transfer line going away. The loop sleeps until the earliest one, or forever when there
/// is none; background work wakes it through `LoopWake` instead.
public struct LoopTimers {
    public private(set) var deadlines: [(name: String, at: Double)] = []

    public init() {}

    public mutating func add(_ name: String, at deadline: Double?) {
        if let deadline { deadlines.append((name, deadline)) }
    }

    public var earliest: (name: String, at: Double)? { deadlines.min { $0.at < $1.at } }

    /// The `poll()` timeout for `now`: -1 (no timer) or the milliseconds to the earliest deadline, rounded up
    /// so the loop never wakes a moment too early and spins.
    public func pollTimeout(now: Double) -> Int32 {
        guard let earliest else { return -1 }
        let seconds = max(0, earliest.at - now)
        return Int32(min(Double(Int32.max / 2), (seconds * 1000).rounded(.up)))
    }
}

/// Why `LoopWait.wait` returned.
public struct LoopWakeup: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The tty has bytes.
    public static let input = LoopWakeup(rawValue: 1)
    /// Something was posted (or a signal handler wrote the wake pipe).
    public static let posted = LoopWakeup(rawValue: 2)
    /// A timer's deadline came.
    public static let timer = LoopWakeup(rawValue: 4)
    /// A signal interrupted the wait (SIGWINCH, resume).
    public static let signal = LoopWakeup(rawValue: 8)

    public var traceName: String {
        var names: [String] = []
        if contains(.input) { names.append("input") }
        if contains(.posted) { names.append("posted") }
        if contains(.timer) { names.append("timer") }
        if contains(.signal) { names.append("signal") }
        return names.joined(separator: "+")
    }
}

/// The loop's only wait: `poll()` on the tty and the wake pipe, up to the next timer.
public enum LoopWait {
    public static func wait(tty: Int32 = STDIN_FILENO, wake: LoopWake, timeoutMilliseconds: Int32) -> LoopWakeup {
        var descriptors = [pollfd(fd: tty, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds)
        if ready < 0 { return errno == EINTR ? .signal : .posted }
        if ready == 0 { return .timer }
        var wakeup: LoopWakeup = []
        // POLLHUP/POLLERR on the tty (terminal gone): let the reader find out and end the loop.
        if descriptors[0].revents != 0 { wakeup.insert(.input) }
        if descriptors[1].revents != 0 { wakeup.insert(.posted) }
        return wakeup
    }
}
