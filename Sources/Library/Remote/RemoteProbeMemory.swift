import Foundation
import LibraryCore
import LibraryIndex
import LibrarySources
import MediaFormats

/// What a remote library remembers between runs of what its files' bytes told (issue 30 item 4): `scan`'s
/// header probes and the browser's previews, in the library index under the file's URL and the validator its
/// listing gives. Reopening a folder reads nothing for a file whose listing still shows the same size and ETag
/// (or, over SFTP, size and mtime); a file whose ETag changed is read again and its row replaced.
public struct RemoteProbeMemory: Sendable {
    /// Opened on first use (a browser that shows no picture never opens it).
    let lazyIndex: LazyLibraryIndex
    var index: LibraryIndex { lazyIndex.value }

    public init(index: LazyLibraryIndex) { lazyIndex = index }

    /// The key of a listed file, or nil when its listing does not say enough to tell one version from the next:
    /// a size and an ETag (S3, WebDAV, an nginx or Apache index that gives one), or for SFTP a size and an mtime
    /// to the second (what `ls -l` style long names give, as local files are trusted on size and mtime). An HTTP
    /// index page's mtime is to the minute: a file rewritten within it at the same size would keep its old probe.
    static func key(of entry: RemoteEntry, format: RemoteListingFormat?) -> (location: String, validator: RemoteValidator)? {
        guard !entry.isDirectory, let size = entry.size else { return nil }
        let etag = entry.etag.flatMap { $0.isEmpty ? nil : $0 }
        let time = entry.modificationTime.map { Int64(($0.timeIntervalSince1970 * 1e9).rounded()) }
        guard etag != nil || (format == .sftp && time != nil) else { return nil }
        return (location(of: entry.url), RemoteValidator(size: size, etag: etag, modificationNanoseconds: time))
    }

    /// The URL as shown: a user or password never goes into the index (as in the download cache's key).
    static func location(of url: URL) -> String {
        guard url.user != nil || url.password != nil,
              var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        parts.user = nil
        parts.password = nil
        return parts.url?.absoluteString ?? url.absoluteString
    }

    // MARK: header probes (`scan`)

    /// The stored infos of `entries`, by position (nil: not stored, changed since, or not keyable).
    func headers(of entries: [RemoteEntry], format: RemoteListingFormat?) -> [MediaInfo?] {
        let keys = entries.map { Self.key(of: $0, format: format) }
        let present = keys.compactMap { $0 }
        guard !present.isEmpty else { return keys.map { _ in nil } }
        var records = index.remoteProbes(present, kind: .header).makeIterator()
        var memo = SharedNamesMemo()
        return keys.map { key -> MediaInfo? in
            guard key != nil, let record = records.next() ?? nil else { return nil }
            return record.withUnsafeBytes { ProbeRecord.decode($0, memo: &memo) }
        }
    }

    /// Stores what the probes of `entries` found; a probe that failed on the network (its problem's context is
    /// "remote") is not a fact of the file and is left out, so the next open tries again.
    func storeHeaders(_ results: [(entry: RemoteEntry, info: MediaInfo)], format: RemoteListingFormat?) {
        var batch = HeaderBatch(memory: self, format: format, size: max(1, results.count))
        for result in results { batch.add(result.entry, result.info) }
        batch.finish()
    }

    /// Header probes stored as they finish, a few thousand rows a transaction: a scan of 200,000 files held
    /// every encoded record and URL until its last probe and stored them in one batch, its peak memory (issue 30:
    /// 388 MB where the target is 300). What is stored is also safe when the scan is stopped half-way.
    struct HeaderBatch {
        /// Rows a transaction: big enough that the commit's sync is rare, small enough to stay a few hundred KB.
        static let defaultSize = 2_000
        let memory: RemoteProbeMemory
        let format: RemoteListingFormat?
        let size: Int
        private var rows: [(location: String, row: RemoteProbeRow)] = []

        init(memory: RemoteProbeMemory, format: RemoteListingFormat?, size: Int = defaultSize) {
            self.memory = memory
            self.format = format
            self.size = max(1, size)
        }

        mutating func add(_ entry: RemoteEntry, _ info: MediaInfo) {
            guard !info.problems.contains(where: { $0.context == "remote" }),
                  let key = RemoteProbeMemory.key(of: entry, format: format) else { return }
            rows.append((key.location, RemoteProbeRow(validator: key.validator, record: ProbeRecord.encode(info))))
            if rows.count >= size { finish() }
        }

        /// Stores what is waiting (the end of the probes, or a full batch).
        mutating func finish() {
            guard !rows.isEmpty else { return }
            memory.index.storeRemoteProbes(rows, kind: .header)
            rows.removeAll(keepingCapacity: true)
        }
    }

    // MARK: deleted files

    /// After a complete listing of a folder (not cut at `max_entries`, not failed): forgets the stored probes of
    /// the folder's files it no longer shows (deleted objects), every kind, one statement. Rows of subfolders
    /// stay (they are their own listings' business), and so does anything the user set (ratings).
    @discardableResult
    func forgetUnlisted(_ listing: RemoteListing) -> Int {
        guard !listing.truncated else { return 0 }
        let folder = Self.location(of: listing.baseURL)
        return index.pruneRemoteProbes(
            folder: folder,
            keeping: listing.entries.lazy.filter { !$0.isDirectory }.map { Self.location(of: $0.url) })
    }

    // MARK: previews (the browser)

    /// A preview stored for `entry` whose thumbnail file (`path`, in the download cache) is still there, made
    /// ready without a request; nil when it must be read.
    func preview(of entry: RemoteEntry, format: RemoteListingFormat?, path: String) -> RemotePreview? {
        guard let key = Self.key(of: entry, format: format), FileManager.default.fileExists(atPath: path),
              let record = index.remoteProbes([key], kind: .preview).first ?? nil, let flag = record.first,
              flag <= 1 else { return nil }
        var memo = SharedNamesMemo()
        guard let info = record.dropFirst().withUnsafeBytes({ ProbeRecord.decode($0, memo: &memo) }) else { return nil }
        return RemotePreview(path: path, info: info, bytesFetched: 0, replacesStill: flag == 1)
    }

    /// Stores a checked preview (`replacesStill` known): a flag byte, then the thumbnail's info.
    func storePreview(_ preview: RemotePreview, of entry: RemoteEntry, format: RemoteListingFormat?) {
        guard let replaces = preview.replacesStill, let key = Self.key(of: entry, format: format) else { return }
        var record: [UInt8] = [replaces ? 1 : 0]
        ProbeRecord.encode(preview.info, appendingTo: &record)
        index.storeRemoteProbes([(key.location, RemoteProbeRow(validator: key.validator, record: record))], kind: .preview)
    }
}
