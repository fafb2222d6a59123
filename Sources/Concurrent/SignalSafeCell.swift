import Synchronization

// State that POSIX signal handlers read or write, as ordinary code does. A handler may interrupt a thread
// that holds any lock (a `Locked` included), and taking that lock again in the handler deadlocks, so this is
// the one kind of shared state that is not `Locked`: lock-free atomics, async-signal-safe (no lock, no
// allocation). Atomics are typed by their size, so there is one small type per kind of word.
// Touch a cell kept in a `static let` before installing the handler that reads it: a static is made on first
// use (through swift_once in debug builds), and a first use inside a handler that interrupted that very
// initialisation on the same thread would deadlock.

/// A flag that a signal handler sets or reads (`CursesSession`'s resume, `KittyKeyboard`'s pushed flags).
public struct SignalSafeFlag: ~Copyable, Sendable {
    private let atomic: Atomic<Bool>

    public init(_ value: Bool) { atomic = Atomic(value) }

    public func load() -> Bool { atomic.load(ordering: .sequentiallyConsistent) }

    public func store(_ value: Bool) { atomic.store(value, ordering: .sequentiallyConsistent) }

    /// Stores `value` and returns what was there, in one step (a flag taken once: `exchange(false)`).
    public func exchange(_ value: Bool) -> Bool { atomic.exchange(value, ordering: .sequentiallyConsistent) }
}

/// A file descriptor that a signal handler writes to or restores (-1: none).
public struct SignalSafeDescriptor: ~Copyable, Sendable {
    private let atomic: Atomic<Int32>

    public init(_ value: Int32 = -1) { atomic = Atomic(value) }

    public func load() -> Int32 { atomic.load(ordering: .sequentiallyConsistent) }

    public func store(_ value: Int32) { atomic.store(value, ordering: .sequentiallyConsistent) }

    /// Stores `desired` only if the descriptor is still `expected`; true when it did.
    @discardableResult
    public func compareExchange(expected: Int32, desired: Int32) -> Bool {
        atomic.compareExchange(expected: expected, desired: desired, ordering: .sequentiallyConsistent).exchanged
    }
}

/// A POSIX signal handler (`sa_handler`), as `sigaction` and `signal` give it back.
public typealias SignalHandler = @convention(c) (Int32) -> Void

/// The handler a signal had before livegrid's, which livegrid's handler then calls: read inside the handler,
/// so it is kept as its address in an atomic word.
public struct SignalHandlerSlot: ~Copyable, Sendable {
    private let address: Atomic<Int>

    public init() { address = Atomic(0) }

    public func store(_ handler: SignalHandler?) {
        address.store(unsafeBitCast(handler, to: Int.self), ordering: .sequentiallyConsistent)
    }

    /// The handler when it is a function to call: neither SIG_DFL (0) nor SIG_IGN (1).
    public func callable() -> SignalHandler? {
        let bits = address.load(ordering: .sequentiallyConsistent)
        return bits > 1 ? unsafeBitCast(bits, to: SignalHandler?.self) : nil
    }
}
