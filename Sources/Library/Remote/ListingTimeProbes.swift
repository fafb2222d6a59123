import Concurrent
import Foundation
import LibraryCore
import LibrarySources

/// Header probes of the files an SFTP listing has already confirmed (`SFTPListingConfirmer`), run while the
/// rest of the listing still arrives (issue 32.9), at most `width` at once. `finish` (once the whole listing is
/// in) waits for them, so the probes after it never overlap these: the bound holds for the scan as a whole.
/// Results are kept by URL and only used for entries of the whole listing, so the output is what the whole
/// parse and its order make it, whatever arrived first.
final class ListingTimeProbes: Sendable {
    typealias Results = [String: RemoteHeaderProbe.Result]
    private let continuation: AsyncStream<RemoteEntry>.Continuation
    private let worker: Task<Results, Never>
    private let startedCount = Locked(0)

    init(width: Int, probe: @escaping @Sendable (RemoteEntry) async -> RemoteHeaderProbe.Result) {
        let (stream, continuation) = AsyncStream<RemoteEntry>.makeStream()
        self.continuation = continuation
        let started = startedCount
        worker = Task {
            await withTaskGroup(of: (String, RemoteHeaderProbe.Result).self) { group in
                var results: Results = [:]
                var running = 0
                for await entry in stream {
                    if Task.isCancelled { break }
                    if running >= max(1, width), let (key, result) = await group.next() {
                        results[key] = result
                        running -= 1
                    }
                    started.withLockedValue { $0 += 1 }
                    group.addTask { (entry.url.absoluteString, await probe(entry)) }
                    running += 1
                }
                while let (key, result) = await group.next() { results[key] = result }
                return results
            }
        }
    }

    /// Queues confirmed media files (the caller filters them as `publish` does).
    func add(_ entries: [RemoteEntry]) {
        for entry in entries { continuation.yield(entry) }
    }

    /// Probes started so far.
    var started: Int { startedCount.value }

    /// No more entries: waits for the queued and running probes and returns their results.
    func finish() async -> Results {
        continuation.finish()
        return await worker.value
    }

    /// The listing failed: stops queuing and lets running probes end.
    func cancel() {
        worker.cancel()
        continuation.finish()
    }
}
