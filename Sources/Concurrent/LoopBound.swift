#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that belongs to one thread, the browser loop's (modelled on swift-nio's `NIOLoopBound`): it
/// remembers the thread that made it and traps when another thread reads or writes it. For state that only
/// the loop's thread ever touches (the start-up terminal reads, which that thread makes before its first turn):
/// no lock is taken, and a use from a worker is a loud bug instead of a silent race.
///
/// A `static let` is made by the first thread that touches it, which then owns it.
// unchecked: the value is reached only through `value`/`withValue`, which trap off the owning thread
// (NIOLoopBound is `@unchecked Sendable` for the same reason).
public final class LoopBound<Value>: @unchecked Sendable {
    private var storage: Value
    private let owner: pthread_t

    public init(_ value: Value) {
        storage = value
        owner = pthread_self()
    }

    /// True on the thread that owns the value: the one question that does not trap (tests ask it).
    public var isOwnedByCurrentThread: Bool {
        pthread_equal(owner, pthread_self()) != 0
    }

    /// The value; traps off the owning thread.
    public var value: Value {
        get {
            checkOwner()
            return storage
        }
        set {
            checkOwner()
            storage = newValue
        }
    }

    /// Runs `body` with the value in place; traps off the owning thread.
    public func withValue<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        checkOwner()
        return try body(&storage)
    }

    private func checkOwner() {
        precondition(isOwnedByCurrentThread, "a LoopBound value was used off the thread that owns it")
    }
}
