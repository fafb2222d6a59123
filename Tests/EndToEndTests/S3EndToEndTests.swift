import Foundation
import Library
import LibraryCore
import LibraryIndex
import TestSupport
import XCTest

/// `livegrid s3://…` against a real SeaweedFS on 127.0.0.1: `scan` pairs a Live Photo inside a bucket, the
/// credentials are read as the AWS tools read them, each refusal is one sentence on stderr, and the browser
/// in a real terminal (tmux) shows the LIVE badge and plays on hold. The secret never reaches stderr, the
/// screen or the download cache.
final class S3EndToEndTests: XCTestCase {
    private static let s3 = SharedS3TestServer("livegrid-s3-e2e") { server in
        try server.createBucket("photos")
        for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
            try server.put("photos", "lib/" + name, file: Fixtures.committed(name))
            try server.put(S3TestServer.publicBucket, "lib/" + name, file: Fixtures.committed(name))
        }
        try server.put("photos", "lib/sub/inner.jpeg", file: Fixtures.committed("motion-photo-v1.jpeg"))
        // Two nested prefixes; train.jpg's movie (same content identifier) only in a/, another train.jpg in a/b/.
        try server.put("photos", "tree/top.jpeg", file: Fixtures.committed("motion-photo-v1.jpeg"))
        for name in ["train.jpg", "train.mov"] { try server.put("photos", "tree/a/" + name, file: Fixtures.committed(name)) }
        try server.put("photos", "tree/a/b/train.jpg", file: Fixtures.committed("train.jpg"))
        try server.put("photos", "tree/a/b/inner.jpeg", file: Fixtures.committed("motion-photo-v1.jpeg"))
    }
    private var server: S3TestServer { get throws { try Self.s3.server() } }

    override class func tearDown() {
        s3.stop()
        super.tearDown()
    }

    /// A private HOME and cache per run, no AWS settings from the machine running the tests.
    /// Homes made by this test, removed when it ends.
    private var homes: [URL] = []

    override func tearDown() {
        for home in homes { try? FileManager.default.removeItem(at: home) }   // a leftover only costs /tmp space
        homes = []
        super.tearDown()
    }

    private func environment(_ extra: [String: String] = [:]) throws -> [String: String] {
        let home = try Fixtures.makeTemporaryDirectory("livegrid-s3-home")
        homes.append(home)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("AWS_") }
        environment["HOME"] = home.path
        environment["XDG_CACHE_HOME"] = home.path + "/cache"
        environment["XDG_CONFIG_HOME"] = home.path + "/config"
        environment["NETRC"] = "/dev/null"
        return environment.merging(extra) { $1 }
    }

    private func keys(_ server: S3TestServer, secret: String? = nil) -> [String: String] {
        ["AWS_ACCESS_KEY_ID": server.accessKey, "AWS_SECRET_ACCESS_KEY": secret ?? server.secretKey]
    }

    private func livegrid(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try MissingRequirement.livegridBinary())
        process.arguments = arguments
        process.environment = environment
        let errDirectory = try Fixtures.makeTemporaryDirectory("livegrid-s3-err")
        defer { try? FileManager.default.removeItem(at: errDirectory) }   // a leftover only costs /tmp space
        let errFile = errDirectory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let errHandle = try FileHandle(forWritingTo: errFile)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errHandle
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errHandle.close()
        let err = (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""   // an unreadable file reads as no message
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), err)
    }

    private func kinds(_ json: String) throws -> [String: String] {
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let items = object["items"] as? [[String: Any]] else {
            XCTFail("no items: \(json.prefix(500))")
            return [:]
        }
        var kinds: [String: String] = [:]
        for item in items {
            if let name = item["name"] as? String, let kind = item["kind"] as? String { kinds[name] = kind }
        }
        return kinds
    }

    func testScanPairsTheLivePhotoInsideTheBucketWithEnvironmentKeys() throws {
        let server = try server
        let environment = try environment(keys(server))
        let scan = try livegrid(["scan", "--json", "--endpoint", server.endpoint, "s3://photos/lib/"], environment: environment)
        XCTAssertEqual(scan.status, 0, scan.err)
        let kinds = try kinds(scan.out)
        XCTAssertEqual(kinds.values.filter { $0 == "live" }.count, 1, "train.jpg + train.mov pair: \(kinds)")
        XCTAssertEqual(kinds.count, 2, "the Live Photo and the Motion Photo: \(kinds)")
        let recursive = try livegrid(["scan", "-r", "--json", "--endpoint", server.endpoint, "s3://photos/lib/"], environment: environment)
        XCTAssertEqual(try self.kinds(recursive.out).count, 3, "-r descends into the prefix sub/: \(recursive.out.prefix(400))")
        assertSecretNowhere(server, stderr: scan.err + recursive.err, home: environment["HOME"] ?? "")
    }

    /// issue 30.4: `scan -r` on a prefix is one ListObjectsV2 walk without `delimiter` (counted by a recording
    /// proxy in front of SeaweedFS), its keys shown with their folders as a local `scan -r` shows them, and a
    /// still pairs with a movie in its own prefix only: a/b/train.jpg stays a still although a/train.mov has
    /// its content identifier. Without `-r` the listing keeps `delimiter=/` and shows the prefix's own keys.
    func testRecursiveScanIsOneListingWalkAndPairsWithinEachPrefix() throws {
        let server = try server
        let proxy = try S3RecordingProxy(upstreamPort: server.port, directory: server.directory)
        defer { proxy.stop() }
        let environment = try environment(keys(server))
        let endpoint = "http://127.0.0.1:\(proxy.port)"
        let recursive = try livegrid(["scan", "-r", "--json", "--no-index", "--endpoint", endpoint, "s3://photos/tree/"],
                                     environment: environment)
        XCTAssertEqual(recursive.status, 0, recursive.err)
        let walk = proxy.requests.filter(\.isListing)
        XCTAssertEqual(walk.count, 1, "one listing walk for the whole tree: \(walk.map(\.path))")
        XCTAssertFalse(walk.contains { $0.path.contains("delimiter") }, "-r drops the delimiter: \(walk.map(\.path))")
        let items = try itemFiles(recursive.out)
        XCTAssertEqual(Set(items.map(\.files)), [["s3://photos/tree/top.jpeg"],
                                                 ["s3://photos/tree/a/train.jpg", "s3://photos/tree/a/train.mov"],
                                                 ["s3://photos/tree/a/b/inner.jpeg"], ["s3://photos/tree/a/b/train.jpg"]],
                       "every key of both nested prefixes, once: \(items)")
        XCTAssertEqual(items.first { $0.files.first == "s3://photos/tree/a/train.jpg" }?.kind, "live")
        XCTAssertEqual(items.first { $0.files == ["s3://photos/tree/a/b/train.jpg"] }?.kind, "still",
                       "no pair across prefixes: \(items)")
        let table = try livegrid(["scan", "-r", "--no-index", "--endpoint", endpoint, "s3://photos/tree/"], environment: environment)
        XCTAssertTrue(table.out.split(separator: "\n").contains { $0.contains(" a/b ") && $0.contains("train.jpg") },
                      "the folder column shows the relative prefix: \(table.out)")

        let before = proxy.requests.count
        let flat = try livegrid(["scan", "--json", "--no-index", "--endpoint", endpoint, "s3://photos/tree/"], environment: environment)
        XCTAssertEqual(flat.status, 0, flat.err)
        let flatListings = proxy.requests.dropFirst(before).filter(\.isListing)
        XCTAssertEqual(flatListings.count, 1)
        XCTAssertTrue(flatListings.allSatisfy { $0.path.contains("delimiter=%2F") }, "\(flatListings.map(\.path))")
        XCTAssertEqual(try itemFiles(flat.out).map(\.files), [["s3://photos/tree/top.jpeg"]], "a/ is a folder, not items")
    }

    /// Issue 30 item 4 through the command: `scan` keeps its header probes in the library index
    /// ($XDG_CACHE_HOME/livegrid/library-index.sqlite) under each key's URL, size and ETag. A second scan (and a
    /// second `-r` walk) sends the listing and nothing more; an object overwritten since is the one read again,
    /// and the table says what it is now.
    func testSecondScanOfAnUnchangedPrefixSendsOnlyTheListing() throws {
        let server = try server
        for name in ["train.jpg", "train.mov"] { try server.put("photos", "again/" + name, file: Fixtures.committed(name)) }
        try server.put("photos", "again/sub/pixel.jpeg", file: Fixtures.committed("motion-photo-v1.jpeg"))
        let proxy = try S3RecordingProxy(upstreamPort: server.port, directory: server.directory)
        defer { proxy.stop() }
        let environment = try environment(keys(server))
        let endpoint = "http://127.0.0.1:\(proxy.port)"
        func scan(_ options: [String]) throws -> (items: [(kind: String, files: [String])], requests: [S3RecordingProxy.Request],
                                                  err: String) {
            let before = proxy.requests.count
            let run = try livegrid(["scan", "--json"] + options + ["--endpoint", endpoint, "s3://photos/again/"], environment: environment)
            XCTAssertEqual(run.status, 0, run.err)
            return (try itemFiles(run.out), Array(proxy.requests.dropFirst(before)), run.err)
        }
        let first = try scan(["-r"])
        XCTAssertEqual(Set(first.requests.filter { !$0.isListing }.map(\.path)).count, 3, "every object's head: \(first.requests.map(\.path))")
        XCTAssertEqual(first.items.map(\.kind).sorted(), ["live", "motion"])

        let second = try scan(["-r", "--stats"])
        XCTAssertTrue(second.err.contains(" 0 probed (the rest from the index)"), second.err)
        XCTAssertEqual(second.requests.map(\.isListing), [true], "the walk only: \(second.requests.map(\.path))")
        XCTAssertEqual(second.items.map(\.kind).sorted(), ["live", "motion"], "the same facts, from the index")
        let flat = try scan([])
        XCTAssertEqual(flat.requests.map(\.isListing), [true], "the delimited listing only: \(flat.requests.map(\.path))")
        XCTAssertEqual(flat.items.first?.kind, "live")

        try server.put("photos", "again/sub/pixel.jpeg", file: Fixtures.committed("train.jpg"))
        let third = try scan(["-r", "--stats"])
        XCTAssertTrue(third.err.contains(" 1 probed (the rest from the index)"), third.err)
        XCTAssertEqual(third.requests.filter { !$0.isListing }.map(\.path).uniqued(), ["/photos/again/sub/pixel.jpeg"],
                       "only the overwritten object is read")
        XCTAssertEqual(third.items.first { $0.files == ["s3://photos/again/sub/pixel.jpeg"] }?.kind, "still", "\(third.items)")

        let unindexed = try scan(["--no-index"])
        XCTAssertEqual(Set(unindexed.requests.filter { !$0.isListing }.map(\.path)).count, 2, "--no-index reads every head: \(unindexed.requests.map(\.path))")
    }

    /// Each item's kind and file paths, from `scan --json`.
    private func itemFiles(_ json: String) throws -> [(kind: String, files: [String])] {
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let items = object["items"] as? [[String: Any]] else {
            XCTFail("no items: \(json.prefix(500))")
            return []
        }
        return items.map { item in
            ((item["kind"] as? String) ?? "", ((item["files"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String })
        }
    }

    /// The real-world fixtures (Live Photos with JPEG and HEIC stills, Motion Photos, a still without an
    /// identifier...) in a bucket: `scan` finds the same kinds as a scan of the same files on disk.
    func testSharedFixturesPairInTheBucketAsTheyDoLocally() throws {
        guard let shared = Fixtures.sharedDirectory else {
            throw XCTSkip("../shared/fixtures is absent (a fresh clone): skipping the bucket of real-world fixtures")
        }
        let server = try server
        var uploaded = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: shared.path).sorted() where !name.hasSuffix(".md") {
            var isDirectory: ObjCBool = false
            let path = shared.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            try server.put("photos", "shared/" + name, file: path)
            uploaded += 1
        }
        XCTAssertGreaterThan(uploaded, 5)
        let environment = try environment(keys(server))
        let remote = try livegrid(["scan", "--json", "--no-index", "--endpoint", server.endpoint, "s3://photos/shared/"], environment: environment)
        XCTAssertEqual(remote.status, 0, remote.err)
        let local = try livegrid(["scan", "--json", "--no-index", shared.path], environment: environment)
        XCTAssertEqual(local.status, 0, local.err)
        let remoteKinds = try kinds(remote.out), localKinds = try kinds(local.out)
        XCTAssertFalse(localKinds.isEmpty)
        XCTAssertEqual(remoteKinds, localKinds, "the same pairs and kinds in the bucket as on disk")
        XCTAssertTrue(remoteKinds.values.contains("live") && remoteKinds.values.contains("motion"), "\(remoteKinds)")
    }

    /// `export s3://…/train.jpg` downloads the still and its movie and writes a pair that `scan` pairs again;
    /// `--as still` writes the still alone; an unknown name is one sentence. No temporary copy is left behind.
    func testExportWritesAPairThatScanPairsAgain() throws {
        let server = try server
        let environment = try environment(keys(server))
        let destination = try Fixtures.makeTemporaryDirectory("livegrid-s3-export")
        defer { try? FileManager.default.removeItem(at: destination) }   // a leftover only costs /tmp space
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("livegrid-export-") })
        let export = try livegrid(["export", "--endpoint", server.endpoint, "s3://photos/lib/train.jpg", "--to", destination.path],
                                  environment: environment)
        XCTAssertEqual(export.status, 0, export.err)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: destination.path)), ["train.jpg", "train.mov"])
        let again = try livegrid(["scan", "--json", destination.path], environment: environment)
        XCTAssertEqual(try kinds(again.out).values.filter { $0 == "live" }.count, 1, "the exported pair is a pair: \(again.out.prefix(300))")
        XCTAssertEqual(try Data(contentsOf: destination.appendingPathComponent("train.mov")),
                       try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.mov"))), "the movie, byte for byte")
        let still = try livegrid(["export", "--as", "still", "--endpoint", server.endpoint, "s3://photos/lib/train.mov", "--to", destination.path],
                                 environment: environment)
        XCTAssertEqual(still.status, 0, still.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: destination.appendingPathComponent("train (2).jpg").path), still.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.appendingPathComponent("train (2).mov").path))
        let missing = try livegrid(["export", "--endpoint", server.endpoint, "s3://photos/lib/nothing.jpg", "--to", destination.path],
                                   environment: environment)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.err.contains("no photo or movie of that name"), missing.err)
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("livegrid-export-") })
        XCTAssertEqual(after, before, "the temporary copies are gone")
    }

    /// A self-hosted store over HTTPS with its own certificate authority: trusted through `AWS_CA_BUNDLE` as
    /// the AWS tools do, refused with the TLS sentence without it. SigV4 over TLS against the real check.
    func testHTTPSEndpointWithAPrivateCertificateAuthority() throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-s3-tls")
        defer { try? FileManager.default.removeItem(at: directory) }   // a leftover only costs /tmp space
        let certificate = try RemoteTestHarness.makeSelfSignedCertificate(in: directory)
        let server = try S3TestServer.start(in: directory.appendingPathComponent("weed"), certificate: certificate)
        defer { server.stop() }
        try server.createBucket("photos")
        for name in ["train.jpg", "train.mov"] { try server.put("photos", "lib/" + name, file: Fixtures.committed(name)) }
        let endpoint = try XCTUnwrap(server.httpsEndpoint)
        let port = try XCTUnwrap(URL(string: endpoint)?.port)
        let deadline = Date().addingTimeInterval(20)
        while !RemoteTestHarness.isListening(port), Date() < deadline { usleep(50_000) }
        let trusted = try livegrid(["scan", "--json", "--endpoint", endpoint, "s3://photos/lib/"],
                                   environment: try environment(keys(server).merging(["AWS_CA_BUNDLE": certificate.certificatePath]) { $1 }))
        XCTAssertEqual(trusted.status, 0, trusted.err)
        XCTAssertEqual(try kinds(trusted.out).values.filter { $0 == "live" }.count, 1, trusted.out)
        let untrusted = try livegrid(["scan", "--endpoint", endpoint, "s3://photos/lib/"], environment: try environment(keys(server)))
        XCTAssertEqual(untrusted.status, 1)
        XCTAssertTrue(untrusted.err.contains("secure connection failed"), untrusted.err)
    }

    /// The first screen of 40 camera JPEGs (3.4 MB each, Exif thumbnail, no MakerNote or XMP) is drawn from
    /// their Exif thumbnails: the bytes a relay in front of SeaweedFS passes (listing and HTTP headers included)
    /// stay below 1.5x the thumbnails' own ranges for the screen and the next (a 5 KiB head, the rest of the
    /// thumbnail with the marker after it, and the last 8 bytes each).
    func testFirstScreenReadsHeadRangesNotWholeObjects() throws {
        try TmuxSession.requireTmux()
        let server = try server
        let camera = server.directory.appendingPathComponent("camera.jpg")
        try? FileManager.default.removeItem(at: camera)   // a copy from an earlier run in the same directory
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: camera.path)
        _ = try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-makernotes:all=", "-xmp:all=", camera.path])
        try server.putMany("photos", keys: (0..<40).map { String(format: "heads/IMG_%04d.JPG", $0) },
                           data: try Data(contentsOf: camera))
        let relay = try ByteCountingProxy(to: server.port, directory: server.directory)
        defer { relay.stop() }
        let binary = try MissingRequirement.livegridBinary()
        let home = try environment()["HOME"] ?? ""
        let command = "env HOME='\(home)' XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' NETRC=/dev/null "
            + "AWS_ACCESS_KEY_ID='\(server.accessKey)' AWS_SECRET_ACCESS_KEY='\(server.secretKey)' "
            + "TERM=tmux-256color '\(binary)' --endpoint 'http://127.0.0.1:\(relay.port)' 's3://photos/heads/'"
        let session = try TmuxSession(command: command, columns: 120, rows: 40)
        try session.waitFor("thumbnails") { screen in
            screen.dropFirst().dropLast().filter { $0.range(of: "[\u{2580}-\u{2587}\u{2589}-\u{2590}\u{2594}-\u{259F}]{6,}",
                                                             options: .regularExpression) != nil }.count >= 4
        }
        _ = try session.waitForStableScreen()
        let received = relay.counts.toClient
        let object = try FileManager.default.attributesOfItem(atPath: camera.path)[.size] as? Int ?? 0
        // The file's Exif thumbnail: bytes 1224..<9836 once exiftool rewrote it (8,612 bytes, the end of its APP1).
        let thumbnail = 8612
        print("figure: s3 first screen of 40 camera JPEGs: \(received) bytes through the relay, listing and HTTP headers included"
              + " (\(String(format: "%.2f", Double(received) / Double(30 * thumbnail)))x the 30 thumbnails of the screen and the next; one object: \(object))")
        XCTAssertGreaterThan(received, 15 * thumbnail, "at least the visible thumbnails came through the relay")
        XCTAssertLessThan(received, 30 * thumbnail * 3 / 2,
                          "at most 1.5x the thumbnails of the screen and the next, listing included (issue 30's target; \(received) bytes)")
        try session.send("q")
        try session.waitForExit(timeout: 20)
    }

    /// Issue 30 item 4 in the browser: the previews of the first screen (Exif thumbnails from head ranges) are
    /// remembered in the library index under each key's size and ETag, their thumbnails in the download cache.
    /// The browser started again on the same prefix draws them with the listing as its only request.
    func testReopenedBrowserDrawsRememberedThumbnailsWithTheListingOnly() throws {
        try TmuxSession.requireTmux()
        let server = try server
        let camera = server.directory.appendingPathComponent("camera-reopen.jpg")
        try? FileManager.default.removeItem(at: camera)   // a copy from an earlier run in the same directory
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: camera.path)
        _ = try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-makernotes:all=", "-xmp:all=", camera.path])
        let count = 6
        try server.putMany("photos", keys: (0..<count).map { String(format: "reopen-browser/IMG_%04d.JPG", $0) },
                           data: try Data(contentsOf: camera))
        let proxy = try S3RecordingProxy(upstreamPort: server.port, directory: server.directory)
        defer { proxy.stop() }
        let binary = try MissingRequirement.livegridBinary()
        let home = try environment()["HOME"] ?? ""
        let command = "env HOME='\(home)' XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' NETRC=/dev/null "
            + "AWS_ACCESS_KEY_ID='\(server.accessKey)' AWS_SECRET_ACCESS_KEY='\(server.secretKey)' "
            + "TERM=tmux-256color '\(binary)' --endpoint 'http://127.0.0.1:\(proxy.port)' 's3://photos/reopen-browser/'"
        let index = home + "/cache/livegrid/library-index.sqlite"
        func open(remembering: Bool) throws -> [S3RecordingProxy.Request] {
            let before = proxy.requests.count
            let session = try TmuxSession(command: command, columns: 120, rows: 40)
            try session.waitFor("thumbnails") { screen in
                screen.dropFirst().dropLast().filter { $0.range(of: "[\u{2580}-\u{2587}\u{2589}-\u{2590}\u{2594}-\u{259F}]{6,}",
                                                                 options: .regularExpression) != nil }.count >= 4
            }
            if remembering {
                // Every preview checked and kept (the check of the file's end comes after the picture is shown).
                let deadline = Date().addingTimeInterval(30)
                while LibraryIndex(path: index).remoteProbeCount < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
                XCTAssertEqual(LibraryIndex(path: index).remoteProbeCount, count, "a remembered preview per object")
            }
            _ = try session.waitForStableScreen()
            try session.send("q")
            try session.waitForExit(timeout: 20)
            return Array(proxy.requests.dropFirst(before))
        }
        let first = try open(remembering: true)
        XCTAssertEqual(Set(first.filter { !$0.isListing }.map(\.path)).count, count, "every object's head the first time")
        let second = try open(remembering: false)
        XCTAssertEqual(second.map(\.isListing), [true], "the thumbnails from the index and the cache: \(second.map(\.path))")
    }

    /// A prefix of three listing pages (2,501 keys): the browser draws the first screen's pictures while a
    /// proxy holds the last page back, so the grid did not wait for the listing; train.jpg, the last key of
    /// page 1, and train.mov, the first of page 2, are one Live Photo cell before the listing ends.
    func testFirstScreenIsDrawnBeforeTheLastListingPageAndASplitPairIsOneCell() throws {
        try TmuxSession.requireTmux()
        let server = try server
        let small = server.directory.appendingPathComponent("small.jpg")
        try? FileManager.default.removeItem(at: small)   // a copy from an earlier run in the same directory
        _ = try ExternalTool.run("ffmpeg", ["-y", "-loglevel", "error", "-i", Fixtures.committed("train.jpg"), "-vf", "scale=96:72",
                                            small.path])
        let keys = (0..<999).map { String(format: "pages/a%04d.jpg", $0) } + (0..<1500).map { String(format: "pages/z%04d.jpg", $0) }
        try server.putMany("photos", keys: keys, data: try Data(contentsOf: small))
        for name in ["train.jpg", "train.mov"] { try server.put("photos", "pages/" + name, file: Fixtures.committed(name)) }
        let proxy = try S3RecordingProxy(upstreamPort: server.port, directory: server.directory, holdLastListingPage: true)
        defer { proxy.stop() }
        let binary = try MissingRequirement.livegridBinary()
        let home = try environment()["HOME"] ?? ""
        let command = "env HOME='\(home)' XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' NETRC=/dev/null "
            + "AWS_ACCESS_KEY_ID='\(server.accessKey)' AWS_SECRET_ACCESS_KEY='\(server.secretKey)' "
            + "TERM=tmux-256color '\(binary)' --endpoint 'http://127.0.0.1:\(proxy.port)' 's3://photos/pages/'"
        let session = try TmuxSession(command: command, columns: 120, rows: 40)
        defer { proxy.releaseLastListingPage() }
        try session.waitFor("thumbnails while the last page is held", timeout: 60) { screen in
            screen.dropFirst().dropLast().filter { $0.range(of: "[\u{2580}-\u{2587}\u{2589}-\u{2590}\u{2594}-\u{259F}]{6,}",
                                                             options: .regularExpression) != nil }.count >= 4
        }
        let answered = proxy.requests.filter(\.isListing)
        XCTAssertLessThanOrEqual(answered.count, 2, "the last of the three pages is still held: \(answered.map(\.path))")
        XCTAssertGreaterThanOrEqual(answered.count, 1)
        // Page 2 (train.mov) arrives while page 3 is held: the pair is one cell, found with the filter.
        try session.send("/", "train", "Enter")
        let paired = try session.waitFor("train.jpg as a Live Photo", timeout: 40) { screen in
            self.cellText(screen, "train.jpg")?.contains("\u{25CE}") == true
        }
        XCTAssertFalse(paired.dropLast().contains { $0.contains("train.mov") }, "no cell of its own for the movie: \(paired.joined(separator: "\n"))")
        XCTAssertLessThanOrEqual(proxy.requests.filter(\.isListing).count, 2, "still before the last page")
        proxy.releaseLastListingPage()
        _ = try session.waitFor("the last page answered") { _ in proxy.requests.filter(\.isListing).count == 3 }
        _ = try session.waitForStableScreen()
        let settled = try session.screen()
        XCTAssertTrue(cellText(settled, "train.jpg")?.contains("\u{25CE}") == true, "still one Live Photo: \(settled.joined(separator: "\n"))")
        try session.send("q")
        try session.waitForExit(timeout: 20)
    }

    func testProfileFilesEndpointAndRegionFromConfig() throws {
        let server = try server
        let home = try Fixtures.makeTemporaryDirectory("livegrid-s3-profile")
        homes.append(home)
        let credentials = home.appendingPathComponent("credentials").path
        let config = home.appendingPathComponent("config").path
        try "[archive]\naws_access_key_id = \(server.accessKey)\naws_secret_access_key = \(server.secretKey)\n"
            .write(toFile: credentials, atomically: true, encoding: .utf8)
        try "[profile archive]\nregion = us-east-1\nendpoint_url = \(server.endpoint)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let environment = try environment(["AWS_PROFILE": "archive", "AWS_SHARED_CREDENTIALS_FILE": credentials,
                                           "AWS_CONFIG_FILE": config])
        let scan = try livegrid(["scan", "--json", "s3://photos/lib/"], environment: environment)
        XCTAssertEqual(scan.status, 0, scan.err)
        XCTAssertEqual(try kinds(scan.out).values.filter { $0 == "live" }.count, 1)
        let absent = try livegrid(["scan", "--profile", "nobody", "s3://photos/lib/"], environment: environment)
        XCTAssertNotEqual(absent.status, 0)
        XCTAssertTrue(absent.err.contains("profile 'nobody'"), absent.err)
    }

    func testEachRefusalIsOneSentenceAndTheSecretNeverShows() throws {
        let server = try server
        let endpoint = ["--endpoint", server.endpoint]
        let cases: [(String, [String], [String: String], String)] = [
            ("wrong secret", ["s3://photos/lib/"], keys(server, secret: "WRONG-secret-9f2"), "refused the signature"),
            ("missing bucket", ["s3://no-such-bucket/"], keys(server), "there is no bucket 'no-such-bucket'"),
            ("anonymous on a private bucket", ["--no-sign-request", "s3://photos/lib/"], [:], "refuses unsigned requests"),
            ("session token on static keys", ["s3://photos/lib/"], keys(server).merging(["AWS_SESSION_TOKEN": "tok-123"]) { $1 },
             "does not know access key"),
        ]
        for (what, arguments, extra, sentence) in cases {
            let environment = try environment(extra)
            let scan = try livegrid(["scan"] + endpoint + arguments, environment: environment)
            XCTAssertEqual(scan.status, 1, "\(what): \(scan.err)")
            XCTAssertTrue(scan.err.contains(sentence), "\(what): \(scan.err)")
            XCTAssertEqual(scan.err.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count, 1,
                           "\(what): one line: \(scan.err)")
            XCTAssertFalse(scan.err.contains("WRONG-secret-9f2") || scan.err.contains(server.secretKey), "\(what): \(scan.err)")
        }
        let open = try livegrid(["scan", "--json", "--no-sign-request"] + endpoint + ["s3://\(S3TestServer.publicBucket)/lib/"],
                                environment: try environment())
        XCTAssertEqual(open.status, 0, open.err)
        XCTAssertEqual(try kinds(open.out).values.filter { $0 == "live" }.count, 1, "a public bucket, unsigned")
    }

    func testBrowserShowsTheLiveBadgeAndPlaysOnHold() throws {
        try TmuxSession.requireTmux()
        let server = try server
        let binary = try MissingRequirement.livegridBinary()
        let environment = try environment()
        let home = environment["HOME"] ?? ""
        let command = "env -u SSH_AUTH_SOCK HOME='\(home)' XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' "
            + "NETRC=/dev/null AWS_ACCESS_KEY_ID='\(server.accessKey)' AWS_SECRET_ACCESS_KEY='\(server.secretKey)' "
            + "TERM=tmux-256color '\(binary)' --endpoint '\(server.endpoint)' 's3://photos/lib/'"
        let session = try TmuxSession(command: command, columns: 120, rows: 40)
        let done = try session.waitFor("train.jpg playable", timeout: 40) { screen in
            self.cellText(screen, "train.jpg")?.contains("✓ playable") == true
        }
        XCTAssertTrue(cellText(done, "train.jpg")?.contains("◎ LIVE") == true, done.joined(separator: "\n"))
        XCTAssertTrue(done.first?.contains("s3://photos/lib") == true, "the header names the bucket: \(done.first ?? "")")
        try session.send("l", "l")
        try session.waitFor("train.jpg selected") { self.statusLine($0).contains("train.jpg") }
        let before = cellText(try session.screen(), "train.jpg") ?? ""
        var changed = false, status = ""
        let holdEnds = Date().addingTimeInterval(2)
        while Date() < holdEnds {
            try session.run(["send-keys", "-t", session.name, "Space"], capture: false)
            let screen = try session.screen()
            if cellText(screen, "train.jpg") != before { changed = true }
            if statusLine(screen).contains("hold:") { status = statusLine(screen) }
            Thread.sleep(forTimeInterval: 0.03)
        }
        XCTAssertTrue(changed, "the movie played in the cell")
        XCTAssertTrue(status.contains("hold:"), "status while playing: \(status)")
        // Nothing is written to a bucket: a rating is kept in livegrid's index (issue 31.5) and says so, a
        // trash is refused, and the browser keeps running.
        try session.send("3")
        try session.waitFor("the rating kept in the index") {
            self.statusLine($0).contains("ratings are kept in livegrid's index: livegrid never writes to a remote")
        }
        try session.send("d")
        try session.waitFor("the trash question") { self.statusLine($0).contains("Trash") }
        try session.send("y")
        try session.waitFor("the trash refused") { self.statusLine($0).contains("not available for a remote") }
        // The export key works on a bucket's items: the pair is downloaded and written as a pair.
        let out = try Fixtures.makeTemporaryDirectory("livegrid-s3-browser-export")
        homes.append(out)
        try session.send("e")
        try session.waitFor("the export dialog") { $0.contains { $0.contains("Export 1 item") } }
        try session.send("Enter")
        try session.waitFor("the destination prompt") { $0.contains { $0.contains("Export to:") } }
        try session.run(["send-keys", "-t", session.name, "-l", out.path], capture: false)
        try session.send("Enter")
        let pid = try session.display("#{pane_pid}")
        let ended = try session.waitFor("the export's end") {
            self.statusLine($0).contains("1 of 1 item exported") || self.statusLine($0).contains("export failed")
        }
        // The ★★★ rating given above (kept in the index) leaves as a sidecar beside the copy (issue 31.5).
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)), ["train.jpg", "train.mov", "train.jpg.xmp"],
                       statusLine(ended))
        XCTAssertEqual(try SidecarTriageStore.read(sidecar: out.appendingPathComponent("train.jpg.xmp").path), TriageState(rating: 3))
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("train.mov")),
                       try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.mov"))), "the movie, byte for byte")
        let again = try livegrid(["scan", "--json", out.path], environment: try self.environment())
        XCTAssertEqual(try kinds(again.out).values.filter { $0 == "live" }.count, 1, "the exported pair scans as a pair: \(again.out.prefix(300))")
        _ = try session.waitFor("the staging folder removed", timeout: 10) { _ in
            // try?: an unreadable temporary directory reads as empty (the wait then ends at once).
            ((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? [])
                .allSatisfy { !$0.hasPrefix("livegrid-export-\(pid)-") }
        }
        try session.send("q")
        try session.waitForExit(timeout: 20)
        assertSecretNowhere(server, stderr: "", home: home)
    }

    /// A wrong secret in the browser: the listing's failure is the sentence on the screen, and the browser
    /// keeps running until the user quits.
    func testBrowserShowsARefusalAsASentenceAndKeepsRunning() throws {
        try TmuxSession.requireTmux()
        let server = try server
        let binary = try MissingRequirement.livegridBinary()
        let home = try environment()["HOME"] ?? ""
        let command = "env HOME='\(home)' XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' NETRC=/dev/null "
            + "AWS_ACCESS_KEY_ID='\(server.accessKey)' AWS_SECRET_ACCESS_KEY='WRONG-secret-9f2' "
            + "TERM=tmux-256color '\(binary)' --endpoint '\(server.endpoint)' 's3://photos/lib/'"
        let session = try TmuxSession(command: command, columns: 200, rows: 30)
        let screen = try session.waitFor("the refusal") { $0.contains { $0.contains("refused the signature") } }
        XCTAssertFalse(screen.joined().contains("WRONG-secret-9f2"), "the secret never shows")
        XCTAssertEqual(try session.display("#{pane_dead}"), "0", "the browser keeps running")
        try session.send("q")
        try session.waitForExit(timeout: 20)
    }

    /// Neither the secret in any file of HOME (the download cache, the index), nor in a file's name.
    private func assertSecretNowhere(_ server: S3TestServer, stderr: String, home: String, line: UInt = #line) {
        XCTAssertFalse(stderr.contains(server.secretKey), "stderr", line: line)
        var looked = 0
        let enumerator = FileManager.default.enumerator(atPath: home)
        while let path = enumerator?.nextObject() as? String {
            XCTAssertFalse(path.contains(server.secretKey), "a name in the cache: \(path)", line: line)
            if let data = FileManager.default.contents(atPath: home + "/" + path) {
                looked += 1
                XCTAssertNil(data.range(of: Data(server.secretKey.utf8)), "the secret in \(path)", line: line)
            }
        }
        XCTAssertGreaterThan(looked, 0, "the cache was written (so the check looked at something)", line: line)
    }

    private static let names = ["motion-photo-v1.jpeg", "train.jpg"]

    private func statusLine(_ screen: [String]) -> String {
        screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    }

    private func cellText(_ screen: [String], _ name: String) -> String? {
        let grid = ScreenGrid(lines: Array(screen.dropLast()), names: Self.names + ["sub"])
        guard let cell = grid.cell(name) else { return nil }
        return (cell.pictureTop..<cell.captionRow).compactMap { row -> String? in
            guard row < grid.lines.count else { return nil }
            let line = grid.lines[row]
            guard cell.x < line.count else { return "" }
            return String(line[cell.x..<min(line.count, cell.x + cell.width)])
        }.joined(separator: "\n")
    }
}

private extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
