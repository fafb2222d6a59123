import Foundation
import XCTest
@testable import Library
import LibrarySources

/// Figures for Benchmarks/remote.sh; skipped unless LIVEGRID_REMOTE_BENCH_URL is set (the script starts nginx).
final class RemoteBenchmarkTests: XCTestCase {
    private var env: [String: String] { ProcessInfo.processInfo.environment }

    /// Time to the listing with placeholders and to all items paired.
    func testListingAndPairingTimes() async throws {
        guard let url = env["LIVEGRID_REMOTE_BENCH_URL"].flatMap(URL.init(string:)) else {
            throw XCTSkip("set LIVEGRID_REMOTE_BENCH_URL (Benchmarks/remote.sh does)")
        }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: cache) }
        var config = DownloadManager.Configuration()
        config.cacheRoot = cache.path
        var http = RemoteHTTPConfiguration()
        http.netrc = Netrc()
        let client = RemoteHTTPClient(configuration: http)
        let lib = RemoteLibrary(url: url, client: client, downloads: DownloadManager(client: client, configuration: config))
        let start = Date()
        let listed = Listed()
        lib.addObserver { event in
            if case .listed(let items, _, _) = event { listed.set(Date(), items.count) }
        }
        let items = try await lib.load()
        let paired = Date().timeIntervalSince(start)
        let (at, count) = listed.value
        print(String(format: "BENCH listing-with-placeholders: %.3f s (%d placeholders)", at.timeIntervalSince(start), count))
        print(String(format: "BENCH all-paired: %.3f s (%d items, %d header requests, %llu header bytes)",
                     paired, items.count, lib.probeRequests, lib.probeBytes))
    }

    /// Downloads one large file through DownloadManager; the script times it against curl and reads peak RSS.
    func testLargeDownload() async throws {
        guard let url = env["LIVEGRID_REMOTE_BENCH_FILE"].flatMap(URL.init(string:)) else {
            throw XCTSkip("set LIVEGRID_REMOTE_BENCH_FILE (Benchmarks/remote.sh does)")
        }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-bench-dl-\(getpid())")
        defer { try? FileManager.default.removeItem(at: cache) }
        var config = DownloadManager.Configuration()
        config.cacheRoot = cache.path
        var http = RemoteHTTPConfiguration()
        http.netrc = Netrc()
        let m = DownloadManager(client: RemoteHTTPClient(configuration: http), configuration: config)
        // Told by the manager (not polled), so the figure is not rounded up to a polling interval.
        let updates = m.updates()
        let start = Date()
        m.request(url)
        for await (changed, state) in updates where changed == url {
            if case .downloaded(let path) = state {
                let seconds = Date().timeIntervalSince(start)
                let size = m.cache.fileSize(path) ?? 0
                print(String(format: "BENCH download: %llu bytes in %.3f s = %.1f MB/s", size, seconds,
                             Double(size) / seconds / 1e6))
                return
            }
            if case .failed(let why, _) = state { return XCTFail(why) }
        }
    }
}

private final class Listed: @unchecked Sendable {
    private let lock = NSLock()
    private var v: (Date, Int) = (.distantPast, 0)
    func set(_ d: Date, _ n: Int) { lock.lock(); if v.1 == 0 { v = (d, n) }; lock.unlock() }
    var value: (Date, Int) { lock.lock(); defer { lock.unlock() }; return v }
}
