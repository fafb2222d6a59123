import CSQLite
import Foundation

/// What identifies one version of a remote file, as its listing says it (issue 30 item 4): a probe stored under
/// it stays true while every part agrees. S3 and WebDAV give an ETag; SFTP a size and an mtime to the second; an
/// HTTP index page an mtime to the minute at best, which is not enough (see `RemoteValidator.init`'s callers).
public struct RemoteValidator: Hashable, Sendable {
    public var size: UInt64
    public var etag: String?
    /// LastModified (or the listing's mtime) in nanoseconds since 1970.
    public var modificationNanoseconds: Int64?

    public init(size: UInt64, etag: String?, modificationNanoseconds: Int64?) {
        self.size = size
        self.etag = etag
        self.modificationNanoseconds = modificationNanoseconds
    }
}

/// What was learnt of a remote file from its bytes, kept so that reopening its folder reads it no more.
public enum RemoteProbeKind: Int32, Sendable {
    /// `scan`'s header probe: the file's `MediaInfo` (a `ProbeRecord`).
    case header = 0
    /// The browser's preview from the head range: the thumbnail's facts and whether it replaces the still (the
    /// thumbnail itself is a file of the download cache).
    case preview = 1
}

/// A stored record and the validator it was stored under.
public struct RemoteProbeRow: Sendable {
    public var validator: RemoteValidator
    public var record: [UInt8]

    public init(validator: RemoteValidator, record: [UInt8]) {
        self.validator = validator
        self.record = record
    }
}

extension LibraryIndex {
    /// Beside the probes of local files (made with `CREATE TABLE IF NOT EXISTS` at every open, so an index of
    /// schema 4 gains it without a rebuild). Keyed by the file's URL as shown (no user or password) and the kind
    /// of record; the validator is compared on reading, and a changed file's row is replaced when probed again.
    static let remoteProbeSchema = """
        CREATE TABLE IF NOT EXISTS remote_probes(location TEXT NOT NULL, kind INTEGER NOT NULL, size INTEGER NOT NULL,
                                                 etag TEXT, mtime_ns INTEGER, record BLOB NOT NULL,
                                                 PRIMARY KEY(location, kind)) WITHOUT ROWID
        """

