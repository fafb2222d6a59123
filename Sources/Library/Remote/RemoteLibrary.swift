import Concurrent
import Foundation
import LibraryCore
import LibraryIndex
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
    /// Header probes run at once (each is a few small requests).
    public var probeConcurrency: Int {
        get { state.withLockedValue { $0.probeConcurrency } }
        set { state.withLockedValue { $0.probeConcurrency = newValue } }
    }
    /// Header probes the last `load` started while its listing still arrived (SFTP, `.everything`).
    public var probesWhileListing: Int { state.withLockedValue { $0.probesWhileListing } }
    /// Entries kept from a listing (`remote.max_entries`); a longer listing is cut with a `.listingTruncated` event.
    public var maxEntries: Int {
        get { state.withLockedValue { $0.maxEntries } }
        set { state.withLockedValue { $0.maxEntries = newValue } }
    }
    /// Whether `load` reads the headers of every listed file (`scan`: exact pairing of the whole folder) or of
    /// none (the browser: names first; a picture and the facts of an item come from its downloaded files, and only
    /// items the screen asks for are downloaded, so a folder of 1,000,000 names costs one listing).
    public var probePolicy: ProbePolicy {
        get { state.withLockedValue { $0.probePolicy } }
        set { state.withLockedValue { $0.probePolicy = newValue } }
    }

    /// Where what the files' bytes told is kept between runs (`scan`'s header probes, the browser's previews),
    /// under each file's URL and listed validator: reopening reads only files that changed. nil: nothing kept.
    public var probeMemory: RemoteProbeMemory? {
        get { state.withLockedValue { $0.probeMemory } }
        set { state.withLockedValue { $0.probeMemory = newValue } }
    }

    public enum ProbePolicy: Sendable {
        case everything
        case onDemand
    }

    /// Everything that changes after init, reached only under its lock.
    private struct State {
        var probeConcurrency = 6
        var probesWhileListing = 0
        var maxEntries = RemoteListingParser.defaultMaxEntries
        var probePolicy: ProbePolicy = .everything
        var probeMemory: RemoteProbeMemory?
        var listing: RemoteListing?
        var items: [RemoteItem] = []
        var probeBytes: UInt64 = 0
        var probeRequests = 0
        var probesRemembered = 0
        /// Positions in `listing.entries` of the media files by name (the first of a name): an index, not a
        /// second copy of 200,000 entries (a `[String: RemoteEntry]` was 55 MB, issue 17 item 5).
        var entryIndexByName: [String: Int] = [:]
        /// Position in `items` of the (first) item using each file, and any further ones: a download event
        /// changes its items without scanning them all (200,000 URL comparisons per progress event in a long
        /// listing). One Int per file, not an array each. Keyed by `key(_:)`: the file's text after the
        /// listing's prefix (a short name, no heap), not a `URL` per file (issue 17 item 5).
        var itemIndexByFile: [String: Int] = [:]
        var moreItemIndicesByFile: [String: [Int]] = [:]
        var observers: [Int: @Sendable (RemoteLibraryEvent) -> Void] = [:]
        var nextObserver = 0
        var downloadToken: Int?
        /// Items whose preview waits for a place in the window, first asked first.
        var previewQueue: [ItemID] = []
        var previewsInFlight = 0

        /// Rebuilds `itemIndexByFile`; call whenever `items` is replaced.
        mutating func indexItemURLs() {
            itemIndexByFile = [:]
            moreItemIndicesByFile = [:]
            itemIndexByFile.reserveCapacity(items.count)
            func add(_ key: String, _ i: Int) {
                guard let first = itemIndexByFile[key] else { itemIndexByFile[key] = i; return }
                if first != i, moreItemIndicesByFile[key]?.last != i { moreItemIndicesByFile[key, default: []].append(i) }
            }
            for i in items.indices {
                if let location = items[i].stillLocation { add(key(location), i) }
                if let location = items[i].movieLocation { add(key(location), i) }
            }
        }

        /// The text of a file's URL after the listing's prefix (the whole text when it does not start with it):
        /// equal for a location and the URL it stands for, however either is stored.
        func key(_ location: RemoteLocation) -> String {
            if let prefix = listing?.locationPrefix, let rest = location.rest(below: prefix) { return rest }
            return key(text: location.text)
        }

        func key(_ url: URL) -> String { key(text: url.absoluteString) }

        private func key(text: String) -> String {
            guard let prefix = listing?.locationPrefix.text, text.utf8.count > prefix.utf8.count,
                  text.utf8.starts(with: prefix.utf8) else { return text }
            return String(text[text.utf8.index(text.utf8.startIndex, offsetBy: prefix.utf8.count)...])
        }

        func itemIndices(of key: String) -> [Int] {
            guard let first = itemIndexByFile[key] else { return [] }
            return [first] + (moreItemIndicesByFile[key] ?? [])
        }

        /// Whether item `i`'s still (or movie) is the file of `key`.
        func item(_ i: Int, hasStill key: String) -> Bool { items[i].stillLocation.map { self.key($0) == key } ?? false }
        func item(_ i: Int, hasMovie key: String) -> Bool { items[i].movieLocation.map { self.key($0) == key } ?? false }

        func entry(named name: String) -> RemoteEntry? {
            guard let listing, let index = entryIndexByName[name], index < listing.entries.count else { return nil }
            return listing.entries[index]
        }
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

    /// Convenience: a library on `client` with a download manager keeping its files under `cacheRoot`.
    public convenience init(url: URL, client: RemoteHTTPClient, cacheRoot: String) {
        self.init(url: url, client: client,
                  downloads: DownloadManager(client: client, configuration: .init(cacheRoot: cacheRoot)))
    }

    public var listing: RemoteListing? { state.withLockedValue { s in s.listing } }
    public var items: [RemoteItem] { state.withLockedValue { s in s.items } }
    public var subdirectories: [RemoteEntry] { listing?.directories ?? [] }
    /// One item, without copying the whole list.
    public func item(id: ItemID) -> RemoteItem? { state.withLockedValue { s in s.items.first { $0.id == id } } }
    /// Bytes and requests spent reading headers for pairing.
    public var probeBytes: UInt64 { state.withLockedValue { s in s.probeBytes } }
    public var probeRequests: Int { state.withLockedValue { s in s.probeRequests } }
    /// Files of the last `load` whose facts came from the library index (`probeMemory`), not read.
    public var probesRemembered: Int { state.withLockedValue { s in s.probesRemembered } }

    /// A library for a subdirectory, sharing this one's client and cache.
    public func subdirectory(_ entry: RemoteEntry) -> RemoteLibrary {
        let sub = RemoteLibrary(url: entry.url, client: client, downloads: downloads, limits: limits)
        sub.probeConcurrency = probeConcurrency
        sub.maxEntries = maxEntries
        sub.probePolicy = probePolicy
        sub.probeMemory = probeMemory
        return sub
    }

    // MARK: observing

    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (RemoteLibraryEvent) -> Void) -> Int {
        state.withLockedValue { s in s.nextObserver += 1; s.observers[s.nextObserver] = observer; return s.nextObserver }
    }
    public func removeObserver(_ token: Int) { _ = state.withLockedValue { s in s.observers.removeValue(forKey: token) } }

    public func updates() -> AsyncStream<RemoteLibraryEvent> {
        AsyncStream { continuation in
            let token = addObserver { continuation.yield($0) }
            continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        }
    }

    private func emit(_ event: RemoteLibraryEvent) {
        for observer in state.withLockedValue({ s in Array(s.observers.values) }) { observer(event) }
    }

    // MARK: loading

    /// Lists the directory and emits placeholders; returns once every item is paired. The browser
    /// (`.onDemand`) is shown the entries of a paged listing (S3) as its pages arrive (`.listedSoFar`), each
    /// time the entries kept have doubled, so the work of showing them stays linear in the listing's length.
    @discardableResult
    public func load() async throws -> [RemoteItem] {
        let pages = probePolicy == .onDemand ? pageHandler() : nil
        // A scan reads the headers of files an SFTP listing has confirmed while the rest still arrives.
        let early = probePolicy == .onDemand ? nil : listingTimeProbes()
        var confirmed: (@Sendable ([RemoteEntry]) -> Void)?
        if let early {
            confirmed = { (entries: [RemoteEntry]) -> Void in early.add(entries.filter { Self.isMedia($0) }) }
        }
        let listing: RemoteListing
        do {
            listing = try await client.list(url, maxEntries: maxEntries, pages: pages, confirmed: confirmed)
        } catch {
            early?.cancel()
            throw error
        }
        // Counted before waiting for the queued ones: the probes that overlapped the listing.
        let startedWhileListing = early?.started ?? 0
        state.withLockedValue { $0.probesWhileListing = startedWhileListing }
        let probedEarly = await early?.finish() ?? [:]
        return await loadListed(listing, probedEarly: probedEarly, complete: true)
    }

    /// As `load`, with the listing already made (one folder of a `RemoteListingTree`, listed with the others in
    /// one walk): nothing is listed again.
    /// `complete`: whether the walk that made it was whole (a tree cut at `max_entries` is not, though each of
    /// its folders' listings says nothing of the cut): only then are the rows of deleted files forgotten.
    @discardableResult
    public func load(listed listing: RemoteListing, complete: Bool) async -> [RemoteItem] {
        await loadListed(listing, probedEarly: [:], complete: complete)
    }

    /// `probedEarly`: headers read while an SFTP listing still arrived. `complete`: see `load(listed:complete:)`.
    private func loadListed(_ listing: RemoteListing, probedEarly: ListingTimeProbes.Results,
                            complete: Bool = true) async -> [RemoteItem] {
        // A whole listing (not cut, not failed: a failure never gets here) says which files are gone: what the
        // index kept of them goes (issue 30). Before the probes, so a scan's rows are the listing's from then on.
        if complete, !listing.truncated, let memory = probeMemory, probePolicy == .everything {
            memory.forgetUnlisted(listing)
        }
        var media = publish(listing)
        // The browser reads no headers: the media entries are not needed while it builds its grid.
        if probePolicy == .onDemand { media = [] }
        if listing.truncated { emit(.listingTruncated(kept: listing.entries.count, limit: maxEntries)) }
        emit(.listed(items: items, subdirectories: listing.directories, rejected: listing.rejected))
        if probePolicy == .onDemand {
            // Nothing more to read for the folder as a whole: the placeholders are what it shows.
            emit(.settled)
            return items
        }

        let results = await probeAll(media, known: probedEarly)
        let paired = LivePairer.pair(results.map(\.file))
        state.withLockedValue { s in
            s.probeBytes = results.reduce(0) { $0 + $1.bytesFetched }
            s.probeRequests = results.reduce(0) { $0 + $1.requests }
            s.items = paired.map { item in
                withStates(RemoteItem(item: item, isPlaceholder: false,
                                      stillLocation: item.still.flatMap { s.entry(named: $0.path)?.location },
                                      movieLocation: item.movie.flatMap { s.entry(named: $0.path)?.location }))
            }
            s.indexItemURLs()
        }
        let done = items
        emit(.paired(done))
        return done
    }

    /// Shows a paged listing's entries so far each time they have doubled since last shown.
    private func pageHandler() -> RemoteListingPages {
        let shownCount = Locked(0)
        return { @Sendable [weak self] (partial: RemoteListing) -> Void in
            let count = partial.entries.count
            let due: Bool = shownCount.withLockedValue { (shown: inout Int) -> Bool in
                guard count >= max(1, 2 * shown) else { return false }
                shown = count
                return true
            }
            guard due, let library = self else { return }
            _ = library.publish(partial)
            library.emit(.listedSoFar(items: library.items, subdirectories: partial.directories))
        }
    }

    /// Makes `listing` (the whole one, or a paged listing's entries so far) the library's placeholders and
    /// returns its media entries. Items already known keep what was learned of them (a preview, a still's
    /// facts, a cell settled from its files) while their files stay the same; an item whose partner arrived
    /// with a later page becomes the pair the names suggest, keeping its preview.
    private func publish(_ listing: RemoteListing) -> [RemoteEntry] {
        var byName: [String: Int] = [:]
        var media: [RemoteEntry] = []
        for (index, entry) in listing.entries.enumerated()
        where !entry.isDirectory && LibraryScanner.mediaExtensions.contains(entry.nameExtension.lowercased()) {
            media.append(entry)
            if byName[entry.name] == nil { byName[entry.name] = index }
        }
        var placeholders = Self.placeholders(for: media)
        for i in placeholders.indices { placeholders[i] = withStates(placeholders[i]) }
        state.withLockedValue { s in
            if !s.items.isEmpty {
                for i in placeholders.indices {
                    let fresh = placeholders[i]
                    let key = fresh.stillLocation.map { s.key($0) } ?? fresh.movieLocation.map { s.key($0) } ?? ""
                    guard let index = s.itemIndices(of: key).first(where: { $0 < s.items.count && s.items[$0].id == fresh.id })
                    else { continue }
                    let old = s.items[index]
                    if old.stillLocation == fresh.stillLocation, old.movieLocation == fresh.movieLocation {
                        placeholders[i] = old
                    } else if old.stillLocation == fresh.stillLocation {
                        placeholders[i].preview = old.preview
                        placeholders[i].stillInfoKnown = old.stillInfoKnown
                        if old.stillInfoKnown, let info = old.item.still?.info { placeholders[i].item.still?.info = info }
                    }
                }
            }
            s.listing = listing
            s.entryIndexByName = byName
            s.items = placeholders
            s.indexItemURLs()
        }
        return media
    }

    private static func isMedia(_ entry: RemoteEntry) -> Bool {
        !entry.isDirectory && LibraryScanner.mediaExtensions.contains(entry.nameExtension.lowercased())
    }

    private func listingTimeProbes() -> ListingTimeProbes {
        let client = self.client, limits = self.limits
        return ListingTimeProbes(width: probeConcurrency) { await RemoteHeaderProbe.probe($0, client: client, limits: limits) }
    }

    /// Probes `entries`, taking the result from `known` (probes run while the listing arrived, by URL; the
    /// confirmer and the whole parse read the same line) where there is one.
    private func probeAll(_ entries: [RemoteEntry], known: ListingTimeProbes.Results = [:]) async -> [RemoteHeaderProbe.Result] {
        let client = self.client, limits = self.limits, width = max(1, probeConcurrency)
        let (memory, format) = state.withLockedValue { ($0.probeMemory, $0.listing?.format) }
        var results = [RemoteHeaderProbe.Result?](repeating: nil, count: entries.count)
        var unknown: [Int] = []
        for (i, entry) in entries.enumerated() {
            if let result = known[entry.url.absoluteString] {
                results[i] = result
                learned(result.file)
            } else {
                unknown.append(i)
            }
        }
        // Files whose listing shows them unchanged since they were probed: their stored infos, no request.
        var missing: [Int] = []
        var fromIndex = Set<Int>()
        let remembered = memory?.headers(of: unknown.map { entries[$0] }, format: format) ?? unknown.map { _ in nil }
        for (i, info) in zip(unknown, remembered) {
            guard let info else { missing.append(i); continue }
            let entry = entries[i]
            let result = RemoteHeaderProbe.Result(
                file: MediaFile(path: entry.name, size: entry.size ?? 0,
                                modificationTime: entry.modificationTime?.timeIntervalSince1970 ?? 0, info: info),
                bytesFetched: 0, requests: 0)
            results[i] = result
            fromIndex.insert(i)
            learned(result.file)
        }
        let rememberedCount = fromIndex.count
        state.withLockedValue { $0.probesRemembered = rememberedCount }
        // Everything not taken from the index is stored, in batches as the probes finish (read while the
        // listing arrived: at once).
        var batch = memory.map { RemoteProbeMemory.HeaderBatch(memory: $0, format: format) }
        for i in entries.indices where !fromIndex.contains(i) {
            if let result = results[i] { batch?.add(entries[i], result.file.info) }
        }
        let all = entries
        let entries = missing.map { entries[$0] }
        return await withTaskGroup(of: (Int, RemoteHeaderProbe.Result).self) { group in
            defer { batch?.finish() }
            var next = 0
            while next < min(width, entries.count) {
                let i = next, entry = entries[i]
                group.addTask { (i, await RemoteHeaderProbe.probe(entry, client: client, limits: limits)) }
                next += 1
            }
            while let (j, result) = await group.next() {
                results[missing[j]] = result
                batch?.add(all[missing[j]], result.file.info)
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
        let isMovie = entries.map { movieExts.contains($0.nameExtension.lowercased()) }
        // Cells as positions in `entries` (-1: none), not copies of the entries: a 200,000-entry listing made
        // three more arrays of entries here (issue 17 item 5).
        var moviesByBase: [String: [Int]] = [:]
        for i in entries.indices where isMovie[i] { moviesByBase[base(entries[i].name), default: []].append(i) }
        var cells: [(still: Int, movie: Int)] = []
        cells.reserveCapacity(entries.count)
        for i in entries.indices where !isMovie[i] {
            var partner = -1
            if !moviesByBase.isEmpty {
                let key = base(entries[i].name)
                if var list = moviesByBase[key], !list.isEmpty {
                    partner = list.removeFirst()
                    moviesByBase[key] = list
                }
            }
            cells.append((i, partner))
        }
        for movie in moviesByBase.values.flatMap({ $0 }) { cells.append((-1, movie)) }
        // Sorted by the cell's name; the items are then made once, in order (sorting the items themselves
        // copied them over and over).
        let names = cells.map { entries[$0.still >= 0 ? $0.still : $0.movie].name }
        let order = cells.indices.sorted { NaturalOrder.less(names[$0], names[$1]) }
        var items: [RemoteItem] = []
        items.reserveCapacity(cells.count)
        for index in order {
            let (stillIndex, movieIndex) = cells[index]
            let movie = movieIndex >= 0 ? entries[movieIndex] : nil
            if stillIndex >= 0 {
                let still = entries[stillIndex]
                let item = LibraryItem(kind: movie == nil ? .still : .live, still: file(still, .jpeg),
                                       movie: movie.map { file($0, .quickTime) })
                items.append(RemoteItem(item: item, isPlaceholder: true, stillLocation: still.location,
                                        movieLocation: movie?.location))
            } else if let movie {
                items.append(RemoteItem(item: LibraryItem(kind: .video, movie: file(movie, .quickTime)), isPlaceholder: true,
                                        stillLocation: nil, movieLocation: movie.location))
            }
        }
        return items
    }

    // MARK: pictures before pairing ends

    /// A still's real media info (from its header probe or its downloaded copy) goes into its placeholder at
    /// once, so its picture does not wait for the whole directory to be paired.
    private func learned(_ file: MediaFile) {
        guard !file.info.format.isMovie, file.info.problems.allSatisfy({ $0.severity != .error }) else { return }
        let changed: RemoteItem? = state.withLockedValue { s in
            // Through the indexes, not a search of every item: a scan calls this once per probed file, and
            // 100,000 files made it 5e9 comparisons under the lock (issue 32.9).
            guard let location = s.entry(named: file.path)?.location,
                  let i = s.itemIndices(of: s.key(location)).first(where: { i in
                      i < s.items.count && s.items[i].isPlaceholder && s.items[i].item.still?.path == file.path
                  }),
                  !s.items[i].stillInfoKnown else { return nil }
            s.items[i].item.still?.info = file.info
            s.items[i].stillInfoKnown = true
            return s.items[i]
        }
        if let changed { emit(.itemChanged(changed)) }
    }

    /// A placeholder's still just arrived: read its info from the local copy (a few KB from disk) instead of
    /// waiting for its turn among the header probes.
    private func probeDownloadedStill(_ url: URL, path: String) {
        let name: String? = state.withLockedValue { s in
            let key = s.key(url)
            return s.itemIndices(of: key).first { i in
                i < s.items.count && s.items[i].isPlaceholder && !s.items[i].stillInfoKnown && s.item(i, hasStill: key)
            }.flatMap { s.items[$0].item.still?.path }
        }
        // try?: a copy that does not probe waits for its header probe, which reports the problem.
        guard let name, let info = try? MediaProbe.probe(path: path, limits: limits) else { return }
        learned(MediaFile(path: name, size: 0, modificationTime: 0, info: info))
        if probePolicy == .onDemand { settleFromDownloads(stillURL: url) }
    }

    /// On-demand libraries read no headers over the network: an item's facts come from its downloaded files.
    /// Once every file of a placeholder is on disk, the cell is paired from them exactly as a local folder is
    /// (a Motion Photo is recognised, a Live Photo confirmed by its content identifier) and stops being a
    /// placeholder. The cell keeps its id (its still, or its lone movie), so the selection does not move.
    private func settleFromDownloads(stillURL: URL? = nil, movieURL: URL? = nil) {
        let candidate: RemoteItem? = state.withLockedValue { s in
            let stillKey = stillURL.map { s.key($0) }, movieKey = movieURL.map { s.key($0) }
            return (s.itemIndices(of: stillKey ?? movieKey ?? "")).first { i in
                i < s.items.count && s.items[i].isPlaceholder
                    && ((stillKey.map { s.item(i, hasStill: $0) } ?? false) || (movieKey.map { s.item(i, hasMovie: $0) } ?? false))
            }.map { s.items[$0] }
        }
        guard let candidate else { return }
        var files: [MediaFile] = []
        for (file, state) in [(candidate.item.still, candidate.stillState), (candidate.item.movie, candidate.movieState)] {
            guard var file else { continue }
            // try?: a downloaded file that cannot be probed leaves the item as the listing paired it.
            guard let local = state.localPath, let info = try? MediaProbe.probe(path: local, limits: limits) else { return }
            file.info = info
            files.append(file)
        }
        let paired = LivePairer.pair(files)
        // One cell stays one cell: a name-guessed pair the files do not confirm keeps its guess (it is labelled
        // as guessed by name); anything else takes the facts.
        guard let item = paired.first(where: { $0.id == candidate.id }), paired.count == 1 || candidate.item.movie == nil else { return }
        let changed: RemoteItem? = state.withLockedValue { s in
            guard let i = s.items.firstIndex(where: { $0.id == candidate.id && $0.isPlaceholder }) else { return nil }
            s.items[i].item = item
            s.items[i].isPlaceholder = false
            s.items[i].stillInfoKnown = item.still != nil
            return s.items[i]
        }
        if let changed { emit(.itemChanged(changed)) }
    }

    // MARK: downloads

    /// Downloads every file of an item (the grid calls this for visible items).
    public func download(_ id: ItemID, priority: Urgency = .visible) {
        guard let item = items.first(where: { $0.id == id }) else { return }
        for (url, name) in [(item.stillURL, item.item.still?.path), (item.movieURL, item.item.movie?.path)] {
            guard let url else { continue }
            let entry = name.flatMap { n in state.withLockedValue { s in s.entry(named: n) } }
            downloads.request(url, priority: priority, expectedSize: entry?.size, expectedETag: entry?.etag)
        }
    }

    /// Head ranges read for previews at once: a bounded window, so the heads of the screen go before anything
    /// queued later, and a screen of 28 costs a few round trips, not 28 at once.
    static let previewWindow = 6

    /// Reads the head of an item's JPEG or HEIC still and makes its embedded thumbnail its preview (`RemoteItem.preview`,
    /// announced with `.itemChanged`); an item without one gets `.none`. Asked once per item; a no-op for an
    /// item whose still is already here or cannot have one.
    public func requestPreview(_ id: ItemID) {
        let queued: Bool = state.withLockedValue { s in
            guard let i = s.items.firstIndex(where: { $0.id == id }), case .notTried = s.items[i].preview,
                  s.items[i].stillState.localPath == nil, let name = s.items[i].item.still?.path,
                  s.items[i].stillLocation != nil, RemotePreviewReader.canHavePreview(name) else { return false }
            s.items[i].preview = .fetching
            s.previewQueue.append(id)
            return true
        }
        if queued { startPreviews() }
    }

    private func startPreviews() {
        let client = self.client, limits = self.limits, cache = downloads.cache
        let (starts, memory, format) = state.withLockedValue { s in
            var starts: [(id: ItemID, url: URL, entry: RemoteEntry?)] = []
            while s.previewsInFlight < Self.previewWindow, !s.previewQueue.isEmpty {
                let id = s.previewQueue.removeFirst()
                guard let item = s.items.first(where: { $0.id == id }), let url = item.stillURL else { continue }
                s.previewsInFlight += 1
                starts.append((id, url, item.item.still.flatMap { s.entry(named: $0.path) }))
            }
            return (starts, s.probeMemory, s.listing?.format)
        }
        for start in starts {
            let size = start.entry?.size
            // A Task: the head is fetched with the client's async API; the window above bounds how many run.
            Task.detached { [weak self] in
                // Read before, and the object's listing shows it unchanged: the thumbnail kept in the cache, no
                // request. Asked here, not on the caller's thread (the browser's UI loop): the index may be opened
                // now, or be busy for a moment.
                if let memory, let entry = start.entry, let kind = RemotePreviewReader.kind(entry.name),
                   let known = memory.preview(of: entry, format: format,
                                              path: cache.directory(for: start.url) + "/" + kind.fileName) {
                    self?.previewArrived(start.id, known, freesWindow: true)
                    return
                }
                let found = await RemotePreviewReader.read(start.url, size: size, client: client,
                                                           directory: cache.directory(for: start.url), limits: limits)
                // Shown at once; whether it replaces the still is checked after (a few bytes more), while the
                // window lets the next head go.
                self?.previewArrived(start.id, found?.preview, freesWindow: true)
                guard let found else { return }
                let checked = await RemotePreviewReader.check(found, client: client)
                if let memory, let entry = start.entry { memory.storePreview(checked, of: entry, format: format) }
                self?.previewArrived(start.id, checked, freesWindow: false)
            }
        }
    }

    private func previewArrived(_ id: ItemID, _ preview: RemotePreview?, freesWindow: Bool) {
        let changed: RemoteItem? = state.withLockedValue { s in
            if freesWindow { s.previewsInFlight -= 1 }
            guard let i = s.items.firstIndex(where: { $0.id == id }) else { return nil }
            s.items[i].preview = preview.map { .ready($0) } ?? .none
            return s.items[i]
        }
        if let changed { emit(.itemChanged(changed)) }
        if freesWindow { startPreviews() }
    }

    /// Downloads an item's movie only (its still waits until its preview is known not to serve).
    public func downloadMovie(_ id: ItemID, priority: Urgency = .visible) {
        guard let item = items.first(where: { $0.id == id }), let url = item.movieURL else { return }
        let entry = item.item.movie.flatMap { n in state.withLockedValue { s in s.entry(named: n.path) } }
        downloads.request(url, priority: priority, expectedSize: entry?.size, expectedETag: entry?.etag)
    }

    /// "Play requested": both halves of a Live Photo go to the front of the queue.
    public func requestPlay(_ id: ItemID) { download(id, priority: .play) }

    /// Retries an item's failed files.
    public func retry(_ id: ItemID) {
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

    private func downloadChanged(_ url: URL, _ downloadState: DownloadState) {
        let changed: [RemoteItem] = state.withLockedValue { s in
            var out: [RemoteItem] = []
            let key = s.key(url)
            for i in s.itemIndices(of: key) where i < s.items.count {
                let isStill = s.item(i, hasStill: key), isMovie = s.item(i, hasMovie: key)
                guard isStill || isMovie else { continue }
                if isStill { s.items[i].stillState = downloadState }
                if isMovie { s.items[i].movieState = downloadState }
                out.append(s.items[i])
            }
            return out
        }
        for item in changed { emit(.itemChanged(item)) }
        if !changed.isEmpty { emit(.activity(downloads.activity())) }
        if case .downloaded(let path) = downloadState {
            probeDownloadedStill(url, path: path)
            if probePolicy == .onDemand { settleFromDownloads(movieURL: url) }
        }
    }
}
