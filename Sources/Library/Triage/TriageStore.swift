import Foundation
import LibraryCore
import LibraryIndex
import LivePairing
import MediaFormats

/// Where ratings and flags are kept: the item's XMP sidecar when its folder can be written (as always), else
/// livegrid's library index (issue 31.5): a remote library (http, WebDAV, sftp, S3: livegrid never writes to
/// one) or a local folder `access(W_OK)` refuses (read-only permissions, a read-only mount).
///
/// Reading: a row in the index wins over a sidecar, because a row only exists where the sidecar could not be
/// written (a read-only folder whose old sidecar says 3 stars, rated 5 by livegrid, shows 5). Writing to a
/// sidecar removes the item's row, so the two never disagree for a writable folder.
public struct TriageStore: Sendable {
    /// The index, opened on first use (nil: `--no-index` / `[library] index = false`, then ratings cannot be
    /// kept where the folder is read-only, and the user is told so).
    private let index: @Sendable () -> LibraryIndex?

    public init(index: @escaping @Sendable () -> LibraryIndex?) { self.index = index }

    /// Sidecars only (no index).
    public static let sidecarsOnly = TriageStore(index: { nil })

    /// Where a rating of an item goes.
    public enum Place: Sendable, Equatable {
        case sidecar
        /// In the index, and why (the end of "ratings are kept in livegrid's index: …").
        case index(reason: String)
    }

    public enum StoreError: Error, CustomStringConvertible {
        case sidecar(any Error)
        /// The folder cannot be written and there is no index to keep the rating in.
        case noIndex(name: String, reason: String)
        case index(name: String, TriageIndexError)
        public var description: String {
            switch self {
            case .sidecar(let error): return "\(error)"
            case .noIndex(let name, let reason):
                return "\(name): \(reason) and the library index is off ([library] index, --no-index): the rating was not saved"
            case .index(let name, let error):
                return "\(name): the rating was not saved in the library index: \(error.description)"
            }
        }
    }

    /// The reason a remote library's ratings are kept in the index.
    public static let remoteReason = TriageIndexReason.remote
    public static let readOnlyReason = TriageIndexReason.readOnly

    /// Where a local item's rating goes: its sidecar unless `access(W_OK)` refuses its folder (asked, not found
    /// out by failing a write: a failed write would be a temporary file tried in the user's folder).
    public static func place(forFile path: String) -> Place {
        let folder = (path as NSString).deletingLastPathComponent
        let writable = PathBytes.withCString(folder.isEmpty ? "." : folder) { access($0, W_OK) } == 0
        return writable ? .sidecar : .index(reason: readOnlyReason)
    }

    // MARK: local items

    /// The ratings and flags of local items that have one (unrated ones are left out), by item id.
    public func read(_ items: [LibraryItem]) -> [ItemID: TriageState] {
        var states: [ItemID: TriageState] = [:]
        for item in items {
            // try?: an unreadable sidecar is shown as unrated, as before; writing to it says why it failed.
            if let state = try? SidecarTriageStore.read(for: item), state != .unrated { states[item.id] = state }
        }
        guard let index = openIndex(), !items.isEmpty, index.hasTriageRows else { return states }
        // The rows are as many as ratings given in unwritable folders (human-sized): read them all, and make a
        // key only for items in a folder that has some (a 100,000-item library makes no 100,000 keys or queries).
        let rows = Dictionary(index.allTriageRows().map { ($0.location, $0) }, uniquingKeysWith: { a, _ in a })
        let folders = Set(rows.keys.map { ($0 as NSString).deletingLastPathComponent })
        var locations = LocalLocations()
        var folderHasRows: [String: Bool] = [:]   // by the files' shared folder prefix: no path made per item
        for item in items {
            let primary = item.primary
            let prefix = primary.folderPrefix
            if folderHasRows[prefix] == nil { folderHasRows[prefix] = folders.contains(locations.folder(of: primary.path)) }
            guard folderHasRows[prefix] == true else { continue }
            let location = locations.location(of: primary.path)
            guard let row = rows[location], Self.applies(row, to: item.primary) else { continue }
            let state = Self.state(of: row)
            states[item.id] = state == .unrated ? nil : state
        }
        return states
    }

    /// The rating kept in the index for a local item (nil when it has none there: its sidecar, if any, holds
    /// it and travels with the files). What an export writes as a sidecar beside the copy.
    public func indexedState(of item: LibraryItem) -> TriageState? {
        guard let index = openIndex() else { return nil }
        var locations = LocalLocations()
        let location = locations.location(of: item.primary.path)
        guard let row = index.triageRows(locations: [location])[location], Self.applies(row, to: item.primary) else { return nil }
        return Self.state(of: row)
    }

