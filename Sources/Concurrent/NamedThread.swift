import Foundation

/// The one place livegrid starts a long-lived thread of its own (the library scan, the picture workers,
/// the HTTP worker, the tmux watch): a detached thread with a name that `top -H`, `ps -L` and gdb show.
/// Batches use `Parallel.map`; short jobs in order use a serial DispatchQueue (the triage worker); the movie
/// player's two threads stay in VideoPlayback (they wait on a CLOCK_MONOTONIC pthread condition).
public enum NamedThread {
    /// Runs `body` on a new detached thread called `name` (Linux shows its first 15 bytes).
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            // Set from the thread itself: Foundation on Linux names the OS thread only for the current one.
            Thread.current.name = name
            // Every thread started here is a worker: the UI's signals go to the main thread.
            WorkerThreadSignals.block()
            body()
        }
        thread.name = name
        thread.start()
    }
}
