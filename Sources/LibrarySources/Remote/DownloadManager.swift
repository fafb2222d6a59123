import Concurrent
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
import LibraryCore
#endif

/// Downloads remote files into the cache in the background: a few at a time, most wanted first, resumable,
/// validated, streamed to disk chunk by chunk (memory does not grow with file size).
///
/// Thread-safe: call from anywhere. Observers are called on the HTTP client's worker thread (`.notRequested`
/// for an evicted file on the eviction queue, `.queued` on the requester's thread), never under the manager's
/// lock, with states in the order they happened for each URL. Keep them short: the worker thread also reads
/// every other transfer's socket.
public final class DownloadManager: Sendable {
    public struct Configuration: Sendable {
        /// Where downloads are kept (`DownloadCache.defaultRoot(environment:)` for the user's cache).
        public var cacheRoot: String
        public var maxConcurrent = 3
        /// Larger files are refused before a byte is written (when the server says the size), or stopped when
        /// they reach it: the cap of a file the user asked for (`.play`: holding a movie).
        public var sizeCap: UInt64 = 2 << 30
        /// The cap of downloads nobody asked for in person (`.visible` and `.prefetch`: the files behind the
        /// thumbnails and the next page). Far below `sizeCap`, so a hostile or broken server that sends endless
        /// bodies costs each visible cell this much at most (it cost 2 GiB each, issue 32.4); far above real
        /// photos (a 100-megapixel JPEG or HEIC is ~30-60 MB, a Live Photo movie 2-15 MB). A larger movie
        /// downloads when the user holds it, under `sizeCap`.
        public var automaticSizeCap: UInt64 = 128 << 20
        /// Least time between two progress notifications of one download.
        public var progressInterval: TimeInterval = 0.1
        /// Most bytes the cache keeps: least recently used files go first (never one being downloaded), when
        /// the manager starts and after each completed download.
        public var cacheSizeLimit: UInt64 = DownloadCache.defaultSizeLimit
        public init(cacheRoot: String) { self.cacheRoot = cacheRoot }
    }

    public let configuration: Configuration
    public let cache: DownloadCache
    private let client: RemoteHTTPClient
    /// Everything the manager's threads share, under one lock.
    private struct Registry {
        var jobs: [URL: Job] = [:]
        /// Bytes in the cache: set by each eviction pass, grown by every piece written since (partial files
        /// count), so the size limit is held while downloads run, not only after they end.
        var cacheBytes: UInt64 = 0
        /// False until a pass has counted the cache (the first download may start before the pass at start).
        var cacheCounted = false
        var sequence = 0
        var finishedAt: Date?
        var observers: [Int: @Sendable (URL, DownloadState) -> Void] = [:]
        var nextObserver = 0
    }
    private let registry = Locked(Registry())
    /// Eviction scans the cache directory: off the HTTP worker thread and one pass at a time.
    private let evictionQueue = DispatchQueue(label: "livegrid.download-cache.eviction", qos: .utility)

    /// One download, shared by the registry and its transfer's callbacks (the HTTP worker thread): an object,
    /// so that a late callback of a finished transfer changes only its own job, never a newer one of the URL.
    /// Its fields live under its own lock, taken inside `registry`'s when both are needed, never the other way.
    private final class Job: Sendable {
        struct Fields: Sendable {
            var priority: Urgency
            var order: Int
            var state: DownloadState = .queued
            var expectedSize: UInt64?
            var expectedETag: String?
            var task: (any LibraryTransfer)?
            var fd: Int32 = -1
            var bytes: UInt64 = 0
            var total: UInt64?
            var meta: DownloadMetadata?
            var lastNotify = Date.distantPast
            var rateSampleTime = Date()
            var rateSampleBytes: UInt64 = 0
            var bytesPerSecond: Double = 0
            var resumedFrom: UInt64 = 0
            /// End of the part of the file whose writeback has been started (see `startWriteback`).
            var writebackFrom: UInt64 = 0
            /// Started over once already because the file changed under a partial download.
            var restarted = false
        }
        let url: URL
        /// The cache directory's name, so eviction can tell active entries cheaply.
        let cacheKey: String
        private let fields: Locked<Fields>

