import Concurrent
import Foundation

/// The event loop's one wake descriptor: a non-blocking self-pipe. Every background producer (scan, picture
/// workers, downloads, triage, movie frames, the tmux watch) and the signal handlers (SIGWINCH, resume after
/// Ctrl-Z) write one byte; the loop sleeps in `poll()` on the tty and on `readDescriptor`, so it wakes at once
/// for real work and never otherwise.
///
/// A pipe rather than Linux's eventfd: Swift's Glibc module does not export `eventfd`, and a pipe works on
/// every POSIX system (DECISIONS.md). A full pipe (thousands of wakes not yet drained) simply drops the
/// write: the loop is awake already.
public final class LoopWake: Sendable {
    public let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// The descriptor signal handlers write to (an atomic load, one write(2); a signal-safe cell, not
    /// `Locked`, because the handlers read it). Set by `installForSignals`; -1 when no loop runs.
    private static let signalDescriptor = SignalSafeDescriptor(-1)

    public init() {
        var descriptors: [Int32] = [-1, -1]
        if pipe(&descriptors) == 0 {
            for descriptor in descriptors {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        Self.signalDescriptor.compareExchange(expected: writeDescriptor, desired: -1)
        if readDescriptor >= 0 { close(readDescriptor) }
        if writeDescriptor >= 0 { close(writeDescriptor) }
    }

    /// Wakes the loop (from any thread).
    public func wake() {
        Self.writeOneByte(writeDescriptor)
    }

    /// Empties the pipe: called by the loop right before it takes the inbox, so a wake posted after this
    /// point wakes the next `poll()` again (none is lost).
    public func reset() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Makes the signal descriptor's cell before a handler can read it (a `static let` is made on first use,
    /// and a first use inside a handler that interrupted that very initialisation would deadlock).
    public static func prepareForSignals() { _ = signalDescriptor.load() }

    /// Makes `wakeFromSignal` wake this loop.
    public func installForSignals() { Self.signalDescriptor.store(writeDescriptor) }

    /// For signal handlers: one write(2), nothing else.
    public static func wakeFromSignal() {
        let descriptor = signalDescriptor.load()
        if descriptor >= 0 { writeOneByte(descriptor) }
    }

    private static func writeOneByte(_ descriptor: Int32) {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }
}