    /// Stores `state` for a local item where its folder allows: the sidecar, or the index. Returns where.
    @discardableResult
    public func write(_ state: TriageState, for item: LibraryItem) throws(StoreError) -> Place {
        let primary = item.primary
        let place = Self.place(forFile: primary.path)
        var locations = LocalLocations()
        let location = locations.location(of: primary.path)
        switch place {
        case .sidecar:
            do { try SidecarTriageStore.write(state, for: item) } catch { throw .sidecar(error) }
            // A row left from when the folder was read-only would hide the sidecar: it goes.
            // try?: a row that cannot be removed is only shadowing an older decision; the sidecar is written.
            if let index = openIndex(), !index.triageRows(locations: [location]).isEmpty {
                try? index.removeTriage(location: location)
            }
        case .index(let reason):
            guard let index = openIndex() else { throw .noIndex(name: item.displayName, reason: reason) }
            // What the item shows without a row: its (unwritable) sidecar's state, or unrated.
            // try?: an unreadable sidecar counts as unrated here, as everywhere it is read.
            let withoutRow = (try? SidecarTriageStore.read(for: item)) ?? .unrated
            do {
                if state == withoutRow {
                    try index.removeTriage(location: location)   // no row left behind for an unrating
                } else {
                    try index.storeTriage(Self.row(state, location: location, file: primary))
                }
            } catch {
                throw .index(name: item.displayName, error)
            }
        }
        return place
    }

    // MARK: remote items

    /// A remote item as the store keys it (LibraryCore, so the browser's state names it without SQLite).
    public typealias RemoteSubject = RemoteTriageSubject

    /// The key of a remote file (`RemoteTriageSubject.location(ofRemote:)`).
    public static func location(ofRemote shown: String) -> String { RemoteTriageSubject.location(ofRemote: shown) }

    /// Subjects for items whose paths are already their shown URLs (a remote `scan`'s items).
    public static func remoteSubjects(ofScanned items: [LibraryItem]) -> [RemoteSubject] {
        items.map { RemoteSubject(itemID: $0.id, location: location(ofRemote: $0.primary.path), file: $0.primary,
                                  displayName: $0.displayName) }
    }

    public func read(remote subjects: [RemoteSubject]) -> [ItemID: TriageState] {
        guard let index = openIndex(), !subjects.isEmpty else { return [:] }
        let rows = index.triageRows(locations: subjects.map(\.location))
        var states: [ItemID: TriageState] = [:]
        for subject in subjects {
            guard let row = rows[subject.location], Self.applies(row, to: subject.file, usesTime: false) else { continue }
            let state = Self.state(of: row)
            if state != .unrated { states[subject.itemID] = state }
        }
        return states
    }

    public func write(_ state: TriageState, remote subject: RemoteSubject) throws(StoreError) {
        guard let index = openIndex() else { throw .noIndex(name: subject.displayName, reason: Self.remoteReason) }
        do {
            if state == .unrated {
                try index.removeTriage(location: subject.location)
            } else {
                try index.storeTriage(Self.row(state, location: subject.location, file: subject.file, usesTime: false))
            }
        } catch {
            throw .index(name: subject.displayName, error)
        }
    }

    // MARK: rows

    private func openIndex() -> LibraryIndex? {
        guard let index = index(), index.isUsable else { return nil }
        return index
    }

    /// A size or time of 0 is "not known" (a listing without them: python's http.server). A remote file is
    /// known by its size only: its time comes from a listing at one precision (nginx's HTML: minutes) and from
    /// a header probe at another (Last-Modified: seconds), so the same file would seem changed.
    private static func row(_ state: TriageState, location: String, file: MediaFile, usesTime: Bool = true) -> TriageRow {
        TriageRow(location: location, size: file.size == 0 ? nil : file.size,
                  modificationNanoseconds: usesTime ? nanoseconds(file.modificationTime) : nil, rating: state.rating,
                  flag: state.flag == .pick ? 1 : state.flag == .reject ? 2 : 0)
    }

    private static func applies(_ row: TriageRow, to file: MediaFile, usesTime: Bool = true) -> Bool {
        row.applies(size: file.size == 0 ? nil : file.size,
                    modificationNanoseconds: usesTime ? nanoseconds(file.modificationTime) : nil)
    }

    private static func nanoseconds(_ seconds: Double) -> Int64? {
        guard seconds > 0, seconds < 1e10 else { return nil }
        return Int64((seconds * 1e9).rounded())
    }

    static func state(of row: TriageRow) -> TriageState {
        TriageState(rating: row.rating, flag: row.flag == 1 ? .pick : row.flag == 2 ? .reject : .none)
    }
}

/// Absolute paths of local files, each folder resolved once (`realpath`: `livegrid .` and `livegrid ~/x` key
/// the same file alike).
struct LocalLocations {
    private var folders: [String: String] = [:]

    mutating func location(of path: String) -> String {
        folder(of: path) + "/" + (path as NSString).lastPathComponent
    }

    /// The file's folder, resolved ("" for "/").
    mutating func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let key = folder.isEmpty ? "." : folder
        if let resolved = folders[key] { return resolved }
        var resolved = key
        if let real = PathBytes.withCString(key, { realpath($0, nil) }) {
            resolved = PathBytes.string(cString: real)
            free(real)
        } else if !key.hasPrefix("/") {
            resolved = FileManager.default.currentDirectoryPath + "/" + key
        }
        if resolved == "/" { resolved = "" }
        folders[key] = resolved
        return resolved
    }
}