    /// The records of `kind` stored for `keys` whose validator still matches, by position; one read transaction.
    public func remoteProbes(_ keys: [(location: String, validator: RemoteValidator)], kind: RemoteProbeKind) -> [[UInt8]?] {
        guard !keys.isEmpty else { return [] }
        return lock.withLock {
            guard let db else { return keys.map { _ in nil } }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            guard sqlite3_prepare_v2(db, "SELECT size, etag, mtime_ns, record FROM remote_probes WHERE location = ? AND kind = ?",
                                     -1, &stmt, nil) == SQLITE_OK else { return keys.map { _ in nil } }
            let began = sqlite3_exec(db, "BEGIN", nil, nil, nil) == SQLITE_OK
            defer { if began { sqlite3_exec(db, "COMMIT", nil, nil, nil) } }
            return keys.map { key -> [UInt8]? in
                guard Self.bind(key.location, to: stmt, at: 1) == SQLITE_OK else { return nil }
                sqlite3_bind_int(stmt, 2, kind.rawValue)
                defer { sqlite3_reset(stmt) }
                guard sqlite3_step(stmt) == SQLITE_ROW else { return nil }
                let stored = RemoteValidator(
                    size: UInt64(bitPattern: sqlite3_column_int64(stmt, 0)),
                    etag: sqlite3_column_type(stmt, 1) == SQLITE_NULL ? nil : sqlite3_column_text(stmt, 1).map { String(cString: $0) },
                    modificationNanoseconds: sqlite3_column_type(stmt, 2) == SQLITE_NULL ? nil : sqlite3_column_int64(stmt, 2))
                // Every part must agree, a missing one included: a listing that stopped giving ETags is not trusted
                // with rows stored under one.
                guard stored == key.validator, let blob = sqlite3_column_blob(stmt, 3) else { return nil }
                return Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(stmt, 3))))
            }
        }
    }

    /// Stores (replaces) records of `kind` in one transaction. A cache: a failure only means probing again.
    public func storeRemoteProbes(_ rows: [(location: String, row: RemoteProbeRow)], kind: RemoteProbeKind) {
        guard !rows.isEmpty else { return }
        lock.withLock {
            guard let db else { return }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            guard sqlite3_prepare_v2(db, """
                INSERT OR REPLACE INTO remote_probes(location, kind, size, etag, mtime_ns, record) VALUES (?, ?, ?, ?, ?, ?)
                """, -1, &stmt, nil) == SQLITE_OK,
                  sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK else { return }
            for (location, row) in rows {
                _ = Self.bind(location, to: stmt, at: 1)
                sqlite3_bind_int(stmt, 2, kind.rawValue)
                sqlite3_bind_int64(stmt, 3, Int64(bitPattern: row.validator.size))
                if let etag = row.validator.etag { _ = Self.bind(etag, to: stmt, at: 4) } else { sqlite3_bind_null(stmt, 4) }
                if let time = row.validator.modificationNanoseconds { sqlite3_bind_int64(stmt, 5, time) } else { sqlite3_bind_null(stmt, 5) }
                _ = row.record.withUnsafeBytes { csqlite_bind_blob_copy(stmt, 6, $0.baseAddress, Int32($0.count)) }
                let step = sqlite3_step(stmt)
                sqlite3_reset(stmt)
                if step != SQLITE_DONE {
                    noteFailure(step)
                    if self.db != nil { sqlite3_exec(db, "ROLLBACK", nil, nil, nil) }
                    return
                }
            }
            sqlite3_exec(db, "COMMIT", nil, nil, nil)
        }
    }

    /// Forgets the rows of `folder`'s direct children (every kind) that its complete listing no longer shows:
    /// a deleted object's probe would otherwise stay forever. `folder` is a directory's location ending in "/";
    /// rows of its subfolders (a "/" after the prefix) are not touched, nor is anything else (ratings live in
    /// `triage` and are the user's). `listed`: the locations of the listing's files, read once. One transaction;
    /// returns the rows removed (0 when the index cannot be written: a cache, nothing breaks).
    @discardableResult
    public func pruneRemoteProbes<Listed: Sequence<String>>(folder: String, keeping listed: Listed) -> Int {
        // The range of locations under the prefix, so the primary key's order finds them: the prefix with its
        // final "/" raised to "0" is the first text after every one that starts with it.
        guard folder.hasSuffix("/") else { return 0 }
        let upper = String(folder.dropLast()) + "0"
        return lock.withLock {
            guard let db else { return 0 }
            guard sqlite3_exec(db, """
                CREATE TEMP TABLE IF NOT EXISTS listed_locations(location TEXT PRIMARY KEY) WITHOUT ROWID
                """, nil, nil, nil) == SQLITE_OK,
                  sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK else { return 0 }
            var insert: OpaquePointer?, delete: OpaquePointer?
            defer {
                sqlite3_finalize(insert)
                sqlite3_finalize(delete)
            }
            func rollback() -> Int {
                if self.db != nil { sqlite3_exec(db, "ROLLBACK", nil, nil, nil) }
                return 0
            }
            guard sqlite3_exec(db, "DELETE FROM temp.listed_locations", nil, nil, nil) == SQLITE_OK,
                  sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO temp.listed_locations(location) VALUES (?)",
                                     -1, &insert, nil) == SQLITE_OK,
                  sqlite3_prepare_v2(db, """
                    DELETE FROM remote_probes WHERE location >= ?1 AND location < ?2
                      AND instr(substr(location, length(?1) + 1), '/') = 0
                      AND location NOT IN (SELECT location FROM temp.listed_locations)
                    """, -1, &delete, nil) == SQLITE_OK else { return rollback() }
            for location in listed {
                _ = Self.bind(location, to: insert, at: 1)
                let step = sqlite3_step(insert)
                sqlite3_reset(insert)
                if step != SQLITE_DONE {
                    noteFailure(step)
                    return rollback()
                }
            }
            _ = Self.bind(folder, to: delete, at: 1)
            _ = Self.bind(upper, to: delete, at: 2)
            let step = sqlite3_step(delete)
            guard step == SQLITE_DONE else {
                noteFailure(step)
                return rollback()
            }
            let removed = Int(sqlite3_changes(db))
            // Emptied inside the transaction: the temporary table holds nothing between prunes.
            sqlite3_exec(db, "DELETE FROM temp.listed_locations", nil, nil, nil)
            sqlite3_exec(db, "COMMIT", nil, nil, nil)
            return removed
        }
    }

    /// The locations of the stored remote rows, sorted (for tests).
    public var remoteProbeLocations: [String] {
        lock.withLock {
            guard let db else { return [] }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            guard sqlite3_prepare_v2(db, "SELECT DISTINCT location FROM remote_probes ORDER BY location", -1, &stmt, nil) == SQLITE_OK
            else { return [] }
            var locations: [String] = []
            while sqlite3_step(stmt) == SQLITE_ROW {
                if let text = sqlite3_column_text(stmt, 0) { locations.append(String(cString: text)) }
            }
            return locations
        }
    }

    /// Rows of remote records stored (for tests).
    public var remoteProbeCount: Int {
        lock.withLock {
            guard let db else { return 0 }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            guard sqlite3_prepare_v2(db, "SELECT count(*) FROM remote_probes", -1, &stmt, nil) == SQLITE_OK,
                  sqlite3_step(stmt) == SQLITE_ROW else { return 0 }
            return Int(sqlite3_column_int64(stmt, 0))
        }
    }
}
