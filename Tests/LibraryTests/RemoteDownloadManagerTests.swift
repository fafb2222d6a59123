import Foundation
import LibraryCore
import XCTest
import LibrarySources
import TestSupport

/// DownloadManager faults against real servers on 127.0.0.1.
final class RemoteDownloadManagerTests: RemoteServerTestCase {

    private func manager(idle: TimeInterval = 5, cap: UInt64 = 2 << 30) -> DownloadManager {
        var http = RemoteHTTPConfiguration()
        http.idleTimeout = idle
        http.netrc = Netrc()
        var config = DownloadManager.Configuration(cacheRoot: root.appendingPathComponent("cache").path)
        config.sizeCap = cap
        return DownloadManager(client: RemoteHTTPClient(configuration: http), configuration: config)
    }

    private func finalState(_ m: DownloadManager, _ url: URL, seconds: Double = 20) async throws -> DownloadState {
        try await waitUntil(seconds: seconds) {
            switch m.state(of: url) { case .downloaded, .failed: return true; default: return false }
        }
        return m.state(of: url)
    }

    private func reason(_ s: DownloadState) -> String? { if case .failed(let error, _) = s { return error.description } else { return nil } }

    /// Starts a throttled download of train.mov and stops nginx once 300 KB have arrived.
    private func interruptedDownload() async throws -> (manager: DownloadManager, url: URL, port: Int) {
        let nginx = try RemoteTestHarness.startNginx(root: root, rate: "200k")
        servers.append(nginx)
        let m = manager()
        let url = URL(string: "http://127.0.0.1:\(nginx.port)/slow/train.mov")!
        m.request(url)
        try await waitUntil(seconds: 10) {
            if case .downloading(let bytes, _, _) = m.state(of: url) { return bytes > 300_000 } else { return false }
        }
        nginx.stop()
        return (m, url, nginx.port)
    }

