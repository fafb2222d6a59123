import Foundation

/// Partial downloads (`file.<ext>.part`) left by earlier runs, and the lock that tells whether another
/// livegrid is using the cache right now.
extension DownloadCache {
    /// A partial file not written for this long belongs to no running download (a stalled transfer times out
    /// after `RemoteHTTPConfiguration.idleTimeout`, 20 s), even when another livegrid uses the cache.
    public static let stalePartialAge: TimeInterval = 15 * 60

    static let useLockName = ".in-use"

    /// Opens `<root>/.in-use` and takes a shared `flock` on it, which every manager holds while it lives. The
    /// second value is true when, just before, an exclusive lock could be had: no other process uses the
    /// cache, so every partial file in it is debris. Returns (-1, false) when the lock file cannot be made
    /// (a read-only cache: nothing will be written there either).
    public func holdUseLock() -> (fd: Int32, alone: Bool) {
        // try?: a cache root that cannot be made fails the first download with its own message.
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let fd = open(root + "/" + Self.useLockName, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return (-1, false) }
        let alone = flock(fd, LOCK_EX | LOCK_NB) == 0
        // Shared from here on (from exclusive, this converts the lock; a failure leaves this process
        // unregistered, which only makes another instance's start sweep more cautious than needed).
        _ = flock(fd, LOCK_SH | LOCK_NB)
        return (fd, alone)
    }

    /// The partial files in the cache with their entry's key: all of them (`age` nil), or those last written
    /// more than `age` seconds before `now`.
    public func partialFiles(olderThan age: TimeInterval?, now: Date) -> [(key: String, path: String)] {
        // try?: a cache that cannot be listed holds nothing livegrid could remove.
        guard let keys = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        var found: [(key: String, path: String)] = []
        for key in keys where Self.isKey(key) {
            let directory = root + "/" + key
            // try?: an entry that cannot be listed is left alone (eviction treats it the same way).
            for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where file.hasSuffix(".part") {
                var st = stat()
                guard lstat(directory + "/" + file, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
                let modified = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
                if let age, now.timeIntervalSince1970 - modified < age { continue }
                found.append((key, directory + "/" + file))
            }
        }
        return found
    }
}
