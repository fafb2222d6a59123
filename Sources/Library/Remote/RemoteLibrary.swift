import Concurrent
import Foundation
import LibrarySources
import LivePairing
import MediaFormats

/// A directory on an HTTP/WebDAV server, browsed like a local folder: list → placeholders at once → pair
/// from headers alone → download on demand (visible first, "play" to the front) with per-item state.
///
/// Thread-safe. Events go to observers (`addObserver` / `updates()`), never under the library's lock.
public final class RemoteLibrary: Sendable {
    public let url: URL
    public let client: RemoteHTTPClient
    public let downloads: DownloadManager
    public let limits: ParseLimits
    /// Header probes run at once (each is a few small requests).
    public var probeConcurrency: Int {
        get { state.withLockedValue { $0.probeConcurrency } }
        set { state.withLockedValue { $0.probeConcurrency = newValue } }
    }

    /// Everything that changes after init, reached only under its lock.
    private struct State {
        var probeConcurrency = 6
        var listing: RemoteListing?
        var items: [RemoteItem] = []
        var probeBytes: UInt64 = 0
        var probeRequests = 0
        var entriesByName: [String: RemoteEntry] = [:]
        var observers: [Int: @Sendable (RemoteLibraryEvent) -> Void] = [:]
        var nextObserver = 0
        var downloadToken: Int?
    }
    private let state = Locked(State())

    public init(url: URL, client: RemoteHTTPClient, downloads: DownloadManager, limits: ParseLimits = .default) {
        self.url = RemoteEntryValidator.directoryURL(url)
        self.client = client
        self.downloads = downloads
        self.limits = limits
        let token = downloads.addObserver { [weak self] url, state in self?.downloadChanged(url, state) }
        state.withLockedValue { $0.downloadToken = token }
    }

    deinit { if let token = state.withLockedValue({ $0.downloadToken }) { downloads.removeObserver(token) } }

    /// Convenience: a library with its own client and download manager using default settings.
    public convenience init(url: URL) {
        self.init(url: url, client: RemoteHTTPClient())
    }

    /// Convenience: a library on `client` with a default download manager.
    public convenience init(url: URL, client: RemoteHTTPClient) {
        self.init(url: url, client: client, downloads: DownloadManager(client: client))
    }

    public var listing: RemoteListing? { state.withLockedValue { $0.listing } }
    public var items: [RemoteItem] { state.withLockedValue { $0.items } }
    public var subdirectories: [RemoteEntry] { listing?.directories ?? [] }
    /// Bytes and requests spent reading headers for pairing.
    public var probeBytes: UInt64 { state.withLockedValue { $0.probeBytes } }
    public var probeRequests: Int { state.withLockedValue { $0.probeRequests } }

    /// A library for a subdirectory, sharing this one's client and cache.
    public func subdirectory(_ entry: RemoteEntry) -> RemoteLibrary {
        let sub = RemoteLibrary(url: entry.url, client: client, downloads: downloads, limits: limits)
        sub.probeConcurrency = probeConcurrency
        return sub
    }

