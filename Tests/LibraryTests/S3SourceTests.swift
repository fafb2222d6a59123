import Foundation
import LibraryCore
import XCTest
@testable import LibrarySources
import Library
import LibraryIndex
import TestSupport

/// `s3://` against a real SeaweedFS on 127.0.0.1 (a real SigV4 check), beyond the verbs every kind is held
/// to (LibrarySourceContractTests.testS3OnSeaweedFS): paging with continuation tokens, hostile key
/// names, and S3's refusals in one sentence each. Fixtures are uploaded with curl's SigV4, never with livegrid.
final class S3SourceTests: XCTestCase {
    private static let s3 = SharedS3TestServer("livegrid-s3") { try upload($0) }
    private var server: S3TestServer { get throws { try Self.s3.server() } }

    override class func tearDown() {
        s3.stop()
        super.tearDown()
    }

    static let hostileNames = ["a b.jpg", "p+q.jpg", "100%.jpg", "café.jpg", "x.jpg"]

    private static func upload(_ server: S3TestServer) throws {
        try server.createBucket("photos")
        for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
            try server.put("photos", "lib/" + name, file: Fixtures.committed(name))
        }
        try server.put("photos", "lib/sub/inner.jpeg", file: Fixtures.committed("motion-photo-v1.jpeg"))
        for i in 0..<10 { try server.put("photos", "many/\(i).jpg", data: Data("object \(i)".utf8)) }
        try server.put("photos", "many/f1/a.jpg", data: Data("a".utf8))
        try server.put("photos", "many/f2/b.jpg", data: Data("b".utf8))
        for name in hostileNames where name != "x.jpg" { try server.put("photos", "odd/" + name, data: Data(name.utf8)) }
        try server.put("photos", "odd/x.jpg", data: Data())
        try server.put("photos", "odd/ctl\u{01}x.jpg", data: Data("control".utf8))
        try server.put(S3TestServer.publicBucket, "open/train.jpg", file: Fixtures.committed("train.jpg"))
        // One key a page (pageSize 1): train.jpg on page 2, its movie on page 3.
        for name in ["a.jpg", "train.jpg", "train.mov", "u.jpg", "z.jpg"] {
            try server.put("photos", "split/" + name, file: Fixtures.committed(name.hasPrefix("train") ? name : "motion-photo-v1.jpeg"))
        }
    }

    private func client(secret: String? = nil, unsigned: Bool = false, pageSize: Int = 1000, bucketEndpoint: String? = nil) throws -> RemoteHTTPClient {
        let server = try server
        var configuration = RemoteHTTPConfiguration()
        configuration.idleTimeout = 10
        configuration.netrc = Netrc()
        configuration.s3 = S3Settings(endpoint: URL(string: bucketEndpoint ?? server.endpoint),
                                      credentials: unsigned ? nil : S3Credentials(accessKey: server.accessKey, secretKey: secret ?? server.secretKey))
        configuration.s3.credentialSource = "the test"
        configuration.s3.pageSize = pageSize
        return RemoteHTTPClient(configuration: configuration)
    }

    private func source(_ client: RemoteHTTPClient, _ url: URL) throws -> any LibrarySource {
        let source = try XCTUnwrap(LibrarySourceTable.source(for: url, client: client))
        XCTAssertTrue(source is S3Source, "s3:// is the S3 kind in the table")
        return source
    }

    /// What S3 adds to the verbs every kind shares (LibrarySourceContractTests.testS3OnSeaweedFS): the
    /// listing's ETag and LastModified, and answers that name the s3:// URL, never the endpoint's.
    func testListingCarriesValidatorsAndAnswersNameTheS3URL() async throws {
        let client = try client()
        let directory = try XCTUnwrap(URL(string: "s3://photos/lib/"))
        let source = try source(client, directory)
        let listing = try await source.list(directory, maxEntries: 100, maxBytes: 1 << 20)
        XCTAssertEqual(listing.format, .s3)
        let movie = try XCTUnwrap(listing.files.first { $0.name == "train.mov" })
        XCTAssertNotNil(movie.etag, "the ETag feeds the cache's validator")
        XCTAssertNotNil(movie.modificationTime, "LastModified feeds the index")
        XCTAssertEqual(movie.url.absoluteString, "s3://photos/lib/train.mov")
        let entry = try XCTUnwrap(listing.files.first { $0.name == "train.jpg" })
        let head = try await source.fetch(entry.url, range: .bytes(first: 0, last: 4095), maxBytes: 4096)
        XCTAssertEqual(head.status, 206)
        XCTAssertTrue(head.rangeHonoured)
        XCTAssertEqual(head.url, entry.url, "the answer names the s3:// URL, not the endpoint's")
    }

    func testPagesAreFollowedWithContinuationTokens() async throws {
        let client = try client(pageSize: 3)
        let directory = try XCTUnwrap(URL(string: "s3://photos/many/"))
        let source = try source(client, directory)
        let listing = try await source.list(directory, maxEntries: 100, maxBytes: 1 << 20)
        XCTAssertEqual(Set(listing.files.map(\.name)), Set((0..<10).map { "\($0).jpg" }), "all pages of 3 keys")
        XCTAssertEqual(Set(listing.directories.map(\.name)), ["f1", "f2"])
        XCTAssertFalse(listing.truncated)
        let capped = try await source.list(directory, maxEntries: 5, maxBytes: 1 << 20)
        XCTAssertEqual(capped.entries.count, 5)
        XCTAssertTrue(capped.truncated, "pages stop at max_entries, and the listing says it was cut")
    }

    /// issue 30.4: the tree below a prefix in one walk without `delimiter`, followed over pages (3 keys each),
    /// its keys grouped by relative folder with URLs below it, `maxEntries` counted over every folder.
    func testTreeIsOneWalkGroupedByFolderUnderTheCap() async throws {
        let client = try client(pageSize: 3)
        let directory = try XCTUnwrap(URL(string: "s3://photos/many/"))
        let source = try source(client, directory)
        let listed = try await source.listTree(directory, maxEntries: 100, maxBytes: 1 << 20)
        let tree = try XCTUnwrap(listed, "S3 lists a tree in one walk")
        XCTAssertEqual(tree.folders.map(\.path), ["", "f1/", "f2/"])
        XCTAssertEqual(Set(tree.folders[0].listing.files.map(\.name)), Set((0..<10).map { "\($0).jpg" }), "all 4 pages")
        XCTAssertEqual(tree.folders[1].listing.files.map(\.url.absoluteString), ["s3://photos/many/f1/a.jpg"])
        XCTAssertEqual(tree.folders[2].listing.baseURL.absoluteString, "s3://photos/many/f2/")
        XCTAssertTrue(tree.folders.allSatisfy { $0.listing.directories.isEmpty })
        XCTAssertFalse(tree.truncated)
        let cappedListing = try await source.listTree(directory, maxEntries: 11, maxBytes: 1 << 20)
        let capped = try XCTUnwrap(cappedListing)
        XCTAssertEqual(capped.entryCount, 11)
        XCTAssertTrue(capped.truncated, "the cap counts keys of every folder")
    }

    /// The browser's library is given a paged listing's entries as the pages arrive, each time they have
    /// doubled (pages 1, 2 and 4 of 5), before the whole listing; a still whose movie comes on the next page
    /// is shown alone, then as the pair.
    func testPagesReachTheBrowsersLibraryAsTheyArriveAndASplitPairIsUpgraded() async throws {
        let client = try client(pageSize: 1)
        let cache = try Fixtures.makeTemporaryDirectory("livegrid-s3-pages")
        defer { try? FileManager.default.removeItem(at: cache) }   // a leftover only costs /tmp space
        let library = RemoteLibrary(url: try XCTUnwrap(URL(string: "s3://photos/split/")), client: client, cacheRoot: cache.path)
        library.probePolicy = .onDemand
        let events = EventLog()
        library.addObserver { events.append($0) }
        try await library.load()
        var partials: [[RemoteItem]] = []
        var listedAt: Int?
        for (index, event) in events.all.enumerated() {
            if case .listedSoFar(let items, _) = event { partials.append(items) }
            if case .listed = event, listedAt == nil { listedAt = index }
        }
        XCTAssertEqual(partials.map { $0.map(\.item.displayName) },
                       [["a.jpg"], ["a.jpg", "train.jpg"], ["a.jpg", "train.jpg", "u.jpg"]], "after pages 1, 2 and 4 of 5")
        XCTAssertEqual(partials.count, listedAt, "every page's event comes before the whole listing")
        guard partials.count == 3 else { return }
        XCTAssertEqual(partials[1].first { $0.item.displayName == "train.jpg" }?.item.kind, .still, "its movie is on page 3")
        let upgraded = try XCTUnwrap(partials[2].first { $0.item.displayName == "train.jpg" })
        XCTAssertEqual(upgraded.item.kind, .live, "the movie from page 3 joined its still")
        XCTAssertEqual(upgraded.item.movie?.path, "train.mov")
        XCTAssertEqual(library.items.map(\.item.displayName), ["a.jpg", "train.jpg", "u.jpg", "z.jpg"])
        XCTAssertEqual(library.items.first { $0.item.displayName == "train.jpg" }?.item.kind, .live)
    }

    /// Issue 30 item 4: the listing's size and ETag key what the objects' bytes told, in the library index. A
    /// second `scan` of an unchanged prefix sends the listing and nothing else; an object overwritten since (a
    /// new ETag) is the only one read again, and what it now is replaces what it was. Counted by the recording
    /// proxy in front of SeaweedFS.
    func testReopeningAPrefixProbesOnlyObjectsWhoseETagChanged() async throws {
        let server = try server
        for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
            try server.put("photos", "reopen/" + name, file: Fixtures.committed(name))
        }
        let proxy = try S3RecordingProxy(upstreamPort: server.port, directory: server.directory)
        defer { proxy.stop() }
        let client = try client(bucketEndpoint: "http://127.0.0.1:\(proxy.port)")
        let work = try Fixtures.makeTemporaryDirectory("livegrid-s3-reopen")
        defer { try? FileManager.default.removeItem(at: work) }   // a leftover only costs /tmp space
        let memory = RemoteProbeMemory(index: LazyLibraryIndex(path: work.path + "/index.sqlite"))
        let directory = try XCTUnwrap(URL(string: "s3://photos/reopen/"))
        func scan() async throws -> (items: [RemoteItem], requests: [S3RecordingProxy.Request]) {
            let before = proxy.requests.count
            let library = RemoteLibrary(url: directory, client: client, cacheRoot: work.path + "/cache")
            library.probeMemory = memory
            let items = try await library.load()
            return (items, Array(proxy.requests.dropFirst(before)))
        }
        func kinds(_ items: [RemoteItem]) -> [String] { items.map { "\($0.item.displayName) \($0.item.kind)" }.sorted() }

        let first = try await scan()
        XCTAssertEqual(kinds(first.items), ["motion-photo-v1.jpeg motion", "train.jpg live"])
        XCTAssertEqual(Set(first.requests.filter { !$0.isListing }.map(\.path)),
                       ["/photos/reopen/train.jpg", "/photos/reopen/train.mov", "/photos/reopen/motion-photo-v1.jpeg"],
                       "the first scan reads every object's head")

        let second = try await scan()
        XCTAssertEqual(second.requests.map(\.isListing), [true], "unchanged objects: the listing only, \(second.requests.map(\.path))")
        XCTAssertEqual(kinds(second.items), kinds(first.items))
        let live = try XCTUnwrap(second.items.first { $0.item.kind == .live })
        XCTAssertEqual(live.item.pairing, first.items.first { $0.item.kind == .live }?.item.pairing,
                       "paired by content identifier from the stored facts, as when read")
        XCTAssertNotNil(live.item.still?.info.contentIdentifier)

        // Overwritten with other bytes: a new ETag (and size); only that object is read again.
        try server.put("photos", "reopen/motion-photo-v1.jpeg", file: Fixtures.committed("train.jpg"))
        let third = try await scan()
        XCTAssertEqual(Set(third.requests.filter { !$0.isListing }.map(\.path)), ["/photos/reopen/motion-photo-v1.jpeg"],
                       "only the changed object is read")
        XCTAssertEqual(third.requests.filter(\.isListing).count, 1)
        XCTAssertEqual(kinds(third.items), ["motion-photo-v1.jpeg still", "train.jpg live"], "what it is now, not what it was")

        let fourth = try await scan()
        XCTAssertEqual(fourth.requests.map(\.isListing), [true], "the new version was kept")
    }

    /// A deleted object's stored probe goes once a complete listing of its prefix no longer shows it (s3d); the
    /// other objects' rows and the subprefix's stay; a listing cut at `max_entries`, or a folder of a cut tree,
    /// prunes nothing. Objects deleted from SeaweedFS with curl's SigV4.
    func testAScanForgetsTheRowsOfDeletedObjectsOnlyAfterACompleteListing() async throws {
        let server = try server
        for name in ["a.jpg", "b.jpg", "d.jpg", "sub/c.jpg"] {
            try server.put("photos", "prune/" + name, file: Fixtures.committed("motion-photo-v1.jpeg"))
        }
        let client = try client()
        let work = try Fixtures.makeTemporaryDirectory("livegrid-s3-prune")
        defer { try? FileManager.default.removeItem(at: work) }   // a leftover only costs /tmp space
        let lazy = LazyLibraryIndex(path: work.path + "/index.sqlite")
        let memory = RemoteProbeMemory(index: lazy)
        func scan(_ prefix: String, maxEntries: Int = 1000) async throws {
            let library = RemoteLibrary(url: try XCTUnwrap(URL(string: "s3://photos/" + prefix)), client: client,
                                        cacheRoot: work.path + "/cache")
            library.probeMemory = memory
            library.maxEntries = maxEntries
            try await library.load()
        }
        func rows() -> [String] { lazy.value.remoteProbeLocations.filter { $0.hasPrefix("s3://photos/prune/") } }
        try await scan("prune/")
        try await scan("prune/sub/")
        XCTAssertEqual(rows(), ["s3://photos/prune/a.jpg", "s3://photos/prune/b.jpg", "s3://photos/prune/d.jpg",
                                "s3://photos/prune/sub/c.jpg"])

        let deleted = try server.curl(["-X", "DELETE", "\(server.endpoint)/photos/prune/b.jpg"])
        XCTAssertEqual(deleted.status, 204, deleted.body)
        try await scan("prune/", maxEntries: 1)
        XCTAssertEqual(rows().count, 4, "a cut listing (a.jpg kept, d.jpg and sub/ beyond the cut) prunes nothing")

        // The tree of `scan -r`: a cut tree's folders are loaded as not complete.
        let directory = try XCTUnwrap(URL(string: "s3://photos/prune/"))
        let cutListing = try await source(client, directory).listTree(directory, maxEntries: 1, maxBytes: 1 << 20)
        let cut = try XCTUnwrap(cutListing)
        XCTAssertTrue(cut.truncated)
        let treeLibrary = RemoteLibrary(url: directory, client: client, cacheRoot: work.path + "/cache")
        treeLibrary.probeMemory = memory
        await treeLibrary.load(listed: cut.folders[0].listing, complete: !cut.truncated)
        XCTAssertEqual(rows().count, 4, "a folder of a cut tree prunes nothing")

        try await scan("prune/")
        XCTAssertEqual(rows(), ["s3://photos/prune/a.jpg", "s3://photos/prune/d.jpg", "s3://photos/prune/sub/c.jpg"],
                       "the deleted object's row is gone, the others and the subprefix's stay")
        let deletedToo = try server.curl(["-X", "DELETE", "\(server.endpoint)/photos/prune/d.jpg"])
        XCTAssertEqual(deletedToo.status, 204, deletedToo.body)
        let wholeListing = try await source(client, directory).listTree(directory, maxEntries: 100, maxBytes: 1 << 20)
        let whole = try XCTUnwrap(wholeListing)
        XCTAssertFalse(whole.truncated)
        let root = try XCTUnwrap(whole.folders.first { $0.path.isEmpty })
        await treeLibrary.load(listed: root.listing, complete: !whole.truncated)
        XCTAssertEqual(rows(), ["s3://photos/prune/a.jpg", "s3://photos/prune/sub/c.jpg"], "a whole tree's folder prunes")
    }

    /// The browser's previews (the Exif thumbnail from a head range) are remembered the same way: reopening the
    /// prefix shows them from the cache with no request but the listing; an overwritten object is read again.
    func testReopenedPrefixShowsRememberedPreviewsWithoutRequests() async throws {
        let server = try server
        try server.put("photos", "previews/camera.jpg", file: Fixtures.committed("train.jpg"))
        try server.put("photos", "previews/pixel.jpg", file: Fixtures.committed("motion-photo-v1.jpeg"))
        let proxy = try S3RecordingProxy(upstreamPort: server.port, directory: server.directory)
        defer { proxy.stop() }
        let client = try client(bucketEndpoint: "http://127.0.0.1:\(proxy.port)")
        let work = try Fixtures.makeTemporaryDirectory("livegrid-s3-previews")
        defer { try? FileManager.default.removeItem(at: work) }   // a leftover only costs /tmp space
        let memory = RemoteProbeMemory(index: LazyLibraryIndex(path: work.path + "/index.sqlite"))
        let directory = try XCTUnwrap(URL(string: "s3://photos/previews/"))
        func open() async throws -> (previews: [String: RemotePreview], requests: [S3RecordingProxy.Request]) {
            let before = proxy.requests.count
            let library = RemoteLibrary(url: directory, client: client, cacheRoot: work.path + "/cache")
            library.probePolicy = .onDemand
            library.probeMemory = memory
            let items = try await library.load()
            for item in items { library.requestPreview(item.id) }
            try await waitUntil(seconds: 30) {
                library.items.allSatisfy { $0.preview.isSettled && ($0.preview.preview.map { $0.replacesStill != nil } ?? true) }
            }
            var previews: [String: RemotePreview] = [:]
            for item in library.items { previews[item.item.displayName] = item.preview.preview }
            return (previews, Array(proxy.requests.dropFirst(before)))
        }

        let first = try await open()
        XCTAssertEqual(first.previews["camera.jpg"]?.replacesStill, true)
        XCTAssertEqual(first.previews["pixel.jpg"]?.replacesStill, false, "a Motion Photo's XMP keeps its still")
        XCTAssertGreaterThan(first.requests.filter { !$0.isListing }.count, 0)

        let second = try await open()
        XCTAssertEqual(second.requests.map(\.isListing), [true], "remembered previews: the listing only, \(second.requests.map(\.path))")
        let camera = try XCTUnwrap(second.previews["camera.jpg"])
        XCTAssertEqual(camera.replacesStill, true)
        XCTAssertEqual(camera.info.pixelWidth, 160)
        XCTAssertEqual(camera.info.orientation, first.previews["camera.jpg"]?.info.orientation)
        XCTAssertEqual(camera.bytesFetched, 0)
        XCTAssertEqual(second.previews["pixel.jpg"]?.replacesStill, false)
        XCTAssertTrue(FileManager.default.fileExists(atPath: camera.path))

        try server.put("photos", "previews/pixel.jpg", file: Fixtures.committed("train.jpg"))
        let third = try await open()
        XCTAssertEqual(Set(third.requests.filter { !$0.isListing }.map(\.path)), ["/photos/previews/pixel.jpg"],
                       "only the overwritten object is read again")
        XCTAssertEqual(third.previews["pixel.jpg"]?.replacesStill, true, "its new bytes: a plain camera JPEG")
    }

    /// A bucket in another region, answered as AWS answers: a listing signed for us-east-1 gets 301
    /// PermanentRedirect with `x-amz-bucket-region`, a read gets 400 AuthorizationHeaderMalformed naming the
    /// region. Each is followed once, signed for the bucket's region (SeaweedFS behind the proxy checks that
    /// signature), and later requests are signed for it from the start.
    func testARegionRedirectIsFollowedOnceWithTheBucketsRegion() async throws {
        let server = try server
        let listingProxy = try S3RecordingProxy(upstreamPort: server.port, directory: server.directory, bucketRegion: "eu-central-1")
        defer { listingProxy.stop() }
        let directory = try XCTUnwrap(URL(string: "s3://photos/lib/"))
        let client = try client(bucketEndpoint: "http://127.0.0.1:\(listingProxy.port)")
        XCTAssertEqual(client.configuration.s3.region, "us-east-1")
        let listing = try await source(client, directory).list(directory, maxEntries: 100, maxBytes: 1 << 20)
        XCTAssertEqual(Set(listing.files.map(\.name)), ["train.jpg", "train.mov", "motion-photo-v1.jpeg"])
        let object = try XCTUnwrap(listing.files.first { $0.name == "train.jpg" }).url
        let head = try await source(client, object).fetch(object, range: .bytes(first: 0, last: 1), maxBytes: 2)
        XCTAssertEqual(head.body, [0xFF, 0xD8])
        let answered = listingProxy.requests.map { "\($0.status) \($0.authorization?.contains("/eu-central-1/") == true ? "eu" : "us")" }
        XCTAssertEqual(answered, ["301 us", "200 eu", "206 eu"], "one redirect, then the bucket's region: \(answered)")

        // A read first: the 400 that names the region is followed too.
        let readProxy = try S3RecordingProxy(upstreamPort: server.port, directory: server.directory, bucketRegion: "ap-southeast-2")
        defer { readProxy.stop() }
        let reader = try self.client(bucketEndpoint: "http://127.0.0.1:\(readProxy.port)")
        let piece = try await source(reader, object).fetch(object, range: .bytes(first: 0, last: 1), maxBytes: 2)
        XCTAssertEqual(piece.body, [0xFF, 0xD8])
        // The ranged read's 400, the same request again for its error document (a failed read asks once for
        // the reason), then the read signed for the bucket's region.
        XCTAssertEqual(readProxy.requests.map(\.status), [400, 400, 206])
        XCTAssertTrue(readProxy.requests.last?.authorization?.contains("/ap-southeast-2/") == true)
    }

    /// Whole-object downloads (the hold's movie, export's GETs) follow the region redirect as the listing and the
    /// ranged reads do, and a path-style endpoint serving buckets of two regions signs each bucket for its own
    /// region: two downloads at once, then two requests made one after the other and sent after both (with one
    /// signing per host, the first went out signed for the second's region).
    func testWholeDownloadsFollowTheRegionRedirectAndEachBucketKeepsItsRegion() async throws {
        let server = try server
        let proxy = try S3RecordingProxy(upstreamPort: server.port, directory: server.directory,
                                         bucketRegions: ["photos": "eu-central-1", S3TestServer.publicBucket: "ap-southeast-2"])
        defer { proxy.stop() }
        let client = try client(bucketEndpoint: "http://127.0.0.1:\(proxy.port)")
        let work = try Fixtures.makeTemporaryDirectory("livegrid-s3-whole-region")
        defer { try? FileManager.default.removeItem(at: work) }   // a leftover only costs /tmp space
        let downloads = DownloadManager(client: client, configuration: .init(cacheRoot: work.path))
        let movie = try XCTUnwrap(URL(string: "s3://photos/lib/train.mov"))
        let still = try XCTUnwrap(URL(string: "s3://\(S3TestServer.publicBucket)/open/train.jpg"))
        downloads.request(movie, priority: .play)
        downloads.request(still, priority: .play)
        try await waitUntil(seconds: 30) {
            [movie, still].allSatisfy { url in
                switch downloads.state(of: url) {
                case .downloaded, .failed: return true
                default: return false
                }
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: XCTUnwrap(downloads.localPath(for: movie), "\(downloads.state(of: movie))"))),
                       try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.mov"))), "the movie, byte for byte")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: XCTUnwrap(downloads.localPath(for: still), "\(downloads.state(of: still))"))),
                       try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg"))), "the still, byte for byte")
        func answered(_ bucket: String) -> [String] {
            proxy.requests.filter { $0.path.hasPrefix("/\(bucket)/") }.map { request in
                let region = ["eu-central-1", "ap-southeast-2", "us-east-1"].first { request.authorization?.contains("/\($0)/") == true }
                return "\(request.status) \(region ?? "?")"
            }
        }
        XCTAssertEqual(answered("photos"), ["400 us-east-1", "200 eu-central-1"], "one redirect, then the bucket's region")
        XCTAssertEqual(answered(S3TestServer.publicBucket), ["400 us-east-1", "200 ap-southeast-2"])

        // Requests made for each bucket in turn and sent only then: each is signed for its own bucket's region.
        let source = try source(client, movie) as? S3Source
        let first = try XCTUnwrap(source).request(for: movie, method: "GET", range: .bytes(first: 0, last: 3))
        let second = try XCTUnwrap(source).request(for: still, method: "GET", range: .bytes(first: 0, last: 1))
        let before = proxy.requests.count
        let replies = [try await S3Exchange.perform(first, client: client, maxBytes: 16),
                       try await S3Exchange.perform(second, client: client, maxBytes: 16)]
        XCTAssertEqual(replies.map(\.status), [206, 206])
        XCTAssertEqual(Array(proxy.requests.dropFirst(before)).map { $0.authorization?.contains("/eu-central-1/") == true },
                       [true, false], "the movie's bucket signed for eu-central-1, the still's not")
    }

    func testHostileKeyNamesAreListedReadAndEscaped() async throws {
        let client = try client()
        let directory = try XCTUnwrap(URL(string: "s3://photos/odd/"))
        let source = try source(client, directory)
        let listing = try await source.list(directory, maxEntries: 100, maxBytes: 1 << 20)
        XCTAssertEqual(Set(listing.files.map(\.name)), Set(Self.hostileNames))
        XCTAssertEqual(listing.rejected.count, 1, "\(listing.rejected)")
        let refused = try XCTUnwrap(listing.rejected.first)
        XCTAssertTrue(refused.description.contains("\\u{01}"), "the control character is shown escaped: \(refused)")
        XCTAssertFalse(refused.description.contains("\u{01}"))
        for entry in listing.files where entry.name != "x.jpg" {
            // Each name signed and fetched: the key's encoding on the wire is the one SigV4 signs.
            let whole = try await fetchWhole(source, entry.url)
            XCTAssertEqual(String(decoding: whole, as: UTF8.self), entry.name)
            let head = try await source.fetch(entry.url, range: .bytes(first: 0, last: 1), maxBytes: 2)
            XCTAssertEqual(Data(head.body), Data(entry.name.utf8).prefix(2))
        }
        let empty = try XCTUnwrap(listing.files.first { $0.name == "x.jpg" })
        XCTAssertEqual(empty.size, 0)
        let wholeEmpty = try await fetchWhole(source, empty.url)
        XCTAssertTrue(wholeEmpty.isEmpty, "a zero-byte object is read as empty")
    }

    func testRefusalsAreOneSentenceEach() async throws {
        let server = try server
        let directory = try XCTUnwrap(URL(string: "s3://photos/lib/"))
        let wrong = try client(secret: "not-the-secret")
        await assertRefusal(try source(wrong, directory), directory, contains: "refused the signature",
                            notContaining: "not-the-secret")
        let missing = try XCTUnwrap(URL(string: "s3://no-such-bucket/"))
        await assertRefusal(try source(try client(), missing), missing, contains: "there is no bucket 'no-such-bucket'")
        let anonymous = try client(unsigned: true)
        await assertRefusal(try source(anonymous, directory), directory, contains: "refuses unsigned requests")
        // The public bucket lets anyone list and read (SeaweedFS's anonymous identity).
        let open = try XCTUnwrap(URL(string: "s3://\(S3TestServer.publicBucket)/open/"))
        let listing = try await source(anonymous, open).list(open, maxEntries: 10, maxBytes: 1 << 20)
        XCTAssertEqual(listing.files.map(\.name), ["train.jpg"])
        let head = try await source(anonymous, open).fetch(try XCTUnwrap(listing.files.first).url,
                                                           range: .bytes(first: 0, last: 1), maxBytes: 2)
        XCTAssertEqual(head.body, [0xFF, 0xD8])
        // A ranged read refused: the same sentence, not "HTTP 403".
        let object = try XCTUnwrap(URL(string: "s3://photos/lib/train.jpg"))
        do {
            _ = try await source(wrong, object).fetch(object, range: .bytes(first: 0, last: 9), maxBytes: 10)
            XCTFail("a wrong secret reads nothing")
        } catch let error as RemoteError {
            XCTAssertTrue(error.description.contains("signature"), error.description)
        }
        // An endpoint that is not S3: a web server's 404 page.
        try FileManager.default.createDirectory(at: server.directory.appendingPathComponent("www/photos"), withIntermediateDirectories: true)
        let web = try RemoteTestHarness.startPythonHTTPServer(root: server.directory)
        defer { web.stop() }
        let notS3 = try client(bucketEndpoint: "http://127.0.0.1:\(web.port)")
        await assertRefusal(try source(notS3, directory), directory, contains: "not S3's XML")
    }

    private func assertRefusal(_ source: any LibrarySource, _ directory: URL, contains sentence: String,
                               notContaining secret: String? = nil, line: UInt = #line) async {
        do {
            _ = try await source.list(directory, maxEntries: 10, maxBytes: 1 << 20)
            XCTFail("listed \(directory) anyway", line: line)
        } catch let error as RemoteError {
            XCTAssertTrue(error.description.contains(sentence), "\(error.description)", line: line)
            if let secret { XCTAssertFalse(error.description.contains(secret), "the secret never shows", line: line) }
            XCTAssertFalse(error.description.contains("\n"), "one sentence", line: line)
        } catch {
            XCTFail("\(error)", line: line)
        }
    }

    private func fetchWhole(_ source: any LibrarySource, _ url: URL) async throws -> Data {
        let collected = S3Collected()
        return try await withCheckedThrowingContinuation { continuation in
            do {
                _ = try source.fetchWhole(url, from: 0, validator: nil, handler: RemoteTransferHandler(
                    onResponse: { $0.statusCode == 200 ? nil : .httpStatus($0.statusCode, url: url.absoluteString) },
                    onData: { collected.append($0); return nil },
                    onComplete: { error in
                        if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: collected.data) }
                    }))
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}

