import CSQLite
import Concurrent
import Foundation
import MediaFormats

/// What identifies one version of a file on disk: a probe stored under it stays true while all five agree.
/// Keyed by device and inode, not path, so a renamed folder or a hard link reuses the probe, and a file
/// replaced in place (new inode, or new size/mtime/ctime) is probed again. The ctime matters: `touch -r` puts
/// an old mtime back on a rewritten file, but nothing can set the ctime back.
public struct FileStamp: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: UInt64
    /// Modification time in nanoseconds since 1970.
    public var modificationNanoseconds: Int64
    /// Inode change time (st_ctim) in nanoseconds since 1970.
    public var changeNanoseconds: Int64
    public init(device: UInt64, inode: UInt64, size: UInt64, modificationNanoseconds: Int64, changeNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.changeNanoseconds = changeNanoseconds
    }
}

/// A file's or a folder's identity on disk: device and inode.
public struct InodeKey: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
    /// A folder whose `stat` failed: nothing is filed under it.
    public static let unknown = InodeKey(device: 0, inode: 0)
}

extension FileStamp {
    public var key: InodeKey { InodeKey(device: device, inode: inode) }
}

/// The rows filed under one folder, read in one statement: the scan matches each file against them without
/// a query (or a lock) per file. Records stay encoded in one byte array until a file asks for one.
public struct FolderRows: Sendable {
    /// A row's probe is decoded as it is read, into the compact form the library keeps (the file's
    /// `MediaFile` then holds this very box): the stored records of a 100,000-item library were ~44 MB held
    /// beside their decoded facts through the scan, most of its peak memory (issue 17 item 4).
    struct Row: Sendable {
        var size: UInt64
        var modificationNanoseconds: Int64
        var changeNanoseconds: Int64
        var info: MediaInfo?
    }
    var rows: [InodeKey: Row] = [:]

    public init() {}

    /// The stored probe of the file with `stamp`, when it is filed here and its size, mtime and ctime still match.
    public func info(for stamp: FileStamp) -> MediaInfo? {
        guard let row = rows[stamp.key], row.size == stamp.size,
              row.modificationNanoseconds == stamp.modificationNanoseconds,
              row.changeNanoseconds == stamp.changeNanoseconds else { return nil }
        return row.info
    }

