import Concurrent
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes temporaries that a livegrid killed with SIGKILL (or a power cut) left behind. Only files named
/// exactly like livegrid's (`TemporaryFileName`) whose owner is gone: its process no longer exists, or the
/// process now holding that pid started after the file was last written (pid reuse), or the file was written on
/// this machine before its last boot. A temporary whose owner cannot be asked (written on another machine
/// sharing the folder, or by a livegrid that did not record its pid) is stale only once it has not been
/// written for `unaskableOwnerAge`. Everything else in
/// the folder, symlinks and directories included, is never touched.
public enum StaleTemporaryFiles {
    /// A live writer writes every few milliseconds; a day without a byte means nobody is writing.
    public static let unaskableOwnerAge: Double = 24 * 3600

    /// Removes the stale temporaries directly inside `directory`; returns their names.
    @discardableResult
    public static func remove(in directory: String) -> [String] {
        guard let dir = PathBytes.withCString(directory, { opendir($0) }) else { return [] }
        defer { closedir(dir) }
        let dirFD = dirfd(dir)
        let now = wallClockNow()
        var removed: [String] = []
        while let entry = readdir(dir) {
            // Temporaries are hidden: other names are passed over without being copied (100,000-file folders).
            guard entry.pointee.d_name.0 == CChar(UInt8(ascii: ".")) else { continue }
            let name: [UInt8] = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    Array(UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))))
                }
            }
            guard let parsed = TemporaryFileName.parse(name) else { continue }
            var st = stat()
            let cName = name.map { CChar(bitPattern: $0) } + [0]
            guard fstatat(dirFD, cName, &st, AT_SYMLINK_NOFOLLOW) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            // The status-change time, not the modification time: no one can set it back (a copy gets its
            // source's mtime), and it is never earlier than the file's creation.
            let modified = Double(st.st_ctim.tv_sec) + Double(st.st_ctim.tv_nsec) / 1e9
            guard isStale(parsed, modified: modified, now: now) else { continue }
            // A killed group commit: its companions go first when their primary never arrived.
            if isGroupJournal(name) {
                GroupCommitJournal.rollBack(journalAt: (directory.hasSuffix("/") ? directory : directory + "/") + PathBytes.string(from: name))
            }
            if unlinkat(dirFD, cName, 0) == 0 { removed.append(String(decoding: name, as: UTF8.self)) }
        }
        return removed
    }

    /// `.NAME.livegrid-group.livegrid-<owner>.tmp`: a `GroupCommitJournal`.
    static func isGroupJournal(_ name: [UInt8]) -> Bool {
        let marker = Array((GroupCommitJournal.baseSuffix + ".livegrid-").utf8)
        guard name.count > marker.count else { return false }
        for start in 0...(name.count - marker.count) where name[start..<start + marker.count].elementsEqual(marker) { return true }
        return false
    }

    /// `remove(in:)` at most once per directory per process: every writer calls it before its first
    /// temporary in a folder, so the next livegrid that writes there cleans up after a killed one.
    public static func removeOnce(in directory: String) {
        let key = canonicalPath(directory)
        let first = swept.withLockedValue { $0.insert(key).inserted }
        if first { remove(in: directory) }
    }

    /// Whether a temporary named `parsed`, last changed at `modified` (seconds since the epoch), is stale.
    public static func isStale(_ parsed: TemporaryFileName.Parsed, modified: Double, now: Double) -> Bool {
        switch parsed {
        case .legacy:
            return now - modified > unaskableOwnerAge
        case .owned(let owner):
            guard owner.boot == TemporaryFileName.currentBoot else {
                // Every process of an earlier boot of this machine is gone; another machine cannot be asked.
                let machine = TemporaryFileName.machine(ofBoot: owner.boot)
                let sameMachine = machine == TemporaryFileName.currentMachine && machine != TemporaryFileName.unknown
                return sameMachine || now - modified > unaskableOwnerAge
            }
            if owner.pid != getpid() && kill(owner.pid, 0) != 0 && errno == ESRCH { return true }
            // The pid is in use: by the owner, or by a newer process that got the same pid. The owner
            // created the file after it started, so a process started after the last write is not it.
            // (2 s of slack: the boot time is known to the second.)
            guard let process = processStatus(owner.pid) else { return false }
            // A zombie (killed, not yet reaped by its parent) writes nothing any more.
            return process.isZombie || process.started > modified + 2
        }
    }

    /// When process `pid` started, in seconds since the epoch, and whether it is a zombie (Linux /proc), or nil.
    static func processStatus(_ pid: Int32) -> (started: Double, isZombie: Bool)? {
        #if os(Linux)
        guard let stat = readSmallFile("/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // Fields after "(comm)": state is field 3, starttime field 22 (clock ticks since boot).
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        let isZombie = fields.first.map { $0.elementsEqual([UInt8(ascii: "Z")]) } ?? false
        guard fields.count > 19, let ticks = Double(String(decoding: fields[19], as: UTF8.self)) else { return nil }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard ticksPerSecond > 0 else { return nil }
        var boottime = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boottime)
        let booted = wallClockNow() - (Double(boottime.tv_sec) + Double(boottime.tv_nsec) / 1e9)
        return (booted + ticks / ticksPerSecond, isZombie)
        #else
        return nil
        #endif
    }

    static func wallClockNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func canonicalPath(_ directory: String) -> String {
        guard let resolved = realpath(directory, nil) else { return directory }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static let swept = Locked<Set<String>>([])
}