    // MARK: observing

    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (RemoteLibraryEvent) -> Void) -> Int {
        state.withLockedValue { state in
            state.nextObserver += 1
            state.observers[state.nextObserver] = observer
            return state.nextObserver
        }
    }
    public func removeObserver(_ token: Int) { _ = state.withLockedValue { $0.observers.removeValue(forKey: token) } }

    public func updates() -> AsyncStream<RemoteLibraryEvent> {
        AsyncStream { continuation in
            let token = addObserver { continuation.yield($0) }
            continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        }
    }

    private func emit(_ event: RemoteLibraryEvent) {
        for observer in state.withLockedValue({ Array($0.observers.values) }) { observer(event) }
    }

    // MARK: loading

    /// Lists the directory and emits placeholders; returns once every item is paired.
    @discardableResult
    public func load() async throws -> [RemoteItem] {
        let listing = try await client.list(url)
        let media = listing.files.filter { LibraryScanner.mediaExtensions.contains($0.url.pathExtension.lowercased()) }
        let placeholders = Self.placeholders(for: media)
        // Download states are read under the lock, as `downloadChanged` writes them: no change falls between.
        state.withLockedValue { state in
            state.listing = listing
            state.entriesByName = Dictionary(media.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            state.items = placeholders.map(withStates)
        }
        emit(.listed(items: items, subdirectories: listing.directories, rejected: listing.rejected))

        let results = await probeAll(media)
        let paired = LivePairer.pair(results.map(\.file))
        state.withLockedValue { state in
            state.probeBytes = results.reduce(0) { $0 + $1.bytesFetched }
            state.probeRequests = results.reduce(0) { $0 + $1.requests }
            let entriesByName = state.entriesByName
            state.items = paired.map { item in
                withStates(RemoteItem(item: item, isPlaceholder: false,
                                      stillURL: item.still.flatMap { entriesByName[$0.path]?.url },
                                      movieURL: item.movie.flatMap { entriesByName[$0.path]?.url }))
            }
        }
        let done = items
        emit(.paired(done))
        return done
    }

    private func probeAll(_ entries: [RemoteEntry]) async -> [RemoteHeaderProbe.Result] {
        let client = self.client, limits = self.limits, width = max(1, probeConcurrency)
        return await withTaskGroup(of: (Int, RemoteHeaderProbe.Result).self) { group in
            var results = [RemoteHeaderProbe.Result?](repeating: nil, count: entries.count)
            var next = 0
            while next < min(width, entries.count) {
                let i = next, entry = entries[i]
                group.addTask { (i, await RemoteHeaderProbe.probe(entry, client: client, limits: limits)) }
                next += 1
            }
            while let (i, result) = await group.next() {
                results[i] = result
                learned(result.file)
                if next < entries.count {
                    let j = next, entry = entries[j]
                    group.addTask { (j, await RemoteHeaderProbe.probe(entry, client: client, limits: limits)) }
                    next += 1
                }
            }
            return results.compactMap { $0 }
        }
    }

    /// Items before any header is read: one per still (a movie of the same base name rides along as its
    /// probable partner, so the grid does not reflow when pairing confirms it), one per lone movie.
    static func placeholders(for entries: [RemoteEntry]) -> [RemoteItem] {
        let movieExts: Set<String> = ["mov", "mp4", "m4v", "qt"]
        func base(_ name: String) -> String { (name as NSString).deletingPathExtension.lowercased() }
        func file(_ e: RemoteEntry, _ format: ContainerFormat) -> MediaFile {
            MediaFile(path: e.name, size: e.size ?? 0, modificationTime: e.modificationTime?.timeIntervalSince1970 ?? 0,
                      info: MediaInfo(format: format))
        }
        let movies = entries.filter { movieExts.contains($0.url.pathExtension.lowercased()) }
        let stills = entries.filter { !movieExts.contains($0.url.pathExtension.lowercased()) }
        var moviesByBase = Dictionary(grouping: movies) { base($0.name) }
        var items: [RemoteItem] = []
        for still in stills {
            let partner = moviesByBase[base(still.name)]?.first
            if partner != nil { moviesByBase[base(still.name)]?.removeFirst() }
            let item = LibraryItem(kind: partner == nil ? .still : .live, still: file(still, .jpeg),
                                   movie: partner.map { file($0, .quickTime) })
            items.append(RemoteItem(item: item, isPlaceholder: true, stillURL: still.url, movieURL: partner?.url))
        }
        for movie in moviesByBase.values.flatMap({ $0 }) {
            items.append(RemoteItem(item: LibraryItem(kind: .video, movie: file(movie, .quickTime)), isPlaceholder: true,
                                    stillURL: nil, movieURL: movie.url))
        }
        return items.sorted { NaturalOrder.less($0.item.primary.path, $1.item.primary.path) }
    }

    // MARK: pictures before pairing ends

    /// A still's real media info (from its header probe or its downloaded copy) goes into its placeholder at
    /// once, so its picture does not wait for the whole directory to be paired.
    private func learned(_ file: MediaFile) {
        guard !file.info.format.isMovie, file.info.problems.allSatisfy({ $0.severity != .error }) else { return }
        let changed: RemoteItem? = state.withLockedValue { state in
            guard let i = state.items.firstIndex(where: { $0.isPlaceholder && $0.item.still?.path == file.path }),
                  !state.items[i].stillInfoKnown else { return nil }
            state.items[i].item.still?.info = file.info
            state.items[i].stillInfoKnown = true
            return state.items[i]
        }
        if let changed { emit(.itemChanged(changed)) }
    }

    /// A placeholder's still just arrived: read its info from the local copy (a few KB from disk) instead of
    /// waiting for its turn among the header probes.
    private func probeDownloadedStill(_ url: URL, path: String) {
        let name: String? = state.withLockedValue { state in
            state.items.first { $0.isPlaceholder && !$0.stillInfoKnown && $0.stillURL == url }?.item.still?.path
        }
        // try?: a copy that does not probe waits for its header probe, which reports the problem.
        guard let name, let info = try? MediaProbe.probe(path: path, limits: limits) else { return }
        learned(MediaFile(path: name, size: 0, modificationTime: 0, info: info))
    }

    // MARK: downloads

    /// Downloads every file of an item (the grid calls this for visible items).
    public func download(_ id: String, priority: DownloadPriority = .visible) {
        guard let item = items.first(where: { $0.id == id }) else { return }
        for (url, name) in [(item.stillURL, item.item.still?.path), (item.movieURL, item.item.movie?.path)] {
            guard let url else { continue }
            let entry = name.flatMap { n in state.withLockedValue { $0.entriesByName[n] } }
            downloads.request(url, priority: priority, expectedSize: entry?.size, expectedETag: entry?.etag)
        }
    }

    /// "Play requested": both halves of a Live Photo go to the front of the queue.
    public func requestPlay(_ id: String) { download(id, priority: .play) }

    /// Retries an item's failed files.
    public func retry(_ id: String) {
        guard let item = items.first(where: { $0.id == id }) else { return }
        for url in [item.stillURL, item.movieURL].compactMap({ $0 }) { downloads.retry(url) }
    }

    public func activity() -> DownloadActivity { downloads.activity() }

    private func withStates(_ item: RemoteItem) -> RemoteItem {
        var item = item
        if let u = item.stillURL { item.stillState = downloads.state(of: u) }
        if let u = item.movieURL { item.movieState = downloads.state(of: u) }
        return item
    }

    private func downloadChanged(_ url: URL, _ state: DownloadState) {
        let changed: [RemoteItem] = self.state.withLockedValue { library in
            var out: [RemoteItem] = []
            for i in library.items.indices where library.items[i].stillURL == url || library.items[i].movieURL == url {
                if library.items[i].stillURL == url { library.items[i].stillState = state }
                if library.items[i].movieURL == url { library.items[i].movieState = state }
                out.append(library.items[i])
            }
            return out
        }
        for item in changed { emit(.itemChanged(item)) }
        if !changed.isEmpty { emit(.activity(downloads.activity())) }
        if case .downloaded(let path) = state { probeDownloadedStill(url, path: path) }
    }
}
