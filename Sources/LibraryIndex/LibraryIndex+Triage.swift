import CSQLite
import Foundation

/// A rating and flag kept in the index for an item whose folder livegrid cannot write (a remote library, a
/// read-only folder): where a writable folder has its XMP sidecar. Stored as numbers (rating 0-5; flag 0 none,
/// 1 pick, 2 reject): the Library module maps them to `TriageState`.
public struct TriageRow: Sendable, Hashable {
    /// The item's primary file: an absolute local path (its folder resolved), or a remote file's URL as shown
    /// (no password), percent-decoded.
    public var location: String
    /// What the file was when it was rated (nil: not known, e.g. a listing without sizes). A row applies to a
    /// file only while every value known on both sides agrees: a file replaced under the same name does not
    /// inherit the old one's rating.
    public var size: UInt64?
    public var modificationNanoseconds: Int64?
    public var rating: Int
    public var flag: Int

    public init(location: String, size: UInt64?, modificationNanoseconds: Int64?, rating: Int, flag: Int) {
        self.location = location
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.rating = rating
        self.flag = flag
    }

    /// Whether this row was stored for the file as it is now (`size`/`mtime` as known now; nil = unknown).
    public func applies(size other: UInt64?, modificationNanoseconds otherTime: Int64?) -> Bool {
        if let size, let other, size != other { return false }
        if let modificationNanoseconds, let otherTime, modificationNanoseconds != otherTime { return false }
        return true
    }
}

/// A rating that could not be stored in the index, in plain words (SQLite's message).
public struct TriageIndexError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

extension LibraryIndex {
    /// Part of schema 4 (`makeSchema`); kept when the probes are rebuilt.
    static let triageSchema = """
        CREATE TABLE IF NOT EXISTS triage(location TEXT PRIMARY KEY NOT NULL, size INTEGER, mtime_ns INTEGER,
                                          rating INTEGER NOT NULL, flag INTEGER NOT NULL) WITHOUT ROWID
        """
    static let triageSelect = "SELECT location, size, mtime_ns, rating, flag FROM triage"

    /// The rows stored for `locations` (those that have one), read in one transaction.
    public func triageRows(locations: [String]) -> [String: TriageRow] {
        guard !locations.isEmpty else { return [:] }
        return lock.withLock {
            guard let db else { return [:] }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            guard sqlite3_prepare_v2(db, Self.triageSelect + " WHERE location = ?", -1, &stmt, nil) == SQLITE_OK else { return [:] }
            let began = sqlite3_exec(db, "BEGIN", nil, nil, nil) == SQLITE_OK
            defer { if began { sqlite3_exec(db, "COMMIT", nil, nil, nil) } }
            var rows: [String: TriageRow] = [:]
            for location in Set(locations) {
                guard Self.bind(location, to: stmt, at: 1) == SQLITE_OK else { continue }
                if sqlite3_step(stmt) == SQLITE_ROW { rows[location] = Self.triageRow(stmt) }
                sqlite3_reset(stmt)
            }
            return rows
        }
    }

    /// Whether any rating is stored at all (a library with none skips making its items' keys).
    public var hasTriageRows: Bool {
        lock.withLock {
            guard let db else { return false }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            return sqlite3_prepare_v2(db, "SELECT 1 FROM triage LIMIT 1", -1, &stmt, nil) == SQLITE_OK
                && sqlite3_step(stmt) == SQLITE_ROW
        }
    }

    /// Every stored rating (for tests and for a library's whole view: a human-sized table).
    public func allTriageRows() -> [TriageRow] {
        lock.withLock {
            guard let db else { return [] }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            guard sqlite3_prepare_v2(db, Self.triageSelect, -1, &stmt, nil) == SQLITE_OK else { return [] }
            var rows: [TriageRow] = []
            while sqlite3_step(stmt) == SQLITE_ROW { rows.append(Self.triageRow(stmt)) }
            return rows
        }
    }

    /// Stores (replaces) the rating of `row.location`. Throws the reason when it was not stored: a rating the
    /// user gave must not vanish silently.
    public func storeTriage(_ row: TriageRow) throws(TriageIndexError) {
        try write("INSERT OR REPLACE INTO triage(location, size, mtime_ns, rating, flag) VALUES (?, ?, ?, ?, ?)") { stmt in
            _ = Self.bind(row.location, to: stmt, at: 1)
            if let size = row.size { sqlite3_bind_int64(stmt, 2, Int64(bitPattern: size)) } else { sqlite3_bind_null(stmt, 2) }
            if let time = row.modificationNanoseconds { sqlite3_bind_int64(stmt, 3, time) } else { sqlite3_bind_null(stmt, 3) }
            sqlite3_bind_int64(stmt, 4, Int64(row.rating))
            sqlite3_bind_int64(stmt, 5, Int64(row.flag))
        }
    }

    /// Forgets the rating of `location` (unrated: no row is left behind).
    public func removeTriage(location: String) throws(TriageIndexError) {
        try write("DELETE FROM triage WHERE location = ?") { _ = Self.bind(location, to: $0, at: 1) }
    }

    private func write(_ sql: String, bind: (OpaquePointer?) -> Void) throws(TriageIndexError) {
        let failure: TriageIndexError? = lock.withLock {
            guard let db else { return TriageIndexError(description: "the library index \(path) is not open") }
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            let prepared = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
            guard prepared == SQLITE_OK else { return TriageIndexError(description: lastError(prepared).description) }
            bind(stmt)
            let step = sqlite3_step(stmt)
            guard step == SQLITE_DONE else {
                let error = TriageIndexError(description: lastError(step).description)
                noteFailure(step)
                return error
            }
            return nil
        }
        if let failure { throw failure }
    }

    private static func triageRow(_ stmt: OpaquePointer?) -> TriageRow {
        let location = sqlite3_column_text(stmt, 0).map { String(cString: $0) } ?? ""
        let size = sqlite3_column_type(stmt, 1) == SQLITE_NULL ? nil : UInt64(bitPattern: sqlite3_column_int64(stmt, 1))
        let time = sqlite3_column_type(stmt, 2) == SQLITE_NULL ? nil : sqlite3_column_int64(stmt, 2)
        return TriageRow(location: location, size: size, modificationNanoseconds: time,
                         rating: Int(sqlite3_column_int64(stmt, 3)), flag: Int(sqlite3_column_int64(stmt, 4)))
    }
}
