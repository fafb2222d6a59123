import Concurrent
import Foundation
import LibraryCore
import XCTest
import LibrarySources
import TestSupport

/// A hostile server (issue 32.4): every `.jpg` is an endless body without `Content-Length` (chunked), the way
/// one filled the cache with 4.6 GB against its 2 GiB limit and left 4.3 GB of partial files after `q`. The
/// server is a real python http.server subclass, bounded by the test: each body stops after 64 MB or 60 s.
final class RemoteEndlessBodyTests: RemoteServerTestCase {
    private var cacheRoot: String { root.appendingPathComponent("cache").path }

    static let endlessScript = #"""
    import sys, time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    LIMIT = int(sys.argv[2]) << 20
    SECONDS = float(sys.argv[3])
    PAUSE = float(sys.argv[4])
    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *a): pass
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"\xff" * 65536
            piece = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
            start, sent = time.time(), 0
            try:
                while sent < LIMIT and time.time() - start < SECONDS:
                    self.wfile.write(piece)
                    sent += len(chunk)
                    if PAUSE:
                        time.sleep(PAUSE)
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H)
    server.daemon_threads = True
    server.serve_forever()
    """#

    /// `pause`: seconds between two 64 KB pieces (0: as fast as the socket takes them).
    private func startEndlessServer(pause: Double = 0) throws -> String {
        let port = try RemoteTestHarness.freePort()
        let script = root.appendingPathComponent("endless.py")
        try Self.endlessScript.write(to: script, atomically: true, encoding: .utf8)
        servers.append(try RemoteTestHarness.Server(port: port, directory: root,
                                                    arguments: [try RemoteTestHarness.python(), script.path, String(port), "64", "60", String(pause)],
                                                    workingDirectory: root))
        return "http://127.0.0.1:\(port)"
    }

    private func manager(_ change: (inout DownloadManager.Configuration) -> Void) -> DownloadManager {
        var http = RemoteHTTPConfiguration()
        http.idleTimeout = 5
        http.netrc = Netrc()
        var configuration = DownloadManager.Configuration(cacheRoot: cacheRoot)
        change(&configuration)
        return DownloadManager(client: RemoteHTTPClient(configuration: http), configuration: configuration)
    }

    private func finished(_ m: DownloadManager, _ urls: [URL]) -> Bool {
        urls.allSatisfy { url in
            switch m.state(of: url) { case .failed, .downloaded, .notRequested: return true; default: return false }
        }
    }

    private func reason(_ state: DownloadState) -> String { if case .failed(let error, _) = state { return error.description } else { return "\(state)" } }

    /// 30 visible thumbnails' files and one held movie: each automatic download stops at the automatic cap,
    /// the held one at its own (larger) cap, the cache never holds more than its limit, and nothing partial stays.
    func testAutomaticDownloadsStopAtTheirCapAndTheCacheStaysUnderItsLimit() async throws {
        let base = try startEndlessServer()
        let m = manager {
            $0.automaticSizeCap = 2 << 20
            $0.sizeCap = 8 << 20
            $0.cacheSizeLimit = 16 << 20
        }
        let sampler = CacheSampler(m.cache)
        defer { sampler.stop() }
        let thumbnails = (0..<30).map { URL(string: "\(base)/photos/IMG_\($0).jpg")! }
        let held = URL(string: "\(base)/photos/held.mov")!
        for url in thumbnails { m.request(url, priority: .visible) }
        m.request(held, priority: .play)
        try await waitUntil(seconds: 60) { finished(m, thumbnails + [held]) }

        for url in thumbnails {
            XCTAssertTrue(reason(m.state(of: url)).contains("above the \(2 << 20)-byte download cap"), reason(m.state(of: url)))
        }
        XCTAssertTrue(reason(m.state(of: held)).contains("above the \(8 << 20)-byte download cap"),
                      "a held movie has its own, larger cap: \(reason(m.state(of: held)))")
        XCTAssertLessThanOrEqual(sampler.largest, 16 << 20, "the cache limit holds while downloads run")
        XCTAssertEqual(m.cache.partialFiles(olderThan: nil, now: Date()).map(\.path), [], "refused bodies leave nothing")
    }

    /// Downloads within their cap but together above the cache's limit: finished files are evicted to make
    /// room while they run, and once only running downloads remain, one stops rather than pass the limit.
    func testTheCacheLimitHoldsWhileDownloadsRun() async throws {
        let base = try startEndlessServer()
        let limit: UInt64 = 6 << 20
        // An old complete file in the cache, which may go to make room.
        let seed = DownloadCache(root: cacheRoot)
        let old = URL(string: "\(base)/old/cached.jpg")!
        try seed.prepareDirectory(for: old)
        try Data(repeating: 1, count: 3 << 20).write(to: URL(fileURLWithPath: seed.dataPath(for: old)))
        try seed.writeMetadata(DownloadMetadata(url: old.absoluteString, size: 3 << 20, etag: nil, lastModified: nil,
                                                complete: true), for: old)
        let m = manager {
            $0.automaticSizeCap = 64 << 20
            $0.cacheSizeLimit = limit
        }
        let sampler = CacheSampler(m.cache)
        defer { sampler.stop() }
        let urls = (0..<3).map { URL(string: "\(base)/photos/big\($0).jpg")! }
        for url in urls { m.request(url, priority: .visible) }
        try await waitUntil(seconds: 60) { finished(m, urls) }

        XCTAssertLessThanOrEqual(sampler.largest, limit, "never above the limit, partial files included")
        XCTAssertNil(m.cache.completeFile(for: old), "the old file made room")
        XCTAssertTrue(urls.contains { reason(m.state(of: $0)).contains("download cache is full") },
                      urls.map { reason(m.state(of: $0)) }.joined(separator: "\n"))
        XCTAssertLessThanOrEqual(m.cache.totalBytes(), limit)
    }

    /// `q` while held movies stream endless bodies: every partial file goes.
    func testQuitRemovesPartialFiles() async throws {
        let base = try startEndlessServer(pause: 0.02)   // ~3 MB/s each: still running when `q` comes
        let m = manager { $0.sizeCap = 256 << 20 }
        let urls = (0..<3).map { URL(string: "\(base)/movies/m\($0).mov")! }
        for url in urls { m.request(url, priority: .play) }
        try await waitUntil(seconds: 30) {
            urls.allSatisfy { if case .downloading(let bytes, _, _) = m.state(of: $0) { return bytes > 1 << 20 } else { return false } }
        }
        XCTAssertEqual(m.cache.partialFiles(olderThan: nil, now: Date()).count, 3)
        m.discardPartials()
        try await waitUntil(seconds: 10) { finished(m, urls) }
        XCTAssertEqual(m.cache.partialFiles(olderThan: nil, now: Date()).map(\.path), [], "no partial file after quit")
    }

    /// Partial files of a run that was killed go at the next start: all of them when no other livegrid uses
    /// the cache, only old ones while another does (its running downloads write theirs).
    func testTheNextStartRemovesPartialFilesOfEarlierRuns() async throws {
        let cache = DownloadCache(root: cacheRoot)
        func partial(_ name: String, age: TimeInterval) throws -> String {
            let url = URL(string: "http://127.0.0.1:1/\(name).jpg")!
            try cache.prepareDirectory(for: url)
            let path = cache.partPath(for: url)
            try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
            return path
        }
        let killed = try partial("killed", age: 0)
        let first = manager { _ in }
        try await waitUntil(seconds: 10) { !FileManager.default.fileExists(atPath: killed) }

        let fresh = try partial("another-instance", age: 0)
        let stale = try partial("long-dead", age: 3600)
        let second = manager { _ in }
        try await waitUntil(seconds: 10) { !FileManager.default.fileExists(atPath: stale) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: fresh), "another instance's recent partial stays")
        withExtendedLifetime((first, second)) {}
    }
}

/// Samples the cache's size on its own thread until stopped, keeping the largest seen.
private final class CacheSampler: Sendable {
    private let state = Locked((largest: UInt64(0), running: true))
    init(_ cache: DownloadCache) {
        NamedThread.start("cache-sampler") { [state] in
            while state.withLockedValue({ $0.running }) {
                let bytes = cache.totalBytes()
                state.withLockedValue { $0.largest = max($0.largest, bytes) }
                usleep(5_000)
            }
        }
    }
    var largest: UInt64 { state.withLockedValue { $0.largest } }
    func stop() { state.withLockedValue { $0.running = false } }
}