/// The settings read as the AWS tools read them, and the wire URLs (no server needed).
final class S3SettingsTests: XCTestCase {
    func testEnvironmentKeysWinOverTheProfileAndRegionFallsBack() throws {
        let settings = try S3Settings.resolve(environment: ["AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK",
                                                            "AWS_SESSION_TOKEN": "TOK", "AWS_DEFAULT_REGION": "eu-west-1",
                                                            "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent", "AWS_CONFIG_FILE": "/nonexistent"],
                                              home: "/nonexistent")
        XCTAssertEqual(settings.credentials, S3Credentials(accessKey: "AK", secretKey: "SK", sessionToken: "TOK"))
        XCTAssertEqual(settings.region, "eu-west-1")
        XCTAssertNil(settings.endpoint)
        XCTAssertFalse(settings.description.contains("SK"), "the secret never shows: \(settings)")
    }

    func testProfileFilesAsTheAWSCLIReadsThem() throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-s3-profile")
        defer { try? FileManager.default.removeItem(at: directory) }   // a leftover only costs /tmp space
        let credentials = directory.appendingPathComponent("credentials").path
        let config = directory.appendingPathComponent("config").path
        try "[default]\naws_access_key_id = DEF\naws_secret_access_key = defsecret\n\n[work]\naws_access_key_id=WORK\naws_secret_access_key = worksecret\n"
            .write(toFile: credentials, atomically: true, encoding: .utf8)
        try "# comment\n[profile work]\nregion = eu-central-003\nendpoint_url = https://s3.eu-central-003.backblazeb2.com\ns3 =\n  addressing_style = path\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let environment = ["AWS_SHARED_CREDENTIALS_FILE": credentials, "AWS_CONFIG_FILE": config]
        let work = try S3Settings.resolve(environment: environment.merging(["AWS_PROFILE": "work"]) { $1 }, home: nil)
        XCTAssertEqual(work.credentials?.accessKey, "WORK")
        XCTAssertEqual(work.region, "eu-central-003")
        XCTAssertEqual(work.endpoint?.absoluteString, "https://s3.eu-central-003.backblazeb2.com")
        let fallback = try S3Settings.resolve(environment: environment, home: nil)
        XCTAssertEqual(fallback.credentials?.accessKey, "DEF")
        XCTAssertEqual(fallback.region, "us-east-1")
        let overridden = try S3Settings.resolve(environment: environment.merging(["AWS_ENDPOINT_URL": "http://127.0.0.1:9000"]) { $1 },
                                                home: nil, endpoint: "http://127.0.0.1:1234", profile: "work")
        XCTAssertEqual(overridden.endpoint?.absoluteString, "http://127.0.0.1:1234", "--endpoint wins")
        XCTAssertThrowsError(try S3Settings.resolve(environment: environment, home: nil, profile: "absent")) { error in
            XCTAssertTrue("\(error)".contains("profile 'absent'"), "\(error)")
        }
        let unsigned = try S3Settings.resolve(environment: environment, home: nil, unsigned: true)
        XCTAssertNil(unsigned.credentials, "--no-sign-request reads no credentials")
    }

    func testWireURLsPathStyleVirtualHostedAndSortedEncodedQuery() throws {
        var settings = S3Settings(region: "eu-west-1")
        let aws = try XCTUnwrap(S3Address.wireURL(bucket: "photos", key: "2024/a b+c.jpg", query: [], settings: settings))
        XCTAssertEqual(aws.absoluteString, "https://photos.s3.eu-west-1.amazonaws.com/2024/a%20b%2Bc.jpg")
        let dotted = try XCTUnwrap(S3Address.wireURL(bucket: "my.photos", key: "k", query: [], settings: settings))
        XCTAssertEqual(dotted.absoluteString, "https://s3.eu-west-1.amazonaws.com/my.photos/k")
        settings.endpoint = URL(string: "http://127.0.0.1:8333")
        let list = try XCTUnwrap(S3Address.wireURL(bucket: "photos", key: "",
                                                   query: [("prefix", "2024/"), ("list-type", "2"), ("delimiter", "/")], settings: settings))
        XCTAssertEqual(list.absoluteString, "http://127.0.0.1:8333/photos/?delimiter=%2F&list-type=2&prefix=2024%2F",
                       "sorted and percent-encoded before libcurl signs it")
    }
}

// unchecked: appended to by one transfer's callbacks, in order, and read after its completion.
private final class S3Collected: @unchecked Sendable {
    var data = Data()
    func append(_ piece: Data) { data.append(piece) }
}
