import Concurrent
import Foundation
import LibraryCore
import XCTest
@testable import Library
@testable import LibrarySources
import LivePairing
import MediaFormats
import TestSupport

/// `sftp://` libraries against a real OpenSSH server on 127.0.0.1 (its own host key, one authorized key, a
/// temporary known_hosts and `ssh -F` configuration: the real ~/.ssh is never read).
final class RemoteSFTPTests: RemoteServerTestCase {
    private var sshd: SSHTestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
    }

    override func tearDown() {
        sshd?.stop()
        sshd = nil
        super.tearDown()
    }

    private var photos: String { root.appendingPathComponent("www/photos").path }

    private func configuration(knownHosts: String? = nil, identity: String? = nil, name: String = "ssh_config",
                               viaPort: Int? = nil) throws -> RemoteHTTPConfiguration {
        var configuration = RemoteHTTPConfiguration()
        configuration.idleTimeout = 5
        configuration.netrc = Netrc()
        configuration.ssh.openSSHConfigFile = try sshd.clientConfig(named: name, knownHosts: knownHosts, identity: identity,
                                                                    port: viaPort)
        configuration.ssh.homeDirectory = sshd.home
        configuration.ssh.useAgent = false
        return configuration
    }

    private func library(_ configuration: RemoteHTTPConfiguration, path: String? = nil) -> RemoteLibrary {
        let client = RemoteHTTPClient(configuration: configuration)
        let downloads = DownloadManager.Configuration(cacheRoot: root.appendingPathComponent("cache").path)
        return RemoteLibrary(url: URL(string: sshd.url(path ?? photos))!, client: client,
                             downloads: DownloadManager(client: client, configuration: downloads))
    }

    func testListsPairsFromHeadersAndDownloadsTheLivePhoto() async throws {
        let lib = library(try configuration())
        let items = try await lib.load()
        XCTAssertEqual(lib.listing?.format, .sftp)
        XCTAssertEqual(lib.subdirectories.map(\.name), ["sub"])
        XCTAssertEqual(lib.listing?.rejected, [])
        XCTAssertEqual(lib.listing?.files.first { $0.name == "train.mov" }?.size, 1509892, "sizes from the long listing")
        let live = try XCTUnwrap(items.first { $0.item.kind == .live }, "\(items.map { ($0.item.kind, $0.item.displayName) })")
        XCTAssertEqual(live.item.still?.fileName, "train.jpg")
        XCTAssertEqual(live.item.movie?.fileName, "train.mov")
        XCTAssertEqual(live.item.pairing, .contentIdentifier)
        XCTAssertEqual(items.first { $0.item.displayName == "motion-photo-v1.jpeg" }?.item.kind, .motion)
        XCTAssertLessThan(lib.probeBytes, (3478530 + 1509892 + 153383) / 10, "pairing reads headers, not files")

        lib.requestPlay(live.id)
        try await waitUntil(seconds: 20) {
            lib.items.first { $0.id == live.id }?.isPlayable == true
        }
        let playable = try XCTUnwrap(lib.items.first { $0.id == live.id }?.localItem)
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: try XCTUnwrap(playable.still?.path), andPath: photos + "/train.jpg"))
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: try XCTUnwrap(playable.movie?.path), andPath: photos + "/train.mov"))
        let meta = try XCTUnwrap(lib.downloads.cache.readMetadata(for: try XCTUnwrap(live.movieURL)))
        XCTAssertEqual(meta.size, 1509892)
        XCTAssertNotNil(meta.lastModified, "the SFTP modification time is the resume validator")

        let inner = try await lib.subdirectory(try XCTUnwrap(lib.subdirectories.first)).load()
        XCTAssertEqual(inner.map(\.item.displayName), ["inner.jpeg"])
    }

    func testSSHAliasUserAndPortComeFromTheOpenSSHConfiguration() throws {
        let configuration = try configuration()
        let settings = SSHHostSettings.resolve(URL(string: sshd.url(photos))!, configuration: configuration.ssh)
        XCTAssertEqual(settings.hostname, "127.0.0.1")
        XCTAssertEqual(settings.port, sshd.port)
        XCTAssertEqual(settings.user, sshd.user)
        XCTAssertEqual(settings.identityFiles, [sshd.clientKey])
        XCTAssertEqual(settings.knownHostsFile, sshd.knownHosts)
    }

    func testUnknownAndChangedHostKeysAndAWrongKeyAreRefused() async throws {
        let empty = root.appendingPathComponent("empty_known_hosts").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let cases: [(String, RemoteHTTPConfiguration)] = [
            ("unknown", try configuration(knownHosts: empty, name: "c1")),
            ("missing file", try configuration(knownHosts: root.appendingPathComponent("nope").path, name: "c2")),
            ("changed", try configuration(knownHosts: try sshd.changedKnownHosts(), name: "c3")),
        ]
        for (label, configuration) in cases {
            do {
                _ = try await library(configuration).load()
                XCTFail("\(label): the connection was accepted")
            } catch RemoteError.hostKeyRejected(let host, let problem) {
                XCTAssertEqual(host, "127.0.0.1")
                let fingerprint: String
                switch problem {
                case .unknown(let type, let print, _):
                    XCTAssertNotEqual(label, "changed")
                    XCTAssertEqual(type, "ssh-ed25519")
                    fingerprint = print
                case .changed(_, let print, _):
                    XCTAssertEqual(label, "changed")
                    fingerprint = print
                case .revoked(_, let print, _):
                    XCTFail("\(label): nothing here is revoked")
                    fingerprint = print
                }
                let expected = try ExternalTool.runProgram("/usr/bin/ssh-keygen", ["-lf", sshd.directory.path + "/host_ed25519.pub"]).out
                XCTAssertTrue(expected.contains(fingerprint), "OpenSSH's fingerprint: \(expected) vs \(fingerprint)")
                XCTAssertTrue(RemoteError.hostKeyRejected(host: host, problem: problem).description.contains(fingerprint))
            }
        }
        do {
            _ = try await library(try configuration(identity: try sshd.strangerKey(), name: "c4")).load()
            XCTFail("a key the server does not know logged in")
        } catch RemoteError.authenticationFailed(let why) {
            XCTAssertTrue(why.contains("stranger_ed25519"), why)
            XCTAssertTrue(why.contains("no password"), "no terminal here: no prompt, no hang: \(why)")
        }
        let log = sshd.log
        XCTAssertFalse(log.contains("Accepted publickey"), "nothing logged in:\n\(log)")
    }

    func testKeyWithPassphraseIsUnlockedByTheAnswerToThePrompt() async throws {
        let key = try sshd.authorizedKey(named: "locked_ed25519", passphrase: "open sesame")
        XCTAssertEqual(SSHKeyFile.isEncrypted(key), true)
        XCTAssertEqual(SSHKeyFile.isEncrypted(sshd.clientKey), false)
        var configuration = try configuration(identity: key, name: "locked")
        let prompts = Locked<[String]>([])
        configuration.ssh.askSecret = { prompt in
            prompts.withLockedValue { $0.append(prompt) }
            return "open sesame"
        }
        let items = try await library(configuration).load()
        XCTAssertFalse(items.isEmpty)
        let asked = prompts.withLockedValue { $0 }
        XCTAssertEqual(asked.count, 1, "one prompt, for the passphrase")
        XCTAssertTrue(asked.first?.contains("locked_ed25519") == true, "the prompt names the key: \(asked)")

        // Nobody to ask: the key is skipped with a reason, no hang.
        do {
            _ = try await library(try self.configuration(identity: key, name: "locked2")).load()
            XCTFail("logged in without the passphrase")
        } catch RemoteError.authenticationFailed(let why) {
            XCTAssertTrue(why.contains("has a passphrase"), why)
        }
    }

    func testHostileNamesAreRefusedAsOverHTTP() async throws {
        let hostile = ["bell\u{07}.jpg", "esc\u{1B}[2J.jpg", "cr\r.jpg", "back\\slash.jpg",
                       "nl\n-rw-r--r--    1 root     root      153383 Nov 24 19:44 fake.jpg"]
        for name in hostile {
            XCTAssertTrue(FileManager.default.createFile(atPath: photos + "/" + name,
                                                         contents: try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("motion-photo-v1.jpeg")))))
        }
        let listing = try await RemoteHTTPClient(configuration: try configuration()).list(URL(string: sshd.url(photos))!)
        XCTAssertEqual(listing.files.map(\.name).sorted(), ["motion-photo-v1.jpeg", "train.jpg", "train.mov"])
        let reasons = Dictionary(listing.rejected.map { ($0.raw, $0.reason) }, uniquingKeysWith: { a, _ in a })
        for name in ["bell\u{07}.jpg", "esc\u{1B}[2J.jpg", "cr\r.jpg"] {
            XCTAssertEqual(reasons[name], RemoteEntryValidator.checkName(decoded: name).failureMessage, name)
            XCTAssertEqual(reasons[name], "control character in name")
        }
        XCTAssertEqual(reasons["back\\slash.jpg"], "backslash in name")
        XCTAssertEqual(reasons["nl"], "line break in name", "\(listing.rejected)")
        XCTAssertNotNil(reasons["fake.jpg"], "the forged second half of a name is refused: \(listing.rejected)")
    }

    func testInterruptedTransferResumesFromThePartialFile() async throws {
        let movie = URL(string: sshd.url(photos) + "train.mov")!
        let proxy = try ThrottlingProxy(to: sshd.port, bytesPerSecond: 200_000, directory: root)
        let client = RemoteHTTPClient(configuration: try configuration(viaPort: proxy.port))
        try await client.prepare(movie.deletingLastPathComponent())
        let downloads = DownloadManager.Configuration(cacheRoot: root.appendingPathComponent("cache").path)
        let manager = DownloadManager(client: client, configuration: downloads)
        manager.request(movie, expectedSize: 1509892)
        try await waitUntil(seconds: 15) {
            if case .downloading(let bytes, _, _) = manager.state(of: movie) { return bytes > 300_000 } else { return false }
        }
        proxy.stop()   // the link drops: the server stays, the transfer breaks off
        try await waitUntil(seconds: 15) { if case .failed = manager.state(of: movie) { return true } else { return false } }
        let partial = try XCTUnwrap(manager.cache.fileSize(manager.cache.partPath(for: movie)))
        XCTAssertGreaterThan(partial, 300_000)
        XCTAssertNil(manager.cache.completeFile(for: movie))

        // The link back (same port); the retry continues where the partial file ends.
        let again = try ThrottlingProxy(on: proxy.port, to: sshd.port, bytesPerSecond: 400_000, directory: root)
        defer { again.stop() }
        let states = StateLog()
        manager.addObserver { states.append($0, $1) }
        manager.retry(movie)
        try await waitUntil(seconds: 20) { manager.state(of: movie).isDownloaded }
        let path = try XCTUnwrap(manager.localPath(for: movie))
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: path, andPath: photos + "/train.mov"))
        let firstProgress = states.all.compactMap { entry -> UInt64? in
            if case .downloading(let bytes, _, _) = entry.1, bytes > 0 { return bytes } else { return nil }
        }.first
        XCTAssertGreaterThanOrEqual(firstProgress ?? 0, partial, "the retry started at the partial file's end")
    }

    /// libssh2 reads ahead 4x the buffer libcurl hands it: with a big buffer each 16 KiB head probe cost 76 KB on
    /// the wire. Counted on a relay, after the client closed its connections (so late read-ahead is counted too).
    func testRangeProbesReceiveLittleMoreThanTheRangeOnTheWire() async throws {
        let proxy = try ByteCountingProxy(to: sshd.port, directory: root)
        defer { proxy.stop() }
        let client = RemoteHTTPClient(configuration: try configuration(viaPort: proxy.port))
        let still = URL(string: sshd.url(photos) + "train.jpg")!
        try await client.prepare(still.deletingLastPathComponent())
        let original = try Data(contentsOf: URL(fileURLWithPath: photos + "/train.jpg"))
        let before = proxy.counts.toClient
        // 20 head probes (16 KiB), 20 tail probes (8 KiB), 5 pieces of 64 KiB and 2 of 300 KB from the middle.
        var asked = 0
        let size = UInt64(original.count)
        var ranges: [(UInt64, UInt64)] = Array(repeating: (0, 16383), count: 20)
        ranges += Array(repeating: (size - 8192, size - 1), count: 20)
        for piece in 0..<5 {
            let first = UInt64(100_000 + piece * 70_000)
            ranges.append((first, first + 65535))
        }
        ranges += [(1_000_000, 1_299_999), (2_000_000, 2_299_999)]
        for (first, last) in ranges {
            let response = try await client.fetch(still, range: .bytes(first: first, last: last), maxBytes: 1 << 20)
            XCTAssertEqual(Data(response.body), original[Int(first)...Int(last)], "bytes \(first)-\(last)")
            asked += Int(last - first + 1)
        }
        client.invalidate()
        try await waitUntil(seconds: 10) { proxy.counts.open == 0 }
        let received = proxy.counts.toClient - before
        // SFTP and SSH framing cost a few hundred bytes per request; read-ahead past a range end is what must not show.
        XCTAssertLessThan(received, asked + asked / 20 + ranges.count * 1024,
                          "asked for \(asked) bytes in \(ranges.count) ranges, received \(received)")
    }

    func testSFTPBufferSizeKeepsReadAheadInsideTheRange() {
        XCTAssertEqual(CurlTransfer.sftpBufferSize(rangeLength: 16384), 4096, "one request of exactly 16 KiB")
        XCTAssertEqual(CurlTransfer.sftpBufferSize(rangeLength: 8192), 2048)
        XCTAssertEqual(CurlTransfer.sftpBufferSize(rangeLength: 100), 1024, "libcurl's smallest buffer")
        XCTAssertEqual(CurlTransfer.sftpBufferSize(rangeLength: 65536), 4096)
        XCTAssertEqual(CurlTransfer.sftpBufferSize(rangeLength: 300_000), 8192)
        XCTAssertEqual(CurlTransfer.sftpBufferSize(rangeLength: 4 << 20), 32 << 10)
    }

    func testFileChangedSinceThePartialDownloadStartsOver() async throws {
        let movie = URL(string: sshd.url(photos) + "train.mov")!
        let proxy = try ThrottlingProxy(to: sshd.port, bytesPerSecond: 300_000, directory: root)
        defer { proxy.stop() }
        let client = RemoteHTTPClient(configuration: try configuration(viaPort: proxy.port))
        let downloads = DownloadManager.Configuration(cacheRoot: root.appendingPathComponent("cache").path)
        let manager = DownloadManager(client: client, configuration: downloads)
        manager.request(movie)
        try await waitUntil(seconds: 15) {
            if case .downloading(let bytes, _, _) = manager.state(of: movie) { return bytes > 200_000 } else { return false }
        }
        manager.cancel(movie)
        try await waitUntil(seconds: 15) { if case .failed = manager.state(of: movie) { return true } else { return false } }
        let replacement = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("motion-photo-v1.jpeg")))
        try replacement.write(to: URL(fileURLWithPath: photos + "/train.mov"))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(120)], ofItemAtPath: photos + "/train.mov")
        manager.retry(movie)
        try await waitUntil(seconds: 40) { manager.state(of: movie).isDownloaded }
        let path = try XCTUnwrap(manager.localPath(for: movie))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), replacement, "the new file, whole, not a splice")
    }

    func testParserRefusesDotsSlashesAndUnreadableLines() {
        let base = URL(string: "sftp://host/photos/")!
        let long = """
            drwxr-xr-x    3 root     root         4096 Nov 24 19:50 .
            drwxr-xr-x    3 root     root         4096 Nov 24 19:50 ..
            -rw-r--r--    1 root     root          100 Nov 24 19:44 ../../etc/passwd
            -rw-r--r--    1 root     root          100 Nov 24 19:44 a/b.jpg
            -rw-r--r--    1 root     root          100 Nov 24  2023  leading space.jpg
            lrwxrwxrwx    1 root     root            9 Nov 24 19:50 link -> x.jpg -> train.jpg
            drwxr-xr-x    2 root     root         4096 Jan  2 03:04 sub
            garbage line
            """
        let names = [".", "..", "../../etc/passwd", "a/b.jpg", " leading space.jpg", "link -> x.jpg", "sub", "garbage line"]
        let listing = SFTPListingParser.parse(long: Array(long.utf8), names: Array(names.joined(separator: "\n").utf8), baseURL: base)
        XCTAssertEqual(listing.entries.map(\.name), [" leading space.jpg", "link -> x.jpg"])
        XCTAssertEqual(listing.entries.first?.size, 100)
        XCTAssertNil(listing.entries.last?.size, "a link's size is unknown")
        XCTAssertEqual(Dictionary(listing.rejected.map { ($0.raw, $0.reason) }, uniquingKeysWith: { a, _ in a }), [
            "../../etc/passwd": "slash in name", "a/b.jpg": "slash in name", "sub": "line break in name",
            "garbage line": "unreadable listing line (line break in a name?)",
        ])
        XCTAssertEqual(listing.entries.first?.url.absoluteString, "sftp://host/photos/%20leading%20space.jpg")
    }
}

private extension Result where Failure == RemoteEntryValidator.NameProblem {
    var failureMessage: String? { if case .failure(let problem) = self { return problem.message } else { return nil } }
}
