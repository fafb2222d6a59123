import Foundation

/// What a thumbnail request is for: the item and the pixel size. A new request with the same key replaces the
/// old one; results of replaced or cancelled requests are dropped.
public struct ThumbnailRequestKey: Hashable, Sendable, CustomStringConvertible {
    public var itemID: String
    public var size: Int
    public init(itemID: String, size: Int) {
        self.itemID = itemID
        self.size = size
    }
    public var description: String { "\(itemID)@\(size)" }
}

/// Visible cells first, then the next page, then everything else.
public enum ThumbnailPriority: Int, Sendable, Comparable, CaseIterable {
    case visible = 0
    case nextPage = 1
    case background = 2
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A bounded pool of worker threads (one per core) running thumbnail jobs by priority. `submit` and `cancel`
/// only take a lock: the caller (the UI loop) never waits. Completions run on a worker thread; the caller
/// hands them to its own loop.
public final class ThumbnailScheduler: @unchecked Sendable {
    public typealias Job = @Sendable () -> Result<PixelFrame, ImagingError>
    public typealias Completion = @Sendable (ThumbnailRequestKey, Result<PixelFrame, ImagingError>) -> Void

    private struct Pending {
        var key: ThumbnailRequestKey
        var generation: UInt64
        var job: Job
        var completion: Completion
    }

    private let condition = NSCondition()
    /// One FIFO per priority.
    private var queues: [[Pending]] = Array(repeating: [], count: ThumbnailPriority.allCases.count)
    /// The generation a key's result must carry to be delivered; absent = cancelled.
    private var current: [ThumbnailRequestKey: UInt64] = [:]
    private var nextGeneration: UInt64 = 1
    private var stopping = false
    private var threads: [Thread] = []
    public let workerCount: Int

    public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount) {
        workerCount = max(1, workers)
        for i in 0..<workerCount {
            let thread = Thread { [weak self] in
                // The UI's signals go to the main thread (curses' Ctrl-Z handler is not async-signal-safe);
                // chafa's pool threads, started from here, inherit the mask.
                var blocked = sigset_t()
                sigemptyset(&blocked)
                for signalNumber in [SIGTSTP, SIGCONT, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH] { sigaddset(&blocked, signalNumber) }
                pthread_sigmask(SIG_BLOCK, &blocked, nil)
                self?.workLoop()
            }
            thread.name = "livegrid-thumbnail-\(i)"
            thread.start()
            threads.append(thread)
        }
    }

    deinit { shutdown() }

    /// Queues `job`; replaces any queued or running request with the same key (its result will be dropped).
    public func submit(_ key: ThumbnailRequestKey, priority: ThumbnailPriority, job: @escaping Job,
                       completion: @escaping Completion)
    {
        condition.lock()
        removeQueued(key)
        let generation = nextGeneration
        nextGeneration += 1
        current[key] = generation
        queues[priority.rawValue].append(Pending(key: key, generation: generation, job: job, completion: completion))
        condition.signal()
        condition.unlock()
    }

    /// Moves a queued request to another priority (a cell scrolled into view).
    public func reprioritize(_ key: ThumbnailRequestKey, to priority: ThumbnailPriority) {
        condition.lock()
        defer { condition.unlock() }
        for p in queues.indices {
            if let i = queues[p].firstIndex(where: { $0.key == key }) {
                let pending = queues[p].remove(at: i)
                queues[priority.rawValue].append(pending)
                return
            }
        }
    }

    /// Forgets a request: removed from the queue if waiting, its result dropped if running.
    public func cancel(_ key: ThumbnailRequestKey) {
        condition.lock()
        removeQueued(key)
        current[key] = nil
        condition.unlock()
    }

    /// Cancels every request whose key is not in `keep` (the new visible page).
    public func cancelAll(except keep: Set<ThumbnailRequestKey> = []) {
        condition.lock()
        for p in queues.indices { queues[p].removeAll { !keep.contains($0.key) } }
        current = current.filter { keep.contains($0.key) }
        condition.unlock()
    }

    /// Requests waiting (not running).
    public var queuedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return queues.reduce(0) { $0 + $1.count }
    }

    /// Stops the workers after their current job; queued jobs are dropped.
    public func shutdown() {
        condition.lock()
        stopping = true
        for p in queues.indices { queues[p].removeAll() }
        current.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func removeQueued(_ key: ThumbnailRequestKey) {
        for p in queues.indices { queues[p].removeAll { $0.key == key } }
    }

    private func workLoop() {
        while true {
            condition.lock()
            while !stopping && queues.allSatisfy({ $0.isEmpty }) { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            guard let p = queues.firstIndex(where: { !$0.isEmpty }) else {
                condition.unlock()
                continue
            }
            let pending = queues[p].removeFirst()
            condition.unlock()

            let result = pending.job()

            condition.lock()
            let deliver = current[pending.key] == pending.generation
            if deliver { current[pending.key] = nil }
            condition.unlock()
            if deliver { pending.completion(pending.key, result) }
        }
    }
}