        init(url: URL, priority: Urgency, order: Int) {
            self.url = url
            self.cacheKey = DownloadCache.key(for: url)
            self.fields = Locked(Fields(priority: priority, order: order))
        }

        /// Reads or changes the fields under the job's lock.
        func with<Result: Sendable>(_ body: (inout Fields) -> Result) -> Result {
            fields.withLockedValue { body(&$0) }
        }

        var state: DownloadState { with { $0.state } }
    }

    /// The cache's use lock, held shared while this manager lives (see `DownloadCache.holdUseLock`); -1 if none.
    private let useLock: Int32

    public init(client: RemoteHTTPClient, configuration: Configuration) {
        self.client = client
        self.configuration = configuration
        self.cache = DownloadCache(root: configuration.cacheRoot, sizeLimit: configuration.cacheSizeLimit)
        let (lock, alone) = cache.holdUseLock()
        useLock = lock
        // Partial files of earlier runs (a crash, a kill) go first: all of them when no other livegrid uses
        // this cache, else only old ones (another instance's running downloads write theirs continuously).
        evictionQueue.async { [weak self] in self?.sweepPartials(olderThan: alone ? nil : DownloadCache.stalePartialAge) }
        scheduleEviction()
    }

    deinit { if useLock >= 0 { close(useLock) } }

    /// The cap of a download of this urgency (`Configuration.automaticSizeCap`, `sizeCap`).
    func sizeCap(for priority: Urgency) -> UInt64 {
        priority == .play ? configuration.sizeCap : min(configuration.sizeCap, configuration.automaticSizeCap)
    }

    // MARK: observing

