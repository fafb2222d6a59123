import Concurrent
import Foundation

/// A bounded pool of worker threads (one per core) running thumbnail jobs by priority. `submit` and `cancel`
/// only take a lock: the caller (the UI loop) never waits. Completions run on a worker thread; the caller
/// hands them to its own loop. Workers sleep on a semaphore that counts queued jobs (a replaced or cancelled
/// job leaves one spare count behind: a worker wakes, finds nothing, and sleeps again).
/// `Key` is what a request is for (the picture provider's typed `ThumbnailKey`): a new request with the same key
/// replaces the old one; results of replaced or cancelled requests are dropped.
public final class ThumbnailScheduler<Key: Hashable & Sendable>: Sendable {
    public typealias Job = @Sendable () -> Result<PixelFrame, ImagingError>
    public typealias Completion = @Sendable (Key, Result<PixelFrame, ImagingError>) -> Void

    private struct Pending: Sendable {
        var key: Key
        var generation: UInt64
        var job: Job
        var completion: Completion
    }

    private struct Queues {
        /// One FIFO per lane, most urgent first (see `lane(for:)`).
        var byPriority: [[Pending]] = Array(repeating: [], count: ThumbnailScheduler.laneCount)
        /// The generation a key's result must carry to be delivered; absent = cancelled.
        var current: [Key: UInt64] = [:]
        var nextGeneration: UInt64 = 1
        var stopping = false
        /// Keys whose request has the `firstScreen` priority (kept by `cancelAll`).
        var firstScreen: Set<Key> = []

        mutating func removeQueued(_ key: Key) {
            for p in byPriority.indices { byPriority[p].removeAll { $0.key == key } }
        }
    }

    private let queues = Locked(Queues())
    private let jobsWaiting = DispatchSemaphore(value: 0)
    public let workerCount: Int

    /// The first screen while the scan runs, then on-screen pictures (the selected one in the same FIFO, in
    /// request order: the viewer's picture is asked for alone), then the next page. `firstScreen` jobs survive
    /// `cancelAll`; `cancel` or `shutdown` still drop them.
    private static var laneCount: Int { 3 }
    private static func lane(for urgency: Urgency) -> Int {
        switch urgency {
        case .firstScreen: return 0
        case .play, .selected, .visible: return 1
        case .prefetch: return 2
        }
    }

    public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount) {
        workerCount = max(1, workers)
        for i in 0..<workerCount {
            NamedThread.start("livegrid-thumbnail-\(i)") { [weak self] in self?.workLoop() }
        }
    }

    deinit { shutdown() }

    /// Queues `job`; replaces any queued or running request with the same key (its result will be dropped).
    public func submit(_ key: Key, priority: Urgency, job: @escaping Job,
                       completion: @escaping Completion)
    {
        queues.withLockedValue { queues in
            queues.removeQueued(key)
            let generation = queues.nextGeneration
            queues.nextGeneration += 1
            queues.current[key] = generation
            if priority == .firstScreen { queues.firstScreen.insert(key) } else { queues.firstScreen.remove(key) }
            queues.byPriority[Self.lane(for: priority)].append(Pending(key: key, generation: generation, job: job,
                                                                completion: completion))
        }
        jobsWaiting.signal()
    }

    /// Runs `work` on a worker in `priority`'s queue, under `key` like a picture: work that is not a decode but
    /// should share the pool's cores and order with them (the listing that names the first screen's pictures).
    public func submit(_ key: Key, priority: Urgency, work: @escaping @Sendable () -> Void) {
        submit(key, priority: priority, job: {
            work()
            return .failure(.cannotDecode("not a picture"))
        }, completion: { _, _ in })
    }

    /// Moves a queued request to another priority (a cell scrolled into view).
    public func reprioritize(_ key: Key, to priority: Urgency) {
        queues.withLockedValue { queues in
            for p in queues.byPriority.indices {
                if let i = queues.byPriority[p].firstIndex(where: { $0.key == key }) {
                    if priority == .firstScreen { queues.firstScreen.insert(key) } else { queues.firstScreen.remove(key) }
                    let pending = queues.byPriority[p].remove(at: i)
                    queues.byPriority[Self.lane(for: priority)].append(pending)
                    return
                }
            }
        }
    }

    /// Forgets a request: removed from the queue if waiting, its result dropped if running.
    public func cancel(_ key: Key) {
        queues.withLockedValue { queues in
            queues.removeQueued(key)
            queues.current[key] = nil
            queues.firstScreen.remove(key)
        }
    }

    /// Cancels every request whose key is not in `keep` (the new visible page), except `firstScreen` ones.
    public func cancelAll(except keep: Set<Key> = []) {
        queues.withLockedValue { queues in
            let kept = keep.union(queues.firstScreen)
            for p in queues.byPriority.indices { queues.byPriority[p].removeAll { !kept.contains($0.key) } }
            queues.current = queues.current.filter { kept.contains($0.key) }
        }
    }

    /// Requests waiting (not running).
    public var queuedCount: Int {
        queues.withLockedValue { $0.byPriority.reduce(0) { $0 + $1.count } }
    }

    /// Stops the workers after their current job; queued jobs are dropped.
    public func shutdown() {
        queues.withLockedValue { queues in
            queues.stopping = true
            for p in queues.byPriority.indices { queues.byPriority[p].removeAll() }
            queues.current.removeAll()
            queues.firstScreen.removeAll()
        }
        for _ in 0..<workerCount { jobsWaiting.signal() }
    }

    private func workLoop() {
        while true {
            jobsWaiting.wait()
            let (stopping, next) = queues.withLockedValue { queues -> (Bool, Pending?) in
                guard !queues.stopping else { return (true, nil) }
                guard let p = queues.byPriority.firstIndex(where: { !$0.isEmpty }) else { return (false, nil) }
                return (false, queues.byPriority[p].removeFirst())
            }
            if stopping { return }
            guard let pending = next else { continue }

            let result = pending.job()

            let deliver = queues.withLockedValue { queues in
                guard queues.current[pending.key] == pending.generation else { return false }
                queues.current[pending.key] = nil
                queues.firstScreen.remove(pending.key)
                return true
            }
            if deliver { pending.completion(pending.key, result) }
        }
    }
}