    /// The files filed here (what a folder scan that no longer finds them prunes).
    public var files: [InodeKey] { Array(rows.keys) }
    /// Whether a file filed here is not in `found` (without listing the files).
    public func hasFile(notIn found: Set<InodeKey>) -> Bool { rows.keys.contains { !found.contains($0) } }
    public var count: Int { rows.count }
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
    /// A plain lock around the C connection below (its statements are used in place, so they stay fields of
    /// the class rather than a value inside the lock).
    let lock = Locked()
    var db: OpaquePointer?
    private var select: OpaquePointer?
    private var insert: OpaquePointer?
    private var selectFolder: OpaquePointer?
    private var delete: OpaquePointer?
    private var toldCannotWrite = false
    /// 2: rows filed under their folder's device and inode (read a folder at once, prune what it lost).
    /// 3: the ctime is part of the key (`FileStamp`).
    /// 4: ratings and flags of items whose folder cannot be written (`triage`, see LibraryIndex+Triage.swift).
    static let schemaVersion: Int32 = 4

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
        // try?: opening the index below fails with the reason, kept in `warning`.
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let movedAside = moveAsideWhatIsNotADatabaseFile()
        var opened = openAndPrepare()
        // Another process (or thread) making the schema or the WAL at this moment can answer "locked" where the
        // busy timeout does not apply (a journal-mode change, a WAL recovery): that is a wait, not a broken index.
        var attempt: UInt32 = 0
        while case .failure(let error) = opened, error.isBusy, attempt < 5 {
            closeAll()
            attempt += 1
            usleep(20_000 << attempt)   // 40 ms, then doubling: 1.2 s in all
            opened = openAndPrepare()
        }
        switch opened {
        case .success:
            if let movedAside { warning = movedAside }
        case .failure(let error) where error.isWrongSchema:
            closeAll()
            let aside = moveAside(because: "its tables are not livegrid's (\(error.description))")
            if case .failure(let again) = openAndPrepare() {
                closeAll()
                warning = "the library index \(path) cannot be used (\(again.description)): every file is probed"
            } else {
                warning = aside
            }
        case .failure(let error) where error.isDamage:
            closeAll()
            // Moved aside, not removed: it may hold ratings of read-only and remote libraries (the user's
            // decisions, which `sqlite3 .recover` can often get back), not only probes.
            let aside = moveAside(because: "it was damaged: \(error.description)")
            if case .failure(let again) = openAndPrepare() {
                closeAll()
                warning = "the library index \(path) cannot be used (\(again.description)): every file is probed"
            } else {
                warning = aside
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
        lock.withLock { lookupLocked(stamp) }
    }

    /// `lookup` for many files in one read transaction (one shared lock of the database, not one per file).
    public func lookup(_ stamps: [FileStamp]) -> [MediaInfo?] {
        guard !stamps.isEmpty else { return [] }
        return lock.withLock {
            guard db != nil else { return stamps.map { _ in nil } }
            let transaction = exec("BEGIN")
            defer { if transaction, db != nil { _ = exec("COMMIT") } }
            return stamps.map { lookupLocked($0) }
        }
    }

    private func lookupLocked(_ stamp: FileStamp) -> MediaInfo? {
        guard let select else { return nil }
        sqlite3_bind_int64(select, 1, Int64(bitPattern: stamp.device))
        sqlite3_bind_int64(select, 2, Int64(bitPattern: stamp.inode))
        let step = sqlite3_step(select)
        guard step == SQLITE_ROW else {
            sqlite3_reset(select)
            // After the reset: a damaged database closes every statement.
            if step != SQLITE_DONE { noteFailure(step) }
            return nil
        }
        defer { sqlite3_reset(select) }
        guard UInt64(bitPattern: sqlite3_column_int64(select, 0)) == stamp.size,
              sqlite3_column_int64(select, 1) == stamp.modificationNanoseconds,
              sqlite3_column_int64(select, 3) == stamp.changeNanoseconds,
              let blob = sqlite3_column_blob(select, 2) else { return nil }
        let count = Int(sqlite3_column_bytes(select, 2))
        return ProbeRecord.decode(UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// The rows filed under each of `folders`, read in one transaction with one prepared statement: opening a
    /// known 100,000-file folder reads its rows in one pass instead of 100,000 queries.
    public func rows(inFolders folders: [InodeKey]) -> [FolderRows] {
        lock.withLock {
            guard let selectFolder else { return folders.map { _ in FolderRows() } }
            let transaction = exec("BEGIN")
            defer { if transaction, db != nil { _ = exec("COMMIT") } }
            var result: [FolderRows] = []
            result.reserveCapacity(folders.count)
            var memo = SharedNamesMemo()
            for folder in folders {
                var rows = FolderRows()
                guard folder != .unknown, self.selectFolder != nil else { result.append(rows); continue }
                sqlite3_bind_int64(selectFolder, 1, Int64(bitPattern: folder.device))
                sqlite3_bind_int64(selectFolder, 2, Int64(bitPattern: folder.inode))
                var step = sqlite3_step(selectFolder)
                while step == SQLITE_ROW {
                    let key = InodeKey(device: UInt64(bitPattern: sqlite3_column_int64(selectFolder, 0)),
                                       inode: UInt64(bitPattern: sqlite3_column_int64(selectFolder, 1)))
                    let count = Int(sqlite3_column_bytes(selectFolder, 4))
                    var info: MediaInfo? = nil
                    if count > 0, let blob = sqlite3_column_blob(selectFolder, 4) {
                        info = ProbeRecord.decode(UnsafeRawBufferPointer(start: blob, count: count), memo: &memo)
                    }
                    rows.rows[key] = FolderRows.Row(size: UInt64(bitPattern: sqlite3_column_int64(selectFolder, 2)),
                                                    modificationNanoseconds: sqlite3_column_int64(selectFolder, 3),
                                                    changeNanoseconds: sqlite3_column_int64(selectFolder, 5),
                                                    info: info)
                    step = sqlite3_step(selectFolder)
                }
                sqlite3_reset(selectFolder)
                if step != SQLITE_DONE {
                    noteFailure(step)
                    result.append(FolderRows())
                    continue
                }
                result.append(rows)
            }
            return result
        }
    }

    /// Stores probes, each filed under its folder, in one transaction (a crash loses the transaction, never
    /// the database).
    public func store(_ entries: [(stamp: FileStamp, folder: InodeKey, info: MediaInfo)]) {
        guard !entries.isEmpty else { return }
        let records = entries.map { ($0.stamp, $0.folder, ProbeRecord.encode($0.info)) }
        lock.withLock {
            stepInOneTransaction(insert, over: records) { insert, row in
                let (stamp, folder, record) = row
                sqlite3_bind_int64(insert, 1, Int64(bitPattern: stamp.device))
                sqlite3_bind_int64(insert, 2, Int64(bitPattern: stamp.inode))
                sqlite3_bind_int64(insert, 3, Int64(bitPattern: stamp.size))
                sqlite3_bind_int64(insert, 4, stamp.modificationNanoseconds)
                _ = record.withUnsafeBytes { csqlite_bind_blob_copy(insert, 5, $0.baseAddress, Int32($0.count)) }
                sqlite3_bind_int64(insert, 6, Int64(bitPattern: folder.device))
                sqlite3_bind_int64(insert, 7, Int64(bitPattern: folder.inode))
                sqlite3_bind_int64(insert, 8, stamp.changeNanoseconds)
            }
        }
    }

    /// Stores probes of files whose folder is not known.
    public func store(_ entries: [(stamp: FileStamp, info: MediaInfo)]) {
        store(entries.map { (stamp: $0.stamp, folder: InodeKey.unknown, info: $0.info) })
    }

    /// Removes the rows of `files` filed under `folder` (a folder scan no longer found them), in one
    /// transaction. A row the same scan filed under another folder (the file moved) is left alone.
    public func remove(_ files: [InodeKey], fromFolder folder: InodeKey) {
        guard !files.isEmpty else { return }
        lock.withLock {
            stepInOneTransaction(delete, over: files) { delete, file in
                sqlite3_bind_int64(delete, 1, Int64(bitPattern: folder.device))
                sqlite3_bind_int64(delete, 2, Int64(bitPattern: folder.inode))
                sqlite3_bind_int64(delete, 3, Int64(bitPattern: file.device))
                sqlite3_bind_int64(delete, 4, Int64(bitPattern: file.inode))
            }
        }
    }

    /// Runs `statement` once per row, bound by `bind`, in one transaction; the first failing step rolls the
    /// whole transaction back (a crash or a full disk loses the batch, never the database). Under `lock`.
    private func stepInOneTransaction<Row>(_ statement: OpaquePointer?, over rows: [Row],
                                           bind: (OpaquePointer, Row) -> Void) {
        guard let statement, exec("BEGIN IMMEDIATE") else { return }
        for row in rows {
            bind(statement, row)
            let step = sqlite3_step(statement)
            sqlite3_reset(statement)
            if step != SQLITE_DONE {
                noteFailure(step)
                if db != nil { _ = exec("ROLLBACK") }
                return
            }
        }
        _ = exec("COMMIT")
    }

    /// The item ids (still paths) the view `view` showed first when it was last opened, in screen order; empty
    /// when unknown. A hint only: the browser loads their cached thumbnails while it still lists the folder, so a
    /// known library's first screen is ready when its items are (issue 17 item 2); a stale hint costs a few
    /// cache look-ups.
    public func firstScreen(view: String) -> [String] {
        lock.withLock {
            guard let db else { return [] }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            guard sqlite3_prepare_v2(db, "SELECT items FROM first_screens WHERE view = ?", -1, &stmt, nil) == SQLITE_OK,
                  Self.bind(view, to: stmt, at: 1) == SQLITE_OK, sqlite3_step(stmt) == SQLITE_ROW,
                  let blob = sqlite3_column_blob(stmt, 0) else { return [] }
            let bytes = UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(stmt, 0)))
            // Ids are NUL-separated: a path holds any byte but NUL.
            return bytes.split(separator: 0, omittingEmptySubsequences: true).prefix(Self.firstScreenLimit)
                .map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Remembers what `view` showed first (at most `firstScreenLimit` ids).
    public func storeFirstScreen(_ ids: [String], view: String) {
        var blob: [UInt8] = []
        for id in ids.prefix(Self.firstScreenLimit) where !id.utf8.contains(0) {
            blob.append(contentsOf: id.utf8)
            blob.append(0)
        }
        lock.withLock {
            guard let db else { return }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            guard sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO first_screens(view, items) VALUES (?, ?)", -1, &stmt,
                                     nil) == SQLITE_OK,
                  Self.bind(view, to: stmt, at: 1) == SQLITE_OK else { return }
            _ = blob.withUnsafeBytes { csqlite_bind_blob_copy(stmt, 2, $0.baseAddress, Int32($0.count)) }
            let step = sqlite3_step(stmt)
            if step != SQLITE_DONE { noteFailure(step) }
        }
    }

    /// The largest first screen remembered (a 400x100 terminal at the smallest zoom shows fewer).
    public static let firstScreenLimit = 512

    static func bind(_ text: String, to statement: OpaquePointer?, at index: Int32) -> Int32 {
        var bytes = Array(text.utf8)
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                csqlite_bind_text_copy(statement, index, $0.baseAddress, Int32(buffer.count - 1))
            }
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

    struct OpenError: Error {
        var code: Int32
        var description: String
        /// A database whose tables are not the ones this version made (the version number lies, or another
        /// program wrote there): moved aside and rebuilt.
        var isWrongSchema = false
        /// The file is not a database, or a damaged one: rebuild it.
        var isDamage: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }
        /// Another connection holds the database for now.
        var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    }

    private func wrongSchema(_ code: Int32) -> OpenError {
        var error = lastError(code)
        // A statement that cannot be prepared because the database is busy says nothing about its tables.
        error.isWrongSchema = !error.isBusy
        return error
    }

    /// Said once per run: the index is read but new probes cannot be stored.
    private func cannotWrite(_ code: Int32) {
        guard !toldCannotWrite else { return }
        toldCannotWrite = true
        warning = "the library index \(path) cannot be written (\(lastError(code).description)): "
            + "files probed now are probed again next time"
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
        // The version is read and the schema made in one write transaction: four first scans at once on an
        // empty cache each saw version 0, and all but one failed on "table probes already exists".
        var code = sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        if code & 0xFF == SQLITE_READONLY || code & 0xFF == SQLITE_CANTOPEN || code & 0xFF == SQLITE_PERM {
            // An index that can be read but not written (immutable, someone else's): its probes still help; the
            // user hears once that new ones are not remembered, instead of a silent re-probe every run.
            cannotWrite(code)
            guard storedVersion() == Self.schemaVersion else { return .failure(lastError(code)) }
        } else {
            if code != SQLITE_OK { return .failure(lastError(code)) }
            let made = makeSchema()
            code = sqlite3_exec(db, made == SQLITE_OK ? "COMMIT" : "ROLLBACK", nil, nil, nil)
            if made != SQLITE_OK { return .failure(lastError(made)) }
            if code != SQLITE_OK { return .failure(lastError(code)) }
        }
        code = sqlite3_prepare_v2(db, "SELECT size, mtime_ns, info, ctime_ns FROM probes WHERE device = ? AND inode = ?", -1,
                                  &select, nil)
        if code != SQLITE_OK { return .failure(wrongSchema(code)) }
        // A file's row lives under one folder: storing it under another (a moved file) replaces it through the
        // unique (device, inode) index.
        code = sqlite3_prepare_v2(db, """
            INSERT OR REPLACE INTO probes(device, inode, size, mtime_ns, info, folder_device, folder_inode, ctime_ns)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, -1, &insert, nil)
        if code != SQLITE_OK { return .failure(wrongSchema(code)) }
        code = sqlite3_prepare_v2(db, """
            SELECT device, inode, size, mtime_ns, info, ctime_ns FROM probes WHERE folder_device = ? AND folder_inode = ?
            """, -1, &selectFolder, nil)
        if code != SQLITE_OK { return .failure(wrongSchema(code)) }
        code = sqlite3_prepare_v2(db, """
            DELETE FROM probes WHERE folder_device = ? AND folder_inode = ? AND device = ? AND inode = ?
            """, -1, &delete, nil)
        if code != SQLITE_OK { return .failure(wrongSchema(code)) }
        // The triage table as this version reads it (a table of that name with other columns is not ours).
        var triageCheck: OpaquePointer?
        code = sqlite3_prepare_v2(db, Self.triageSelect + " LIMIT 0", -1, &triageCheck, nil)
        sqlite3_finalize(triageCheck)
        if code != SQLITE_OK { return .failure(wrongSchema(code)) }
        return .success(())
    }

    /// `PRAGMA user_version`, or nil when it cannot be read.
    private func storedVersion() -> Int32? {
        var stmt: OpaquePointer?
        defer { sqlite3_finalize(stmt) }
        guard sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nil) == SQLITE_OK,
              sqlite3_step(stmt) == SQLITE_ROW else { return nil }
        return sqlite3_column_int(stmt, 0)
    }

    /// Inside the open's transaction: the schema of `schemaVersion`, made unless it is there.
    private func makeSchema() -> Int32 {
        var code: Int32 = SQLITE_OK
        guard let version = storedVersion() else { return sqlite3_errcode(db) }
        if version == 3 {
            // 3 -> 4 adds the triage table only: the probes are kept (a migration, not a rebuild).
            code = sqlite3_exec(db, "PRAGMA user_version = \(Self.schemaVersion)", nil, nil, nil)
            if code != SQLITE_OK { return code }
        } else if version != Self.schemaVersion {
            let schema = """
                DROP TABLE IF EXISTS probes;
                CREATE TABLE probes(folder_device INTEGER NOT NULL, folder_inode INTEGER NOT NULL,
                                    device INTEGER NOT NULL, inode INTEGER NOT NULL, size INTEGER NOT NULL,
                                    mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, info BLOB NOT NULL,
                                    PRIMARY KEY(folder_device, folder_inode, device, inode)) WITHOUT ROWID;
                CREATE UNIQUE INDEX probes_by_file ON probes(device, inode);
                PRAGMA user_version = \(Self.schemaVersion);
                """
            code = sqlite3_exec(db, schema, nil, nil, nil)
            if code != SQLITE_OK { return code }
        }
        // Beside the probes (no rebuild): the pictures a view showed first, by view (see `firstScreen`).
        code = sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS first_screens(view TEXT PRIMARY KEY, items BLOB NOT NULL)",
                            nil, nil, nil)
        if code != SQLITE_OK { return code }
        // Beside the probes, like the first screens: what remote files' bytes told (LibraryIndex+Remote).
        code = sqlite3_exec(db, Self.remoteProbeSchema, nil, nil, nil)
        if code != SQLITE_OK { return code }
        // Never dropped with the probes: ratings are the user's decisions, not a cache (LibraryIndex+Triage).
        return sqlite3_exec(db, Self.triageSchema, nil, nil, nil)
    }

    func lastError(_ code: Int32) -> OpenError {
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        // A full disk reaches SQLite as "disk I/O error" when the WAL's shared memory cannot grow: say what it is.
        if code & 0xFF == SQLITE_FULL || code & 0xFF == SQLITE_IOERR, folderIsFull() {
            return OpenError(code: code & 0xFF, description: "the disk is full")
        }
        // SQLite's "attempt to write a readonly database" for an index (or its folder) livegrid may not write.
        if code & 0xFF == SQLITE_READONLY || code & 0xFF == SQLITE_PERM {
            return OpenError(code: code & 0xFF, description: "livegrid may not write it: it is read-only, or another user's")
        }
        return OpenError(code: code & 0xFF, description: message)
    }

    /// Whether the index's file system has no block left for an unprivileged writer.
    private func folderIsFull() -> Bool {
        var space = statvfs()
        return statvfs((path as NSString).deletingLastPathComponent, &space) == 0 && space.f_bavail == 0
    }

    /// Damage found while reading or writing: stop using the index for this run and remove it, so the next
    /// open starts a fresh one. Busy or full disks only skip this step.
    func noteFailure(_ code: Int32) {
        let primary = code & 0xFF
        if [SQLITE_READONLY, SQLITE_FULL, SQLITE_PERM, SQLITE_CANTOPEN, SQLITE_IOERR].contains(primary) {
            cannotWrite(code)
            return
        }
        guard primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB else { return }
        let reason = lastError(code).description
        closeAll()
        _ = moveAside(because: "it is damaged")   // kept for its ratings, as at open
        warning = "the library index \(path) is damaged (\(reason)); it was moved aside and will be rebuilt"
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
        if let selectFolder { sqlite3_finalize(selectFolder) }
        if let delete { sqlite3_finalize(delete) }
        if let db { sqlite3_close_v2(db) }
        select = nil
        insert = nil
        selectFolder = nil
        delete = nil
        db = nil
    }

    /// A directory, a dangling symlink or anything but a file (or a link to one) at the index's path is renamed
    /// out of the way, so the index is made anew instead of failing (and warning) on every run. The sentence
    /// for the user, or nil when the path was fine.
    private func moveAsideWhatIsNotADatabaseFile() -> String? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            return nil
        case S_IFLNK:
            var target = stat()
            if stat(path, &target) == 0, target.st_mode & S_IFMT == S_IFREG { return nil }
            return moveAside(because: stat(path, &target) == 0 ? "it is a symbolic link to something not a file"
                                                              : "it is a symbolic link to nothing")
        case S_IFDIR:
            return moveAside(because: "it is a directory")
        default:
            return moveAside(because: "it is not a regular file")
        }
    }

    /// Renames the index (and its -wal/-shm) to `NAME.moved-aside[-N]`, never over anything; the sentence.
    private func moveAside(because reason: String) -> String {
        var aside = path + ".moved-aside"
        var n = 1
        while access(aside, F_OK) == 0 || { var st = stat(); return lstat(aside, &st) == 0 }() {
            n += 1
            aside = path + ".moved-aside-\(n)"
        }
        guard rename(path, aside) == 0 else {
            return "the library index \(path) cannot be used (\(reason)) and cannot be moved aside "
                + "(\(String(cString: strerror(errno)))): every file is probed"
        }
        // The WAL goes with its database (it may hold its last transactions); the shared-memory index is rebuilt.
        if rename(path + "-wal", aside + "-wal") != 0 { unlink(path + "-wal") }
        unlink(path + "-shm")
        return "the library index \(path) was moved aside to \(aside) (\(reason)) and has been rebuilt"
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
