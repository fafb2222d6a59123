import Concurrent
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads remote files into the cache in the background: a few at a time, most wanted first, resumable,
/// validated, streamed to disk chunk by chunk (memory does not grow with file size).
///
/// Thread-safe: call from anywhere. Observers are called on the HTTP client's worker thread (`.notRequested`
/// for an evicted file on the eviction queue, `.queued` on the requester's thread), never under the manager's
/// lock, with states in the order they happened for each URL. Keep them short: the worker thread also reads
/// every other transfer's socket.
// unchecked: `Job` is a class shared with its transfer's curl callbacks; its fields change only under `registry`'s lock (or on that transfer's one worker thread).
public final class DownloadManager: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// Where downloads are kept (`DownloadCache.defaultRoot(environment:)` for the user's cache).
        public var cacheRoot: String
        public var maxConcurrent = 3
        /// Larger files are refused before a byte is written.
        public var sizeCap: UInt64 = 2 << 30
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
        var sequence = 0
        var finishedAt: Date?
        var observers: [Int: @Sendable (URL, DownloadState) -> Void] = [:]
        var nextObserver = 0
    }
    private let registry = Locked(Registry())
    /// Eviction scans the cache directory: off the HTTP worker thread and one pass at a time.
    private let evictionQueue = DispatchQueue(label: "livegrid.download-cache.eviction", qos: .utility)

    private final class Job {
        let url: URL
        /// The cache directory's name, so eviction can tell active entries cheaply.
        let cacheKey: String
        var priority: DownloadPriority
        var order: Int
        var state: DownloadState = .queued
        var expectedSize: UInt64?
        var expectedETag: String?
        var task: RemoteHTTPClient.Task?
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
        init(url: URL, priority: DownloadPriority, order: Int) {
            self.url = url
            self.cacheKey = DownloadCache.key(for: url)
            self.priority = priority
            self.order = order
        }
    }

    public init(client: RemoteHTTPClient, configuration: Configuration) {
        self.client = client
        self.configuration = configuration
        self.cache = DownloadCache(root: configuration.cacheRoot, sizeLimit: configuration.cacheSizeLimit)
        scheduleEviction()
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
    public func request(_ url: URL, priority: DownloadPriority = .visible, expectedSize: UInt64? = nil,
                        expectedETag: String? = nil) {
        var announce: DownloadState?
        registry.withLockedValue { r in
            if let job = r.jobs[url] {
                switch job.state {
                case .queued, .downloading:
                    if priority > job.priority { job.priority = priority }
                    if priority == .play { r.sequence += 1; job.order = -r.sequence }  // newest play request first
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
                job.state = .downloaded(path: cached.path)
                r.jobs[url] = job
                announce = job.state
                return
            }
            r.sequence += 1
            let job = Job(url: url, priority: priority, order: priority == .play ? -r.sequence : r.sequence)
            job.expectedSize = expectedSize
            job.expectedETag = expectedETag
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
        let priority: DownloadPriority? = registry.withLockedValue { r in
            guard let job = r.jobs[url], case .failed = job.state else { return nil }
            job.state = .notRequested
            return job.priority
        }
        if let priority { request(url, priority: priority) }
    }

    /// Stops a download (its partial file stays for a later resume).
    public func cancel(_ url: URL) {
        let task = registry.withLockedValue { r in r.jobs[url]?.task }
        task?.cancel()
        registry.withLockedValue { r in
            if let job = r.jobs[url], case .queued = job.state { r.jobs[url] = nil }
        }
    }

    public func cancelAll() {
        let tasks = registry.withLockedValue { r -> [RemoteHTTPClient.Task] in
            for (url, job) in r.jobs where job.state == .queued { r.jobs[url] = nil }
            return r.jobs.values.compactMap(\.task)
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
                guard let job = waiting.max(by: { ($0.priority, -$0.order) < ($1.priority, -$1.order) }) else { return nil }
                job.state = .downloading(bytes: 0, total: job.expectedSize, bytesPerSecond: 0)
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
            finish(job, error: .cache("\(error)"))
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
        let request: URLRequest
        do {
            var r = try client.makeRequest(url, range: range)
            if let validator { r.setValue(validator, forHTTPHeaderField: "If-Range") }
            request = r
        } catch {
            finish(job, error: error as? RemoteError ?? .transport("\(error)"))
            return
        }
        job.meta = meta
        job.resumedFrom = range == nil ? 0 : partSize
        notify(url, registry.withLockedValue { r in job.state })
        let task = client.start(request, handler: RemoteTransferHandler(
            onResponse: { [weak self] in self?.received($0, job: job) },
            onData: { [weak self] in self?.received($0, job: job) },
            onComplete: { [weak self] in self?.finish(job, error: $0) }))
        registry.withLockedValue { r in job.task = task }
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
        var startOffset: UInt64 = 0
        var total: UInt64?
        if status == 206 {
            guard let cr = header("content-range"), let parsed = parseContentRange(cr),
                  parsed.first == job.resumedFrom else {
                return .invalidResponse("unexpected Content-Range \(header("content-range") ?? "none")")
            }
            if let known = job.meta?.size, parsed.total != known {
                return .invalidResponse("file size changed on the server")
            }
            startOffset = parsed.first
            total = parsed.total
        } else {
            total = header("content-length").flatMap { UInt64($0) }
        }
        if let total, total > configuration.sizeCap {
            unlink(partPath)
            return .tooLarge(size: total, cap: configuration.sizeCap)
        }
        let etag = header("etag")
        if let expected = job.expectedETag, let etag, expected != etag, status == 200 {
            // The listing was older than the file: fine, the file wins; the metadata records the new tag.
        }
        let meta = DownloadMetadata(url: job.url.absoluteString, size: total, etag: etag,
                                    lastModified: header("last-modified"), complete: false)
        do { try cache.writeMetadata(meta, for: job.url) } catch { return .cache("\(error)") }
        // 200 after a Range+If-Range means the file changed (or no range support): start over.
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (startOffset > 0 ? O_APPEND : O_TRUNC)
        let fd = open(partPath, flags, 0o644)
        guard fd >= 0 else { return .cache("cannot open \(partPath): \(String(cString: strerror(errno)))") }
        registry.withLockedValue { r in
            job.fd = fd
            job.bytes = startOffset
            job.total = total
            job.meta = meta
            job.rateSampleTime = Date()
            job.rateSampleBytes = startOffset
            job.writebackFrom = startOffset
            job.state = .downloading(bytes: startOffset, total: total, bytesPerSecond: 0)
        }
        return nil
    }

    private func received(_ data: Data, job: Job) -> RemoteError? {
        let fd = registry.withLockedValue { r in job.fd }
        guard fd >= 0 else { return .cache("file not open") }
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
        let (state, due, writeback): (DownloadState, Bool, ClosedRange<UInt64>?) = registry.withLockedValue { r in
            job.bytes += UInt64(data.count)
            var writeback: ClosedRange<UInt64>?
            if job.bytes - job.writebackFrom >= Self.writebackStep {
                writeback = job.writebackFrom...(job.bytes - 1)
                job.writebackFrom = job.bytes
            }
            let now = Date()
            let elapsed = now.timeIntervalSince(job.rateSampleTime)
            if elapsed >= 0.5 {
                let rate = Double(job.bytes - job.rateSampleBytes) / elapsed
                job.bytesPerSecond = job.bytesPerSecond == 0 ? rate : 0.5 * job.bytesPerSecond + 0.5 * rate
                job.rateSampleTime = now
                job.rateSampleBytes = job.bytes
            }
            job.state = .downloading(bytes: job.bytes, total: job.total, bytesPerSecond: job.bytesPerSecond)
            let due = now.timeIntervalSince(job.lastNotify) >= configuration.progressInterval
            if due { job.lastNotify = now }
            return (job.state, due, writeback)
        }
        if let writeback { Self.startWriteback(fd, writeback) }
        if let total = job.total, job.bytes > total { return .overlong(expected: total) }
        if job.total == nil, job.bytes > configuration.sizeCap {
            return .tooLarge(size: job.bytes, cap: configuration.sizeCap)
        }
        if due { notify(job.url, state) }
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
        let fd = registry.withLockedValue { r -> Int32 in let fd = job.fd; job.fd = -1; job.task = nil; return fd }
        var problem = error
        // A body cut short (reset, killed server, Content-Length larger than the body) says so plainly.
        if let total = job.total, job.bytes < total {
            switch problem {
            case .transport?, .connectionLost?: problem = .incomplete(received: job.bytes, expected: total)
            default: break
            }
        }
        if problem == nil {
            if let total = job.total, job.bytes != total {
                problem = job.bytes < total ? .incomplete(received: job.bytes, expected: total) : .overlong(expected: total)
            }
        }
        if fd >= 0 {
            if problem == nil, fsync(fd) != 0 { problem = .cache("fsync failed") }
            close(fd)
        }
        if problem == nil {
            // Only a file whose size matches loses its .part suffix.
            let dataPath = cache.dataPath(for: url)
            var meta = job.meta ?? DownloadMetadata(url: url.absoluteString, size: job.bytes, etag: nil,
                                                    lastModified: nil, complete: false)
            meta.size = meta.size ?? job.bytes
            meta.complete = true
            if cache.fileSize(partPath) == meta.size, rename(partPath, dataPath) == 0 {
                do {
                    try cache.writeMetadata(meta, for: url)
                    outcome = .downloaded(path: dataPath)
                } catch {
                    outcome = .failed(reason: RemoteError.cache("\(error)").description, retryable: true)
                }
            } else {
                outcome = .failed(reason: RemoteError.cache("size on disk does not match").description, retryable: true)
                unlink(partPath)
            }
        } else if case .changedOnServer? = problem, !job.restarted {
            // SFTP has no If-Range: the transfer noticed the new modification time itself. Start over, as an
            // HTTP server would have by answering 200.
            unlink(partPath)
            registry.withLockedValue { r in job.restarted = true; job.state = .queued }
            notify(url, .queued)
            pump()
            return
        } else {
            let e = problem ?? .cancelled
            switch e {
            case .overlong, .tooLarge, .invalidResponse: unlink(partPath)   // nothing worth resuming
            default: break                                                 // a partial to resume later
            }
            outcome = .failed(reason: e.description, retryable: e.isTransient || e == .cancelled
                                || { if case .invalidResponse = e { return true } else { return false } }())
        }
        registry.withLockedValue { r in
            job.state = outcome
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
    public func evictCache(keeping kept: String? = nil) -> DownloadCache.EvictionReport {
        let report = cache.evict { key in
            key == kept || registry.withLockedValue { r in r.jobs.values.contains { $0.cacheKey == key && $0.state.isActive } }
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
