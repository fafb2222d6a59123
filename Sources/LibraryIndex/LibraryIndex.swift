import CSQLite
import Concurrent
import Foundation
import MediaFormats

/// What identifies one version of a file on disk: a probe stored under it stays true while all four agree.
/// Keyed by device and inode, not path, so a renamed folder or a hard link reuses the probe, and a file
/// replaced in place (new inode, or new size/mtime) is probed again.
public struct FileStamp: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: UInt64
    /// Modification time in nanoseconds since 1970.
    public var modificationNanoseconds: Int64
    public init(device: UInt64, inode: UInt64, size: UInt64, modificationNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
    }
}

/// The persistent library index: each file's probe (`MediaInfo`) in SQLite under
/// `$XDG_CACHE_HOME/livegrid/`, so reopening a known library probes only the files that changed.
///
/// It is a cache: a damaged or unreadable database is moved aside and rebuilt (with a plain warning), and
/// any failure later only means "probe the file again". WAL mode keeps a killed writer from corrupting it:
/// an interrupted transaction is rolled back on the next open.
// unchecked: one SQLite connection and its prepared statements (C pointers); every use holds `lock`.
public final class LibraryIndex: @unchecked Sendable {
    public let path: String
    /// Said once to the user when the index had to be rebuilt or switched off (plain words).
    public private(set) var warning: String?
    private let lock = NSLock()
    private var db: OpaquePointer?
    private var select: OpaquePointer?
    private var insert: OpaquePointer?
    static let schemaVersion: Int32 = 1

    /// `$XDG_CACHE_HOME/livegrid/library-index.sqlite` (default `~/.cache`).
    public static func defaultPath(environment: [String: String]) -> String {
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        return cache + "/livegrid/library-index.sqlite"
    }

