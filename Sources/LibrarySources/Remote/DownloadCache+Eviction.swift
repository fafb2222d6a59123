import Foundation

/// Keeping the cache under `sizeLimit`: whole entries (one URL's directory) go, least recently used first.
extension DownloadCache {
    /// What one eviction pass saw and did.
    public struct EvictionReport: Sendable, Equatable {
        /// Cache keys (directory names) removed, oldest first.
        public var removedKeys: [String]
        public var bytesBefore: UInt64
        public var bytesAfter: UInt64
    }

    /// One URL's directory as the eviction pass sees it.
    struct Entry {
        var key: String
        var bytes: UInt64
        /// Latest access or modification of any file inside (seconds since 1970).
        var lastUsed: Double
    }

    /// Removes least recently used entries until the cache holds at most `sizeLimit` bytes (`room` less, to
    /// make room for bytes about to be written). `isProtected` is
    /// asked (just before each removal) whether a key belongs to an active download: those entries and their
    /// `.part` files are never touched. Only directories named like cache keys are considered, so a wrongly
    /// configured root never loses anything else.
    @discardableResult
    public func evict(room: UInt64 = 0, isProtected: (String) -> Bool) -> EvictionReport {
        let entries = scanEntries()
        let before = entries.reduce(UInt64(0)) { $0 + $1.bytes }
        var total = before
        var removed: [String] = []
        for entry in entries.sorted(by: { $0.lastUsed < $1.lastUsed }) where total + room > sizeLimit {
            guard !isProtected(entry.key) else { continue }
            removeEntry(entry.key)
            removed.append(entry.key)
            total -= min(total, entry.bytes)
        }
        return EvictionReport(removedKeys: removed, bytesBefore: before, bytesAfter: total)
    }

    /// Marks a cached file as just used (a cache hit), so eviction keeps it longer.
    public func markUsed(_ url: URL) {
        _ = utimensat(AT_FDCWD, dataPath(for: url), nil, 0)
    }

    /// Bytes the cache holds now (every file of every entry, partial downloads included).
    public func totalBytes() -> UInt64 { scanEntries().reduce(0) { $0 + $1.bytes } }

    func scanEntries() -> [Entry] {
        // try?: a cache that cannot be listed has nothing livegrid could evict.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        return names.compactMap { key -> Entry? in
            // try?: an entry that cannot be listed cannot be evicted either; it is skipped.
            guard Self.isKey(key), let files = try? FileManager.default.contentsOfDirectory(atPath: root + "/" + key) else {
                return nil
            }
            var entry = Entry(key: key, bytes: 0, lastUsed: 0)
            var metadataUsed: Double = 0
            for file in files {
                var st = stat()
                guard lstat(root + "/" + key + "/" + file, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
                entry.bytes += UInt64(max(0, st.st_size))
                let accessed = Double(st.st_atim.tv_sec) + Double(st.st_atim.tv_nsec) / 1e9
                let modified = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
                // meta.json is read by every state query, so its access time says little about use: only the
                // data file (or partial) counts, unless there is none.
                if file == Self.metadataFileName {
                    metadataUsed = max(accessed, modified)
                } else {
                    entry.lastUsed = max(entry.lastUsed, accessed, modified)
                }
            }
            if entry.lastUsed == 0 { entry.lastUsed = metadataUsed }
            return entry
        }
    }

    /// Removes the regular files of one entry (the names inside are the cache's own), then its directory.
    func removeEntry(_ key: String) {
        let directory = root + "/" + key
        // try?: unlisted = nothing to unlink; the rmdir below then leaves the entry, to be retried.
        for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            unlink(directory + "/" + file)
        }
        rmdir(directory)
    }

    static let metadataFileName = "meta.json"

    /// A SHA-256 in hex: what `key(for:)` makes.
    static func isKey(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
