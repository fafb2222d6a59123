import Synchronization

/// A value that several threads share, reached only under its lock: the one lock box of the code base
/// (modelled on swift-nio's `NIOLockedValueBox`). A final class over `Synchronization.Mutex`, so that it can be
/// captured by escaping closures and stored in classes, and is `Sendable` without `@unchecked`.
///
///     let seen = Locked<Set<String>>([])
///     let isNew = seen.withLockedValue { $0.insert(path).inserted }
public final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, holding the lock. Keep `body` short: no I/O, no waiting, no re-entry.
    public func withLockedValue<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock(body)
    }
}

extension Locked where Value: Sendable {
    /// A copy of the value, read under the lock.
    public var value: Value {
        withLockedValue { $0 }
    }

    /// Replaces the value under the lock.
    public func set(_ newValue: Value) {
        withLockedValue { $0 = newValue }
    }
}

extension Locked where Value == Void {
    /// A plain lock around state that lives elsewhere (static C buffers read by a signal handler).
    public convenience init() {
        self.init(())
    }

    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> sending Result) throws(Failure) -> sending Result {
        try withLockedValue { (_: inout Void) throws(Failure) -> sending Result in try body() }
    }
}
