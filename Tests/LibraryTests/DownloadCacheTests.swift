import Foundation
import LibraryCore
import XCTest
import LibrarySources
import TestSupport

/// The download cache's size limit: least recently used entries go, active downloads never do.
final class DownloadCacheTests: RemoteServerTestCase {

    private var cacheRoot: String { root.appendingPathComponent("cache").path }

    /// A complete cached file of `bytes` bytes for `url`, last used `age` seconds ago.
    @discardableResult
    private func seed(_ cache: DownloadCache, _ url: URL, bytes: Int, age: TimeInterval) throws -> String {
        try cache.prepareDirectory(for: url)
        let path = cache.dataPath(for: url)
        try Data(repeating: 7, count: bytes).write(to: URL(fileURLWithPath: path))
        try cache.writeMetadata(DownloadMetadata(url: url.absoluteString, size: UInt64(bytes), etag: nil,
                                                 lastModified: nil, complete: true), for: url)
        let when = timespec(tv_sec: time(nil) - Int(age), tv_nsec: 0)
        for file in [path, cache.metadataPath(for: url)] {
            var times = [when, when]
            XCTAssertEqual(utimensat(AT_FDCWD, file, &times, 0), 0)
        }
        return path
    }

    func testEvictionRemovesLeastRecentlyUsedFirstAndSparesProtectedEntries() throws {
        let urls = ["a", "b", "c", "d"].map { URL(string: "http://photos.example/\($0).jpg")! }
        let probe = DownloadCache(root: cacheRoot)
        for (i, url) in urls.enumerated() { try seed(probe, url, bytes: 1000, age: Double(4 - i) * 3600) }  // a oldest
        let stranger = cacheRoot + "/not-a-cache-entry"
        try FileManager.default.createDirectory(atPath: stranger, withIntermediateDirectories: true)
        try Data(repeating: 1, count: 50_000).write(to: URL(fileURLWithPath: stranger + "/keep.bin"))
        let total = probe.totalBytes()
        let entry = total / 4

        // Room for three entries: the oldest (a) goes.
        let cache = DownloadCache(root: cacheRoot, sizeLimit: total - 1)
        let first = cache.evict { _ in false }
        XCTAssertEqual(first.removedKeys, [DownloadCache.key(for: urls[0])])
        XCTAssertEqual(first.bytesBefore, total)
        XCTAssertEqual(first.bytesAfter, total - entry)
        XCTAssertNil(cache.completeFile(for: urls[0]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.directory(for: urls[0])))
        XCTAssertTrue(FileManager.default.fileExists(atPath: stranger + "/keep.bin"), "only cache entries are evicted")

        // Room for one: b is protected (downloading), c was just used, so d goes, then... nothing else may.
        cache.markUsed(urls[2])
        let small = DownloadCache(root: cacheRoot, sizeLimit: entry)
        let second = small.evict { $0 == DownloadCache.key(for: urls[1]) }
        XCTAssertEqual(second.removedKeys, [DownloadCache.key(for: urls[3]), DownloadCache.key(for: urls[2])])
        XCTAssertNotNil(small.completeFile(for: urls[1]), "a protected entry stays even above the limit")
        XCTAssertEqual(small.totalBytes(), entry)

        // Under the limit: nothing happens.
        XCTAssertEqual(small.evict { _ in false }.removedKeys, [])
    }

    func testManagerEvictsAtStartAndAfterADownloadButNeverAnActiveOne() async throws {
        let nginx = try RemoteTestHarness.startNginx(root: root, rate: "400k")
        servers.append(nginx)
        let seedCache = DownloadCache(root: cacheRoot)
        let oldest = URL(string: "http://photos.example/oldest.mov")!
        let older = URL(string: "http://photos.example/older.mov")!
        try seed(seedCache, oldest, bytes: 2_000_000, age: 3 * 86400)
        try seed(seedCache, older, bytes: 2_000_000, age: 2 * 86400)

        var http = RemoteHTTPConfiguration()
        http.netrc = Netrc()
        var config = DownloadManager.Configuration(cacheRoot: cacheRoot)
        config.cacheSizeLimit = 3_000_000
        let m = DownloadManager(client: RemoteHTTPClient(configuration: http), configuration: config)
        // At start: 4 MB > 3 MB, the oldest goes.
        try await waitUntil(seconds: 10) { m.cache.completeFile(for: oldest) == nil }
        XCTAssertNotNil(m.cache.completeFile(for: older))

        // While train.mov (1.5 MB) downloads slowly, an eviction pass may not touch its partial file.
        let movie = URL(string: "http://127.0.0.1:\(nginx.port)/slow/train.mov")!
        m.request(movie)
        try await waitUntil(seconds: 10) {
            if case .downloading(let bytes, _, _) = m.state(of: movie) { return bytes > 100_000 } else { return false }
        }
        let during = m.evictCache()
        XCTAssertFalse(during.removedKeys.contains(DownloadCache.key(for: movie)))
        XCTAssertNotNil(m.cache.fileSize(m.cache.partPath(for: movie)), "the active partial file stays")

        // After it completes: 2 MB + 1.5 MB > 3 MB, so the older entry goes and the fresh download stays.
        try await waitUntil(seconds: 20) { m.state(of: movie).isDownloaded }
        // The pass removes an entry's metadata before its data file: wait for the whole entry to be gone.
        try await waitUntil(seconds: 10) { m.cache.completeFile(for: older) == nil && m.cache.totalBytes() <= 3_000_000 }
        let path = try XCTUnwrap(m.localPath(for: movie))
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: path, andPath: Fixtures.committed("train.mov")))
        XCTAssertLessThanOrEqual(m.cache.totalBytes(), 3_000_000)
    }
}