    /// Opens (or creates) the index at `path`. Never fails: an index that cannot be opened at all is an index
    /// that remembers nothing, with `warning` saying why.
    public init(path: String) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        switch openAndPrepare() {
        case .success:
            break
        case .failure(let error) where error.isDamage:
            closeAll()
            removeFiles()
            if case .failure(let again) = openAndPrepare() {
                closeAll()
                warning = "the library index \(path) cannot be used (\(again.description)): every file is probed"
            } else {
                warning = "the library index \(path) was damaged (\(error.description)) and has been rebuilt"
            }
        case .failure(let error):
            closeAll()
            warning = "the library index \(path) cannot be used (\(error.description)): every file is probed"
        }
    }

    deinit { closeAll() }

    public var isUsable: Bool { lock.withLock { db != nil } }

    /// The stored probe of the file with `stamp`, when its size and mtime still match.
    public func lookup(_ stamp: FileStamp) -> MediaInfo? {
        lock.withLock {
            guard let select else { return nil }
            defer { sqlite3_reset(select) }
            sqlite3_bind_int64(select, 1, Int64(bitPattern: stamp.device))
            sqlite3_bind_int64(select, 2, Int64(bitPattern: stamp.inode))
            let step = sqlite3_step(select)
            guard step == SQLITE_ROW else {
                if step != SQLITE_DONE { noteFailure(step) }
                return nil
            }
            guard UInt64(bitPattern: sqlite3_column_int64(select, 0)) == stamp.size,
                  sqlite3_column_int64(select, 1) == stamp.modificationNanoseconds,
                  let blob = sqlite3_column_blob(select, 2) else { return nil }
            let count = Int(sqlite3_column_bytes(select, 2))
            return ProbeRecord.decode(UnsafeRawBufferPointer(start: blob, count: count))
        }
    }

    /// Stores probes in one transaction (a crash loses the transaction, never the database).
    public func store(_ entries: [(stamp: FileStamp, info: MediaInfo)]) {
        guard !entries.isEmpty else { return }
        let records = entries.map { ($0.stamp, ProbeRecord.encode($0.info)) }
        lock.withLock {
            guard let insert, exec("BEGIN IMMEDIATE") else { return }
            for (stamp, record) in records {
                sqlite3_bind_int64(insert, 1, Int64(bitPattern: stamp.device))
                sqlite3_bind_int64(insert, 2, Int64(bitPattern: stamp.inode))
                sqlite3_bind_int64(insert, 3, Int64(bitPattern: stamp.size))
                sqlite3_bind_int64(insert, 4, stamp.modificationNanoseconds)
                _ = record.withUnsafeBytes { csqlite_bind_blob_copy(insert, 5, $0.baseAddress, Int32($0.count)) }
                let step = sqlite3_step(insert)
                sqlite3_reset(insert)
                if step != SQLITE_DONE {
                    noteFailure(step)
                    _ = exec("ROLLBACK")
                    return
                }
            }
            _ = exec("COMMIT")
        }
    }

    /// SQLite's own `PRAGMA integrity_check` answer ("ok" when sound), for tests and diagnostics.
    public func integrityCheck() -> String {
        lock.withLock {
            guard let db else { return "not open" }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            guard sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, nil) == SQLITE_OK else { return lastError(0).description }
            var lines: [String] = []
            while sqlite3_step(stmt) == SQLITE_ROW, let text = sqlite3_column_text(stmt, 0) { lines.append(String(cString: text)) }
            return lines.joined(separator: "; ")
        }
    }

    /// Rows stored (for tests and `scan --stats`).
    public var count: Int {
        lock.withLock {
            guard let db else { return 0 }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            guard sqlite3_prepare_v2(db, "SELECT count(*) FROM probes", -1, &stmt, nil) == SQLITE_OK,
                  sqlite3_step(stmt) == SQLITE_ROW else { return 0 }
            return Int(sqlite3_column_int64(stmt, 0))
        }
    }

    // MARK: - SQLite

    private struct OpenError: Error {
        var code: Int32
        var description: String
        /// The file is not a database, or a damaged one: rebuild it.
        var isDamage: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }
    }

    private func openAndPrepare() -> Result<Void, OpenError> {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let opened = sqlite3_open_v2(path, &handle, flags, nil)
        db = handle
        guard opened == SQLITE_OK, db != nil else { return .failure(lastError(opened)) }
        sqlite3_busy_timeout(db, 2000)
        // WAL with synchronous=NORMAL: a crash or SIGKILL can lose the last transactions, never corrupt the file.
        for statement in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL"] {
            let code = sqlite3_exec(db, statement, nil, nil, nil)
            if code != SQLITE_OK { return .failure(lastError(code)) }
        }
        var version: Int32 = 0
        var stmt: OpaquePointer?
        var code = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nil)
        if code == SQLITE_OK {
            code = sqlite3_step(stmt)
            if code == SQLITE_ROW { version = sqlite3_column_int(stmt, 0); code = SQLITE_OK }
        }
        sqlite3_finalize(stmt)
        if code != SQLITE_OK { return .failure(lastError(code)) }
        if version != Self.schemaVersion {
            let schema = """
                DROP TABLE IF EXISTS probes;
                CREATE TABLE probes(device INTEGER NOT NULL, inode INTEGER NOT NULL, size INTEGER NOT NULL,
                                    mtime_ns INTEGER NOT NULL, info BLOB NOT NULL,
                                    PRIMARY KEY(device, inode)) WITHOUT ROWID;
                PRAGMA user_version = \(Self.schemaVersion);
                """
            code = sqlite3_exec(db, schema, nil, nil, nil)
            if code != SQLITE_OK { return .failure(lastError(code)) }
        }
        code = sqlite3_prepare_v2(db, "SELECT size, mtime_ns, info FROM probes WHERE device = ? AND inode = ?", -1, &select, nil)
        if code != SQLITE_OK { return .failure(lastError(code)) }
        code = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO probes(device, inode, size, mtime_ns, info) VALUES (?, ?, ?, ?, ?)",
                                  -1, &insert, nil)
        if code != SQLITE_OK { return .failure(lastError(code)) }
        return .success(())
    }

    private func lastError(_ code: Int32) -> OpenError {
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        return OpenError(code: code & 0xFF, description: message)
    }

    /// Damage found while reading or writing: stop using the index for this run and remove it, so the next
    /// open starts a fresh one. Busy or full disks only skip this step.
    private func noteFailure(_ code: Int32) {
        let primary = code & 0xFF
        guard primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB else { return }
        warning = "the library index \(path) is damaged (\(lastError(code).description)); it will be rebuilt"
        closeAll()
        removeFiles()
    }

    private func exec(_ sql: String) -> Bool {
        guard let db else { return false }
        let code = sqlite3_exec(db, sql, nil, nil, nil)
        if code != SQLITE_OK { noteFailure(code); return false }
        return true
    }

    private func closeAll() {
        if let select { sqlite3_finalize(select) }
        if let insert { sqlite3_finalize(insert) }
        if let db { sqlite3_close_v2(db) }
        select = nil
        insert = nil
        db = nil
    }

    private func removeFiles() {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }
}

/// The index opened on first use, once, from whichever thread asks first (the browser's scan thread):
/// opening it never delays the first screen.
public final class LazyLibraryIndex: Sendable {
    private let opened = Locked<LibraryIndex?>(nil)
    private let path: String
    public init(path: String) { self.path = path }
    public var value: LibraryIndex {
        let path = path
        return opened.withLockedValue { opened in
            if let opened { return opened }
            let index = LibraryIndex(path: path)
            opened = index
            return index
        }
    }
}