    /// Calls `observer` for every state change; returns a token for `removeObserver`.
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (URL, DownloadState) -> Void) -> Int {
        registry.withLockedValue { r in
            r.nextObserver += 1
            r.observers[r.nextObserver] = observer
            return r.nextObserver
        }
    }

    public func removeObserver(_ token: Int) { _ = registry.withLockedValue { r in r.observers.removeValue(forKey: token) } }

    /// State changes as an async stream (ends when the consumer stops iterating).
    public func updates() -> AsyncStream<(URL, DownloadState)> {
        AsyncStream { continuation in
            let token = addObserver { url, state in continuation.yield((url, state)) }
            continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        }
    }

    private func notify(_ url: URL, _ state: DownloadState) {
        let list = registry.withLockedValue { r in Array(r.observers.values) }
        for observer in list { observer(url, state) }
    }

    // MARK: requests

    /// Wants `url` downloaded. A cached complete file (same size/ETag as the listing says, when given) is
    /// reused at once; a running or queued request only has its priority raised.
    public func request(_ url: URL, priority: Urgency = .visible, expectedSize: UInt64? = nil,
                        expectedETag: String? = nil) {
        var announce: DownloadState?
        registry.withLockedValue { r in
            if let job = r.jobs[url] {
                switch job.state {
                case .queued, .downloading:
                    if priority == .play { r.sequence += 1 }
                    let sequence = r.sequence
                    job.with { f in
                        if priority > f.priority { f.priority = priority }
                        if priority == .play { f.order = -sequence }  // newest play request first
                    }
                    return
                case .downloaded:
                    return
                case .failed, .notRequested:
                    break
                }
            }
            if let cached = cache.completeFile(for: url),
               expectedSize.map({ $0 == cached.meta.size }) ?? true,
               expectedETag.map({ cached.meta.etag == nil || $0 == cached.meta.etag }) ?? true {
                cache.markUsed(url)
                let job = Job(url: url, priority: priority, order: 0)
                job.with { $0.state = .downloaded(path: cached.path) }
                r.jobs[url] = job
                announce = job.state
                return
            }
            r.sequence += 1
            let job = Job(url: url, priority: priority, order: priority == .play ? -r.sequence : r.sequence)
            job.with { f in
                f.expectedSize = expectedSize
                f.expectedETag = expectedETag
            }
            r.jobs[url] = job
            r.finishedAt = nil
            announce = .queued
        }
        if let announce { notify(url, announce) }
        pump()
    }

    /// "Play requested": moves the movie to the front of the queue.
    public func requestPlay(_ url: URL, expectedSize: UInt64? = nil) {
        request(url, priority: .play, expectedSize: expectedSize)
    }

    /// Queues a failed download again (it resumes from its partial file when the server allows).
    public func retry(_ url: URL) {
        let priority: Urgency? = registry.withLockedValue { r in
            guard let job = r.jobs[url], case .failed = job.state else { return nil }
            return job.with { f in
                f.state = .notRequested
                return f.priority
            }
        }
        if let priority { request(url, priority: priority) }
    }

    /// Stops a download (its partial file stays for a later resume).
    public func cancel(_ url: URL) {
        let task = registry.withLockedValue { r in r.jobs[url]?.with { $0.task } }
        task?.cancel()
        registry.withLockedValue { r in
            if let job = r.jobs[url], case .queued = job.state { r.jobs[url] = nil }
        }
    }

    /// On quit: stops every download and removes every partial file of this manager's downloads (complete
    /// files stay). A partial is worth keeping within a session (retry resumes it); across sessions it is
    /// only debris that counts against the cache, and a hostile server's endless bodies left gigabytes.
    public func discardPartials() {
        cancelAll()
        let urls = registry.withLockedValue { r in r.jobs.values.filter { !$0.state.isDownloaded }.map(\.url) }
        for url in urls { discardPart(cache.partPath(for: url)) }
    }

    /// Removes a partial file and takes its bytes off the cache's count.
    private func discardPart(_ path: String) {
        let size = cache.fileSize(path) ?? 0
        guard unlink(path) == 0 else { return }
        registry.withLockedValue { r in r.cacheBytes -= min(r.cacheBytes, size) }
    }

    /// Removes partial files left by earlier runs (`nil`: all; else those not written for `age` seconds),
    /// never one of a download this manager knows: checked and removed under the registry's lock, under which
    /// every job is registered before its transfer opens its partial file.
    private func sweepPartials(olderThan age: TimeInterval?) {
        for (key, path) in cache.partialFiles(olderThan: age, now: Date()) {
            registry.withLockedValue { r in
                guard !r.jobs.values.contains(where: { $0.cacheKey == key }) else { return }
                _ = unlink(path)
            }
        }
    }

    public func cancelAll() {
        let tasks = registry.withLockedValue { r -> [any LibraryTransfer] in
            for (url, job) in r.jobs where job.state == .queued { r.jobs[url] = nil }
            return r.jobs.values.compactMap { $0.with { $0.task } }
        }
        tasks.forEach { $0.cancel() }
    }

    public func state(of url: URL) -> DownloadState {
        registry.withLockedValue { r in r.jobs[url]?.state } ?? (cache.completeFile(for: url).map { .downloaded(path: $0.path) } ?? .notRequested)
    }

    /// The complete local copy, if any.
    public func localPath(for url: URL) -> String? { state(of: url).localPath }

    public func activity() -> DownloadActivity {
        registry.withLockedValue { r in
            var activity = DownloadActivity.idle
            for job in r.jobs.values {
                switch job.state {
                case .queued: activity.queued += 1
                case .downloading(let bytes, let total, let rate):
                    activity.inFlight += 1
                    activity.bytesPerSecond += rate
                    if let total, total > bytes { activity.remainingBytes += total - bytes }
                default: break
                }
            }
            if activity.bytesPerSecond > 1, activity.queued == 0 {
                activity.eta = Double(activity.remainingBytes) / activity.bytesPerSecond
            }
            activity.finishedAt = activity.isIdle ? r.finishedAt : nil
            return activity
        }
    }

    // MARK: scheduling

    private func pump() {
        while true {
            let next: Job? = registry.withLockedValue { r in
                let running = r.jobs.values.filter { if case .downloading = $0.state { return true } else { return false } }.count
                guard running < configuration.maxConcurrent else { return nil }
                let waiting = r.jobs.values.filter { $0.state == .queued }
                let ranked = waiting.map { job in (job, job.with { ($0.priority, -$0.order) }) }
                guard let job = ranked.max(by: { $0.1 < $1.1 })?.0 else { return nil }
                job.with { $0.state = .downloading(bytes: 0, total: $0.expectedSize, bytesPerSecond: 0) }
                return job
            }
            guard let job = next else { return }
            begin(job)
        }
    }

    private func begin(_ job: Job) {
        let url = job.url
        do {
            try cache.prepareDirectory(for: url)
        } catch {
            finish(job, error: error)
            return
        }
        // Resume only with a validator: If-Range makes the server send the whole file when it changed.
        let partPath = cache.partPath(for: url)
        let meta = cache.readMetadata(for: url)
        let partSize = cache.fileSize(partPath) ?? 0
        var range: RemoteFetchRange?
        var validator: String?
        if partSize > 0, let meta, !meta.complete, let v = meta.etag ?? meta.lastModified,
           meta.size.map({ partSize < $0 }) ?? false {
            range = .from(partSize)
            validator = v
        }
        let state: DownloadState = job.with { f in
            f.meta = meta
            f.resumedFrom = range == nil ? 0 : partSize
            return f.state
        }
        notify(url, state)
        let handler = RemoteTransferHandler(
            onResponse: { [weak self] in self?.received($0, job: job) },
            onData: { [weak self] in self?.received($0, job: job) },
            onComplete: { [weak self] in self?.finish(job, error: $0) })
        let task: any LibraryTransfer
        do {
            // The file's kind of library reads it (`LibrarySourceTable`): HTTP, WebDAV, SFTP, a local folder.
            guard let source = LibrarySourceTable.source(for: url, client: client) else { throw RemoteError.unsupportedURL(url.absoluteString) }
            task = try source.fetchWhole(url, from: range == nil ? 0 : partSize, validator: validator, handler: handler)
        } catch {
            finish(job, error: error as? RemoteError ?? .transport("\(error)"))
            return
        }
        job.with { $0.task = task }
    }

    private func received(_ http: HTTPURLResponse, job: Job) -> RemoteError? {
        let status = http.statusCode
        guard status == 200 || status == 206 else {
            return .httpStatus(status, url: job.url.absoluteString)
        }
        func header(_ name: String) -> String? {
            http.allHeaderFields.first { ($0.key as? String)?.lowercased() == name }?.value as? String
        }
        let partPath = cache.partPath(for: job.url)
        let (resumedFrom, knownSize, expectedETag, cap) = job.with {
            ($0.resumedFrom, $0.meta?.size, $0.expectedETag, sizeCap(for: $0.priority))
        }
        var startOffset: UInt64 = 0
        var total: UInt64?
        if status == 206 {
            guard let cr = header("content-range"), let parsed = parseContentRange(cr),
                  parsed.first == resumedFrom else {
                return .invalidResponse("unexpected Content-Range \(header("content-range") ?? "none")")
            }
            if let known = knownSize, parsed.total != known {
                return .invalidResponse("file size changed on the server")
            }
            startOffset = parsed.first
            total = parsed.total
        } else {
            total = header("content-length").flatMap { UInt64($0) }
        }
        if let total, total > cap {
            discardPart(partPath)
            return .tooLarge(size: total, cap: cap)
        }
        let etag = header("etag")
        if let expected = expectedETag, let etag, expected != etag, status == 200 {
            // The listing was older than the file: fine, the file wins; the metadata records the new tag.
        }
        let meta = DownloadMetadata(url: job.url.absoluteString, size: total, etag: etag,
                                    lastModified: header("last-modified"), complete: false)
        do { try cache.writeMetadata(meta, for: job.url) } catch { return .cache("\(error)") }
        let metadataBytes = cache.fileSize(cache.metadataPath(for: job.url)) ?? 0
        registry.withLockedValue { r in r.cacheBytes += metadataBytes }   // the limit counts every file
        // 200 after a Range+If-Range means the file changed (or no range support): start over.
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (startOffset > 0 ? O_APPEND : O_TRUNC)
        let fd = open(partPath, flags, 0o644)
        guard fd >= 0 else { return .cache("cannot open \(partPath): \(String(cString: strerror(errno)))") }
        job.with { f in
            f.fd = fd
            f.bytes = startOffset
            f.total = total
            f.meta = meta
            f.rateSampleTime = Date()
            f.rateSampleBytes = startOffset
            f.writebackFrom = startOffset
            f.state = .downloading(bytes: startOffset, total: total, bytesPerSecond: 0)
        }
        return nil
    }

    private func received(_ data: Data, job: Job) -> RemoteError? {
        let fd = job.with { $0.fd }
        guard fd >= 0 else { return .cache("file not open") }
        // Room first: a piece that would take the cache over its limit is never written.
        if let full = holdCacheLimit(adding: UInt64(data.count), job: job) { return full }
        let failed: Int32? = data.withUnsafeBytes { raw -> Int32? in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 { if errno == EINTR { continue }; return errno }
                done += n
            }
            return nil
        }
        if let failed { return .cache("write failed: \(String(cString: strerror(failed)))") }
        let progressInterval = configuration.progressInterval
        let (state, due, writeback, bytes, total, cap): (DownloadState, Bool, ClosedRange<UInt64>?, UInt64, UInt64?, UInt64) = job.with { f in
            f.bytes += UInt64(data.count)
            var writeback: ClosedRange<UInt64>?
            if f.bytes - f.writebackFrom >= Self.writebackStep {
                writeback = f.writebackFrom...(f.bytes - 1)
                f.writebackFrom = f.bytes
            }
            let now = Date()
            let elapsed = now.timeIntervalSince(f.rateSampleTime)
            if elapsed >= 0.5 {
                let rate = Double(f.bytes - f.rateSampleBytes) / elapsed
                f.bytesPerSecond = f.bytesPerSecond == 0 ? rate : 0.5 * f.bytesPerSecond + 0.5 * rate
                f.rateSampleTime = now
                f.rateSampleBytes = f.bytes
            }
            f.state = .downloading(bytes: f.bytes, total: f.total, bytesPerSecond: f.bytesPerSecond)
            let due = now.timeIntervalSince(f.lastNotify) >= progressInterval
            if due { f.lastNotify = now }
            return (f.state, due, writeback, f.bytes, f.total, sizeCap(for: f.priority))
        }
        if let writeback { Self.startWriteback(fd, writeback) }
        if let total, bytes > total { return .overlong(expected: total) }
        if total == nil, bytes > cap {
            return .tooLarge(size: bytes, cap: cap)
        }
        if due { notify(job.url, state) }
        return nil
    }

    /// Counts `bytes` about to be written into the cache; above the limit, evicts least recently used files at once
    /// (on this transfer's thread: rare, and the bytes must not land first). When only files in use remain,
    /// this download stops with `.cacheFull` rather than take the cache over its limit.
    private func holdCacheLimit(adding bytes: UInt64, job: Job) -> RemoteError? {
        let limit = cache.sizeLimit
        let (over, counted) = registry.withLockedValue { r in
            r.cacheBytes += bytes
            return (r.cacheBytes > limit, r.cacheCounted)
        }
        guard over || !counted else { return nil }
        let report = evictCache(keeping: nil, room: bytes)
        guard report.bytesAfter + bytes <= limit else { return .cacheFull(limit: limit) }
        // The pass counted what is on disk; this piece is written next.
        registry.withLockedValue { r in r.cacheBytes += bytes }
        return nil
    }

    /// How much is written between two `startWriteback`s.
    private static let writebackStep: UInt64 = 8 << 20

    /// Asks the kernel to start writing `range` of the file to disk now, without waiting. The fsync that makes
    /// a finished download durable then has little left to do (on a fast network it otherwise took a third
    /// of the download's time), and dirty pages do not pile up behind a large download. On Linux,
    /// POSIX_FADV_DONTNEED starts writeback of the range's dirty pages and drops the clean ones
    /// (sync_file_range is not visible to Swift's Glibc module).
    private static func startWriteback(_ fd: Int32, _ range: ClosedRange<UInt64>) {
        _ = posix_fadvise(fd, off_t(range.lowerBound), off_t(range.count), POSIX_FADV_DONTNEED)
    }

    private func finish(_ job: Job, error: RemoteError?) {
        let url = job.url
        let partPath = cache.partPath(for: url)
        var outcome: DownloadState
        let (fd, bytes, total, jobMeta, restarted) = job.with { f in
            let fd = f.fd
            f.fd = -1
            f.task = nil
            return (fd, f.bytes, f.total, f.meta, f.restarted)
        }
        var problem = error
        // A body cut short (reset, killed server, Content-Length larger than the body) says so plainly.
        if let total, bytes < total {
            switch problem {
            case .transport?, .connectionLost?: problem = .incomplete(received: bytes, expected: total)
            default: break
            }
        }
        if problem == nil {
            if let total, bytes != total {
                problem = bytes < total ? .incomplete(received: bytes, expected: total) : .overlong(expected: total)
            }
        }
        if fd >= 0 {
            if problem == nil, fsync(fd) != 0 { problem = .cache("fsync failed") }
            close(fd)
        }
        if problem == nil {
            // Only a file whose size matches loses its .part suffix.
            let dataPath = cache.dataPath(for: url)
            var meta = jobMeta ?? DownloadMetadata(url: url.absoluteString, size: bytes, etag: nil,
                                                   lastModified: nil, complete: false)
            meta.size = meta.size ?? bytes
            meta.complete = true
            if cache.fileSize(partPath) == meta.size, rename(partPath, dataPath) == 0 {
                do {
                    try cache.writeMetadata(meta, for: url)
                    outcome = .downloaded(path: dataPath)
                } catch {
                    outcome = .failed(.cache("\(error)"), retryable: true)
                }
            } else {
                outcome = .failed(.cache("size on disk does not match"), retryable: true)
                unlink(partPath)
            }
        } else if case .changedOnServer? = problem, !restarted {
            // SFTP has no If-Range: the transfer noticed the new modification time itself. Start over, as an
            // HTTP server would have by answering 200.
            unlink(partPath)
            // Under the registry's lock too, as every change of a job between waiting, running and done: `pump`
            // counts running jobs under it.
            registry.withLockedValue { _ in job.with { f in f.restarted = true; f.state = .queued } }
            notify(url, .queued)
            pump()
            return
        } else {
            let e = problem ?? .cancelled
            switch e {
            case .overlong, .tooLarge, .invalidResponse, .cacheFull: discardPart(partPath)   // nothing worth resuming
            default: break                                                 // a partial to resume later
            }
            outcome = .failed(e, retryable: e.isTransient || e == .cancelled || e == .cacheFull(limit: cache.sizeLimit)
                                || { if case .invalidResponse = e { return true } else { return false } }())
        }
        let finalOutcome = outcome
        registry.withLockedValue { r in
            job.with { $0.state = finalOutcome }
            let busy = r.jobs.values.contains { $0.state.isActive }
            if !busy { r.finishedAt = Date() }
        }
        notify(url, outcome)
        pump()
        if outcome.isDownloaded { scheduleEviction(keeping: job.cacheKey) }
    }

    // MARK: cache size

    /// Brings the cache under `cacheSizeLimit` now (least recently used first). Entries of queued and running
    /// downloads, and `keeping`, stay. Cached files that go are forgotten: their state becomes `.notRequested`.
    @discardableResult
    public func evictCache(keeping kept: String? = nil, room: UInt64 = 0) -> DownloadCache.EvictionReport {
        let report = cache.evict(room: room) { key in
            key == kept || registry.withLockedValue { r in r.jobs.values.contains { $0.cacheKey == key && $0.state.isActive } }
        }
        // The pass's count replaces the running one (bytes written while it scanned are lost from the count
        // until the next pass: a drift of one pass's worth, corrected by every pass).
        registry.withLockedValue { r in
            r.cacheBytes = report.bytesAfter
            r.cacheCounted = true
        }
        guard !report.removedKeys.isEmpty else { return report }
        let removed = Set(report.removedKeys)
        let forgotten: [URL] = registry.withLockedValue { r in
            let urls = r.jobs.values.filter { removed.contains($0.cacheKey) && $0.state.isDownloaded }.map(\.url)
            for url in urls { r.jobs[url] = nil }
            return urls
        }
        for url in forgotten { notify(url, .notRequested) }
        return report
    }

    private func scheduleEviction(keeping kept: String? = nil) {
        evictionQueue.async { [weak self] in self?.evictCache(keeping: kept) }
    }
}
