import Foundation
import LibraryCore
import XCTest
@testable import Library
import LibrarySources
import LivePairing
import MediaFormats
import TestSupport

/// RemoteLibrary against real servers on 127.0.0.1.
final class RemoteLibraryTests: RemoteServerTestCase {

    private func library(_ url: String) -> RemoteLibrary {
        var http = RemoteHTTPConfiguration()
        http.idleTimeout = 5
        http.netrc = Netrc()
        let client = RemoteHTTPClient(configuration: http)
        let config = DownloadManager.Configuration(cacheRoot: root.appendingPathComponent("cache").path)
        return RemoteLibrary(url: URL(string: url)!, client: client, downloads: DownloadManager(client: client, configuration: config))
    }

    private let fixtureBytes: UInt64 = 3478530 + 1509892 + 153383

    func testNginxListingPlaceholdersThenPairingFromHeadersAlone() async throws {
        let nginx = try RemoteTestHarness.startNginx(root: root)
        servers.append(nginx)
        let lib = library("http://127.0.0.1:\(nginx.port)/photos/")
        let events = EventLog()
        lib.addObserver { events.append($0) }
        let items = try await lib.load()

        guard case .listed(let placeholders, let dirs, let rejected)? = events.all.first else {
            return XCTFail("the first event is the listing with placeholders")
        }
        XCTAssertEqual(dirs.map(\.name), ["sub"])
        XCTAssertEqual(rejected, [])
        XCTAssertTrue(placeholders.allSatisfy(\.isPlaceholder))
        XCTAssertEqual(placeholders.map(\.item.displayName), ["motion-photo-v1.jpeg", "train.jpg"],
                       "the same-name movie rides with its still in the placeholder")
        XCTAssertEqual(placeholders.first { $0.item.displayName == "train.jpg" }?.item.kind, .live)

        XCTAssertFalse(items.contains(where: \.isPlaceholder))
        XCTAssertEqual(Set(items.flatMap { $0.item.files.map(\.fileName) }), ["motion-photo-v1.jpeg", "train.jpg", "train.mov"])
        XCTAssertTrue(items.allSatisfy { $0.item.files.allSatisfy { $0.size > 0 } }, "sizes come from Content-Range")
        XCTAssertLessThan(lib.probeBytes, fixtureBytes / 10, "pairing reads headers, not files (\(lib.probeBytes) bytes)")
        let log = try String(contentsOf: root.appendingPathComponent("access.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("range=bytes=0-\(ParseLimits.default.headerProbeBytes - 1)"), log)

        let still = items.first { $0.item.still?.fileName == "train.jpg" }?.item.still
        XCTAssertNotNil(still?.info.contentIdentifier, "train.jpg's identifier is read from its header range")
        let live = try XCTUnwrap(items.first { $0.item.kind == .live }, items.map { "\($0.item.kind) \($0.item.files.map { "\($0.fileName) id=\($0.info.contentIdentifier ?? "-") \($0.info.problems)" })" }.joined(separator: "; "))
        XCTAssertEqual(live.item.still?.fileName, "train.jpg")
        XCTAssertEqual(live.item.movie?.fileName, "train.mov")
        XCTAssertEqual(live.item.pairing, .contentIdentifier)
        XCTAssertTrue(log.contains("range=bytes=-"), "the movie's moov (after mdat) came from a tail request")
        XCTAssertEqual(items.first { $0.item.displayName == "motion-photo-v1.jpeg" }?.item.kind, .motion)
    }

    func testSubdirectoryIsNavigableAndJSONAndWebDAVListingsMatch() async throws {
        let nginx = try RemoteTestHarness.startNginx(root: root)
        servers.append(nginx)
        let lib = library("http://127.0.0.1:\(nginx.port)/photos/")
        try await lib.load()
        let sub = try XCTUnwrap(lib.subdirectories.first)
        let inner = try await lib.subdirectory(sub).load()
        XCTAssertEqual(inner.map(\.item.displayName), ["inner.jpeg"])

        let json = try await lib.client.list(URL(string: "http://127.0.0.1:\(nginx.port)/json/")!)
        XCTAssertEqual(json.format, .nginxJSON)
        XCTAssertEqual(json.files.map(\.name).sorted(), ["motion-photo-v1.jpeg", "train.jpg", "train.mov"])
        guard FileManager.default.fileExists(atPath: RemoteTestHarness.davModule) else {
            throw MissingRequirement.tool("libnginx-mod-http-dav-ext is not installed: PROPFIND not tested")
        }
        // GET on the dav location is refused (no autoindex): the client falls back to PROPFIND.
        let dav = try await lib.client.list(URL(string: "http://127.0.0.1:\(nginx.port)/dav/")!)
        XCTAssertEqual(dav.format, .webDAV)
        XCTAssertEqual(dav.files.map(\.name).sorted(), ["motion-photo-v1.jpeg", "train.jpg", "train.mov"])
        XCTAssertEqual(dav.files.first { $0.name == "train.mov" }?.size, 1509892)
        let explicit = try await lib.client.list(URL(string: "dav://127.0.0.1:\(nginx.port)/dav/")!)
        XCTAssertEqual(explicit.entries.count, dav.entries.count)
    }

    func testPythonServerWithoutRangeSupport() async throws {
        let python = try RemoteTestHarness.startPythonHTTPServer(root: root)
        servers.append(python)
        let lib = library("http://127.0.0.1:\(python.port)/")
        let items = try await lib.load()
        XCTAssertEqual(Set(items.flatMap { $0.item.files.map(\.fileName) }), ["motion-photo-v1.jpeg", "train.jpg", "train.mov"])
        XCTAssertEqual(lib.subdirectories.map(\.name), ["sub"])
        // Python answers 200 with whole files: each probe stops reading once its window is complete.
        XCTAssertLessThan(lib.probeBytes, fixtureBytes / 4, "\(lib.probeBytes) bytes")
    }

    func testDownloadProgressReachesCompletionAndLivePhotoBecomesPlayable() async throws {
        let nginx = try RemoteTestHarness.startNginx(root: root, rate: "1m")
        servers.append(nginx)
        let lib = library("http://127.0.0.1:\(nginx.port)/slow/")
        let events = EventLog()
        lib.addObserver { events.append($0) }
        try await lib.load()
        guard case .listed(let placeholders, _, _)? = events.all.first,
              var train = placeholders.first(where: { $0.item.displayName == "train.jpg" }) else {
            return XCTFail("no placeholder for train.jpg")
        }
        XCTAssertFalse(train.isPlayable)
        let id = lib.items.first { $0.item.kind == .live }?.id
        if let id { lib.requestPlay(id) } else {
            // Until the parsers land the paired list has no live item: drive the placeholder's two files.
            lib.downloads.requestPlay(train.stillURL!)
            lib.downloads.requestPlay(train.movieURL!)
        }
        let states = StateLog()
        lib.downloads.addObserver { states.append($0, $1) }
        try await waitUntil(seconds: 30) {
            lib.downloads.state(of: train.stillURL!).isDownloaded && lib.downloads.state(of: train.movieURL!).isDownloaded
        }
        train.stillState = lib.downloads.state(of: train.stillURL!)
        train.movieState = lib.downloads.state(of: train.movieURL!)
        XCTAssertTrue(train.isPlayable)
        XCTAssertEqual(train.fraction, 1)
        XCTAssertNotNil(train.localItem)
        let fractions = states.all.filter { $0.0 == train.stillURL }.compactMap(\.1.fraction)
        XCTAssertGreaterThan(Set(fractions).count, 3, "progress was reported along the way: \(fractions)")
        XCTAssertTrue(fractions.contains(1))
        XCTAssertTrue(states.all.contains { if case .downloading(_, _, let rate) = $0.1 { return rate > 0 } else { return false } })
        for url in [train.stillURL!, train.movieURL!] {
            let local = try XCTUnwrap(lib.downloads.localPath(for: url))
            XCTAssertTrue(local.hasPrefix(root.appendingPathComponent("cache").path), "nothing outside the cache")
            let original = root.appendingPathComponent("www/photos/" + url.lastPathComponent).path
            XCTAssertTrue(FileManager.default.contentsEqual(atPath: local, andPath: original))
        }
        let activity = lib.activity()
        XCTAssertTrue(activity.isIdle)
        let finished = try XCTUnwrap(activity.finishedAt)
        XCTAssertTrue(activity.isVisible(at: finished.addingTimeInterval(1)))
        XCTAssertFalse(activity.isVisible(at: finished.addingTimeInterval(10)))
    }
}

/// Thread-safe logs for observer callbacks.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [RemoteLibraryEvent] = []
    func append(_ e: RemoteLibraryEvent) { lock.lock(); events.append(e); lock.unlock() }
    var all: [RemoteLibraryEvent] { lock.lock(); defer { lock.unlock() }; return events }
}

final class StateLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(URL, DownloadState)] = []
    func append(_ u: URL, _ s: DownloadState) { lock.lock(); entries.append((u, s)); lock.unlock() }
    var all: [(URL, DownloadState)] { lock.lock(); defer { lock.unlock() }; return entries }
}

/// Polls `condition` until it holds or `seconds` pass (then fails the test).
func waitUntil(seconds: Double, file: StaticString = #filePath, line: UInt = #line,
               _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline {
            XCTFail("condition not met within \(seconds) s", file: file, line: line)
            throw MissingRequirement.Failure(description: "timed out after \(seconds) s")
        }
        try await Task.sleep(nanoseconds: 50_000_000)
    }
}