    func testServerKilledMidDownloadLeavesResumablePartial() async throws {
        let (m, url, port) = try await interruptedDownload()
        let failed = try await finalState(m, url)
        guard case .failed(let why, let retryable) = failed else { return XCTFail("expected failure, got \(failed)") }
        XCTAssertTrue(retryable, why.description)
        let part = m.cache.partPath(for: url)
        let partial = try XCTUnwrap(m.cache.fileSize(part))
        XCTAssertGreaterThan(partial, 300_000)
        XCTAssertNil(m.cache.completeFile(for: url), "a partial file is never complete")
        XCTAssertFalse(FileManager.default.fileExists(atPath: m.cache.dataPath(for: url)))

        servers.append(try RemoteTestHarness.startNginx(root: root, port: port, rate: "2m"))
        m.retry(url)
        let done = try await finalState(m, url)
        let path = try XCTUnwrap(done.localPath, "\(done)")
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: path, andPath: Fixtures.committed("train.mov")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: part))
        let log = try String(contentsOf: root.appendingPathComponent("access.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("GET /slow/train.mov 206 range=bytes=\(partial)-"), log)
        let meta = try XCTUnwrap(m.cache.readMetadata(for: url))
        XCTAssertTrue(meta.complete)
        XCTAssertEqual(meta.size, 1509892)
        XCTAssertNotNil(meta.etag)
    }

    /// A cache folder that cannot be made fails the download in the system's words (FileManager's error used to
    /// reach the transfer panel as "Error Domain=NSCocoaErrorDomain Code=…"). No server: it fails before asking.
    func testCacheFolderThatCannotBeMadeFailsInPlainWords() async throws {
        let blocker = root.appendingPathComponent("not-a-folder")
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker.path, contents: Data("x".utf8)))
        let m = DownloadManager(client: RemoteHTTPClient(configuration: RemoteHTTPConfiguration()),
                                configuration: DownloadManager.Configuration(cacheRoot: blocker.appendingPathComponent("cache").path))
        let url = URL(string: "http://127.0.0.1:9/photo.jpg")!
        m.request(url)
        let failed = try await finalState(m, url)
        guard case .failed(let error, let retryable) = failed else { return XCTFail("expected a failure, got \(failed)") }
        XCTAssertEqual(error, .cache("cannot make the folder \(blocker.path)/cache: Not a directory"))
        XCTAssertEqual(reason(failed), "download cache: cannot make the folder \(blocker.path)/cache: Not a directory")
        XCTAssertFalse(retryable)
    }

    /// The file changed on the server between the interruption and the retry: If-Range no longer matches, the
    /// server sends the whole new file (200), and the download starts over instead of splicing old and new.
    func testFileChangedOnServerRestartsTheDownloadInsteadOfSplicing() async throws {
        let (m, url, port) = try await interruptedDownload()
        _ = try await finalState(m, url)
        XCTAssertGreaterThan(m.cache.fileSize(m.cache.partPath(for: url)) ?? 0, 300_000, "a partial to resume")

        // New content at the same path, with a later mtime (so a new ETag and Last-Modified).
        let served = root.appendingPathComponent("www/photos/train.mov")
        let replacement = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg")))
        try replacement.write(to: served)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(120)], ofItemAtPath: served.path)

        servers.append(try RemoteTestHarness.startNginx(root: root, port: port, rate: "4m"))
        m.retry(url)
        let done = try await finalState(m, url)
        let path = try XCTUnwrap(done.localPath, "\(done)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), replacement, "the new file, whole, not a splice")
        XCTAssertEqual(m.cache.readMetadata(for: url)?.size, UInt64(replacement.count))
        let log = try String(contentsOf: root.appendingPathComponent("access.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("GET /slow/train.mov 200"), "If-Range did not match: a full answer\n\(log)")
    }

    func testHTTPErrorsAndRedirectLoopFailWithReasons() async throws {
        let nginx = try RemoteTestHarness.startNginx(root: root)
        servers.append(nginx)
        let m = manager()
        let base = "http://127.0.0.1:\(nginx.port)"
        let missing = URL(string: base + "/photos/missing.jpg")!
        let forbidden = URL(string: base + "/forbidden/x.jpg")!
        let loop = URL(string: base + "/loop")!
        for u in [missing, forbidden, loop] { m.request(u) }
        let r404 = try await finalState(m, missing)
        let r403 = try await finalState(m, forbidden)
        let rLoop = try await finalState(m, loop)
        XCTAssertEqual(r404, .failed(.httpStatus(404, url: missing.absoluteString), retryable: false))
        XCTAssertEqual(reason(r404), "HTTP 404 Not Found for \(missing.absoluteString)", "the words the status bar always showed")
        XCTAssertTrue(reason(r403)?.contains("HTTP 403") == true)
        XCTAssertEqual(reason(rLoop), RemoteError.tooManyRedirects(5).description)
        XCTAssertFalse(FileManager.default.fileExists(atPath: m.cache.dataPath(for: missing)))
    }

    func testFaultsTimeoutResetShortBodyHugeAndSlow() async throws {
        let faults = try RemoteTestHarness.startFaultServer(root: root)
        servers.append(faults)
        let m = manager(idle: 1.5, cap: 10 << 20)
        let base = "http://127.0.0.1:\(faults.port)"
        let stall = URL(string: base + "/stall")!, reset = URL(string: base + "/reset")!
        let short = URL(string: base + "/short")!, huge = URL(string: base + "/huge")!
        let trickle = URL(string: base + "/trickle")!
        for u in [stall, reset, short, huge, trickle] { m.request(u) }

        let sStall = try await finalState(m, stall), sReset = try await finalState(m, reset)
        let sShort = try await finalState(m, short), sHuge = try await finalState(m, huge)
        XCTAssertEqual(reason(sStall), RemoteError.timedOut.description)
        let resetReason = try XCTUnwrap(reason(sReset))
        XCTAssertTrue(resetReason.contains("connection lost") || resetReason.contains("incomplete"), resetReason)
        let shortReason = try XCTUnwrap(reason(sShort))
        XCTAssertTrue(shortReason.contains("incomplete") || shortReason.contains("connection lost"), shortReason)
        XCTAssertNil(m.cache.completeFile(for: short), "a short body never becomes a complete file")
        XCTAssertEqual(sHuge,
                       .failed(.tooLarge(size: 3 << 30, cap: 10 << 20), retryable: false))
        XCTAssertNil(m.cache.fileSize(m.cache.partPath(for: huge)), "nothing kept of a refused file")
        let slow = try await finalState(m, trickle)
        XCTAssertEqual(slow.localPath.flatMap { m.cache.fileSize($0) }, 3000, "a slow but steady server is fine")
    }

    func testHostileListingFromServerAndPlayBumpsQueue() async throws {
        let faults = try RemoteTestHarness.startFaultServer(root: root)
        servers.append(faults)
        let client = RemoteHTTPClient(configuration: { var c = RemoteHTTPConfiguration(); c.netrc = Netrc(); return c }())
        let listing = try await client.list(URL(string: "http://127.0.0.1:\(faults.port)/hostile/")!)
        XCTAssertEqual(listing.entries.map(\.name), ["ok.jpg"])
        XCTAssertEqual(listing.rejected.count, 4, "\(listing.rejected)")

        // Play requests jump the queue: with one slot busy, the played URL starts before earlier requests.
        var config = DownloadManager.Configuration(cacheRoot: root.appendingPathComponent("cache2").path)
        config.maxConcurrent = 1
        let m = DownloadManager(client: client, configuration: config)
        let order = StateLog()
        m.addObserver { order.append($0, $1) }
        let base = "http://127.0.0.1:\(faults.port)"
        let urls = ["/trickle", "/missing-a", "/missing-b", "/missing-c"].map { URL(string: base + $0)! }
        urls.dropLast().forEach { m.request($0) }
        m.requestPlay(urls[3])
        for u in urls { _ = try await finalState(m, u) }
        let started = order.all.filter { if case .downloading = $0.1 { return true } else { return false } }.map(\.0)
        var firstStarts: [URL] = []
        for u in started where !firstStarts.contains(u) { firstStarts.append(u) }
        XCTAssertEqual(firstStarts.prefix(2).map(\.path), ["/trickle", "/missing-c"])
    }
}
