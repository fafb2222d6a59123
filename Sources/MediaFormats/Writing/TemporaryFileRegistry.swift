import Concurrent
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What this process is writing right now, so that SIGINT, SIGTERM and SIGHUP end it without debris: its
/// temporaries are removed, and so are the companions of a group (a Live Photo's movie) already committed
/// while the group's primary file (the still) is not in place yet.
///
/// The signal handler only reads a fixed table of C strings allocated up front and calls async-signal-safe
/// functions (unlink, access, lstat, signal, raise); registration copies paths into that table under a lock
/// in ordinary code. The handler runs whatever handler was there before (the browser's, which restores the
/// terminal), then ends the process by the same signal, so the parent sees the usual 128+signo status.
/// SIGKILL cannot be caught: `StaleTemporaryFiles` cleans up after it on the next run.
public enum TemporaryFileRegistry {
    /// A registered entry; hand it back to `release`.
    public struct Slot: Sendable { let index: Int }

    /// True once a terminating signal has started the cleanup: a writer that creates a temporary now must
    /// remove it itself (the handler's sweep may have passed already) and give up.
    public static var isEnding: Bool { ending.load() }

    /// Registers a temporary being written. nil when the table is full or the path too long: that file then
    /// relies on the next run's sweep.
    static func registerTemporary(_ path: String) -> Slot? {
        claim(state: temporaryState, path: path, primary: nil, device: 0, inode: 0)
    }

    /// Registers a companion just committed as `path` (device/inode of the file written): removed by a
    /// terminating signal unless `primary` exists by then. The inode check keeps the handler from ever
    /// removing a file of the same name that is not the one this process wrote.
    static func registerCompanion(_ path: String, device: UInt64, inode: UInt64, primary: String) -> Slot? {
        claim(state: companionState, path: path, primary: primary, device: device, inode: inode)
    }

    static func release(_ slot: Slot?) {
        guard let slot, let table else { return }
        lock.withLock { table.states[slot.index] = freeState }
    }

    /// Removes every registered temporary, then every committed companion whose primary is not in place.
    /// Async-signal-safe: for signal handlers (the browser's calls it before restoring the terminal).
    public static func removeAllForSignal() {
        ending.store(true)
        guard let table else { return }
        // Temporaries first: once the primary's temporary is gone it can no longer be committed, so the
        // check below cannot race with a commit on another thread.
        for i in 0..<Table.capacity where table.states[i] == temporaryState {
            unlink(table.path(i))
        }
        for i in 0..<Table.capacity where table.states[i] == companionState {
            guard access(table.primary(i), F_OK) != 0 else { continue }
            var st = stat()
            if lstat(table.path(i), &st) == 0, UInt64(st.st_dev) == table.devices[i],
               UInt64(st.st_ino) == table.inodes[i] {
                unlink(table.path(i))
            }
        }
    }

    /// Installs the cleanup for SIGINT, SIGTERM and SIGHUP (once; later calls do nothing). A signal that
    /// is ignored (nohup) stays ignored. Called by the first registration; callers may call it earlier.
    public static func installSignalCleanup() {
        lock.withLock { installIfNeeded() }
    }

    // MARK: the table

    static let freeState: Int32 = 0
    static let temporaryState: Int32 = 1
    static let companionState: Int32 = 2

    /// Raw memory, allocated once and never freed: the handler may read it at any moment.
    struct Table {
        static let capacity = 128
        static let pathBytes = Int(PATH_MAX)
        let states = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        let paths = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * pathBytes)
        let primaries = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * pathBytes)
        let devices = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        let inodes = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)

        init() {
            states.initialize(repeating: 0, count: Self.capacity)
            paths.initialize(repeating: 0, count: Self.capacity * Self.pathBytes)
            primaries.initialize(repeating: 0, count: Self.capacity * Self.pathBytes)
            devices.initialize(repeating: 0, count: Self.capacity)
            inodes.initialize(repeating: 0, count: Self.capacity)
        }
        func path(_ i: Int) -> UnsafeMutablePointer<CChar> { paths + i * Self.pathBytes }
        func primary(_ i: Int) -> UnsafeMutablePointer<CChar> { primaries + i * Self.pathBytes }
    }

    // Not `Locked`: the signal handler reads these and cannot take a lock. `table` is C memory published once
    // (under `lock`, before any handler is installed) and never freed; `ending` is an atomic flag.
    nonisolated(unsafe) static var table: Table?
    static let ending = SignalSafeFlag(false)
    /// Guards `table` and `previousActions` against other threads (the signal handler reads slots by state).
    private static let lock = Locked()

    private static func claim(state: Int32, path: String, primary: String?, device: UInt64, inode: UInt64) -> Slot? {
        guard PathBytes.bytes(of: path).count < Table.pathBytes,
              PathBytes.bytes(of: primary ?? "").count < Table.pathBytes else { return nil }
        return lock.withLock {
            installIfNeeded()
            guard let table, let index = (0..<Table.capacity).first(where: { table.states[$0] == freeState }) else {
                return nil
            }
            copy(path, into: table.path(index))
            copy(primary ?? "", into: table.primary(index))
            table.devices[index] = device
            table.inodes[index] = inode
            // Published last (the lock's release orders the stores): the handler reads a slot by its state.
            table.states[index] = state
            return Slot(index: index)
        }
    }

    private static func copy(_ text: String, into buffer: UnsafeMutablePointer<CChar>) {
        // The raw bytes: the handler unlinks by them, and a name that is not UTF-8 is kept escaped in Strings.
        let bytes = PathBytes.bytes(of: text)
        bytes.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: bytes.count)
        }
        buffer[bytes.count] = 0
    }

    /// Under `lock`.
    private static func installIfNeeded() {
        guard table == nil else { return }
        table = Table()
        _ = ending.load()   // made before the handler can read it (a `static let` is made on first use)
        #if os(Linux)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            var old = sigaction()
            guard sigaction(signalNumber, nil, &old) == 0 else { continue }
            let oldHandler = unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self)
            if old.sa_flags & SA_SIGINFO == 0 && oldHandler == 1 { continue }   // SIG_IGN: leave it ignored
            previousActions[Int(signalNumber)] = old
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = cleanUpAndEnd
            sigemptyset(&action.sa_mask)
            // One cleanup at a time: a second signal waits until the first has ended the process.
            for other in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&action.sa_mask, other) }
            action.sa_flags = SA_SIGINFO | SA_RESTART
            sigaction(signalNumber, &action, nil)
        }
        #endif
    }

    #if os(Linux)
    /// The handlers found at installation, called by ours: written under `lock` before it is installed, read
    /// by the handler (no lock possible there).
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        actions.initialize(repeating: sigaction(), count: 65)
        return actions
    }()
    #endif
}

#if os(Linux)
/// The handler: clean up, run the handler that was there before, then end by the signal's default action.
private let cleanUpAndEnd: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
    signalNumber, info, context in
    TemporaryFileRegistry.removeAllForSignal()
    if signalNumber > 0 && signalNumber < 65 {
        let previous = TemporaryFileRegistry.previousActions[Int(signalNumber)]
        if previous.sa_flags & SA_SIGINFO != 0, let handler = previous.__sigaction_handler.sa_sigaction {
            handler(signalNumber, info, context)
        } else if let handler = previous.__sigaction_handler.sa_handler, unsafeBitCast(handler, to: Int.self) > 1 {
            handler(signalNumber)
        }
    }
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}
#endif
