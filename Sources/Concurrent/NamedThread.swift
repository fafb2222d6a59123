import Foundation

/// The one place livegrid starts a long-lived thread of its own (the library scan, the picture workers,
/// the HTTP worker, the tmux watch, the movie player's decode and presenter): a detached thread with a name
/// that `top -H`, `ps -L` and gdb show. Batches use `Parallel.map`; short jobs in order use a serial
/// DispatchQueue (the triage worker).
public enum NamedThread {
    /// Runs `body` on a new detached thread called `name` (Linux shows its first 15 bytes).
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            // Named from the thread itself, at the OS level: what `top -H` and gdb show is the pthread name,
            // and Foundation's `Thread.current` on Linux is not always the object started here (its name
            // then stayed the process's, about one run in eight). Linux keeps the first 15 bytes.
            Thread.current.name = name
            setCurrentThreadName(name)
            // Every thread started here is a worker: the UI's signals go to the main thread.
            WorkerThreadSignals.block()
            body()
        }
        thread.name = name
        thread.start()
    }
}

/// Sets the calling thread's OS name (its first 15 bytes, cut at a character boundary: Linux's limit), through
/// /proc/thread-self/comm: Glibc's pthread_setname_np is not visible to Swift without _GNU_SOURCE, and prctl
/// is variadic.
func setCurrentThreadName(_ name: String) {
    var bytes = Array(name.utf8)
    if bytes.count > 15 {
        var cut = 15
        while cut > 0 && (bytes[cut] & 0xC0) == 0x80 { cut -= 1 }   // not inside a UTF-8 sequence
        bytes = Array(bytes[..<cut])
    }
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }   // no /proc: the name is cosmetic (top -H), the thread still runs
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

/// The calling thread's OS name (what `top -H` shows), "" when /proc cannot tell.
public func currentThreadName() -> String {
    let fd = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return "" }
    var name = Array(buffer[..<count])
    if name.last == 0x0A { name.removeLast() }
    return String(decoding: name, as: UTF8.self)
}
