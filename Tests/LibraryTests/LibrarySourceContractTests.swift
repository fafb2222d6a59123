import Foundation
import XCTest
@testable import LibrarySources
import Library
import LivePairing
import TestSupport

/// Every kind of library (`LibrarySource`) through the same protocol-level checks, each against its real
/// server on 127.0.0.1: a local directory, nginx's HTTP index, python's http.server (no Range support),
/// nginx's WebDAV, OpenSSH's SFTP and SeaweedFS's S3. The checks use only the protocol's verbs and capabilities.
final class LibrarySourceContractTests: RemoteServerTestCase {
    private var photos: URL { root.appendingPathComponent("www/photos") }

    /// The same checks for any kind: list (with and without the cap), ranges at the start and the end, and
    /// the whole file, all compared with the bytes on disk.
    private func checkContract(_ directory: URL, client: RemoteHTTPClient, sizesListed: Bool = true,
                               file: StaticString = #filePath, line: UInt = #line) async throws {
        let source = try XCTUnwrap(LibrarySourceTable.source(for: directory, client: client), "no kind for \(directory)",
                                   file: file, line: line)
        try await source.prepare(directory)

        let listing = try await source.list(directory, maxEntries: 100, maxBytes: 1 << 20)
        XCTAssertFalse(listing.truncated, file: file, line: line)
        XCTAssertEqual(Set(listing.files.map(\.name)), ["train.jpg", "train.mov", "motion-photo-v1.jpeg"], file: file, line: line)
        XCTAssertEqual(listing.directories.map(\.name), ["sub"], file: file, line: line)
        if sizesListed {
            XCTAssertEqual(listing.files.first { $0.name == "train.mov" }?.size, 1509892, file: file, line: line)
        }
        let capped = try await source.list(directory, maxEntries: 2, maxBytes: 1 << 20)
        XCTAssertTrue(capped.truncated, "a listing cut at max_entries says so", file: file, line: line)
        XCTAssertLessThanOrEqual(capped.entries.count, 2, file: file, line: line)

        let entry = try XCTUnwrap(listing.files.first { $0.name == "train.jpg" }, file: file, line: line)
        let original = try Data(contentsOf: photos.appendingPathComponent("train.jpg"))
        let head = try await source.fetch(entry.url, range: .bytes(first: 0, last: 4095), maxBytes: 4096)
        XCTAssertEqual(head.bodyOffset, 0, file: file, line: line)
        XCTAssertEqual(Data(head.body), original.prefix(4096), file: file, line: line)
        // The size comes with the answer (HTTP's Content-Range) or from the listing (SFTP's ranges carry none).
        XCTAssertEqual(head.totalSize ?? entry.size, UInt64(original.count), file: file, line: line)

        let size = UInt64(original.count)
        let tail: RemoteFetchRange = source.capabilities.suffixRanges ? .suffix(1000) : .bytes(first: size - 1000, last: size - 1)
        let end = try await source.fetch(entry.url, range: tail, maxBytes: 1000)
        XCTAssertEqual(end.bodyOffset, size - 1000, file: file, line: line)
        XCTAssertEqual(Data(end.body), original.suffix(1000), file: file, line: line)

        let whole = try await fetchWhole(source, entry.url)
        XCTAssertEqual(whole, original, "the whole file, byte for byte", file: file, line: line)
        XCTAssertFalse(source.capabilities.pairsOnServer, file: file, line: line)
        XCTAssertFalse(source.capabilities.servesThumbnails, file: file, line: line)
    }

    private func fetchWhole(_ source: any LibrarySource, _ url: URL) async throws -> Data {
        let collected = Collected()
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

    private func client() -> RemoteHTTPClient {
        var configuration = RemoteHTTPConfiguration()
        configuration.idleTimeout = 5
        configuration.netrc = Netrc()
        return RemoteHTTPClient(configuration: configuration)
    }

    func testLocalDirectory() async throws {
        try await checkContract(photos, client: client())
        XCTAssertTrue(LocalDirectorySource.capabilities.writable)
    }

    func testHTTPIndexOnNginx() async throws {
        let nginx = try RemoteTestHarness.startNginx(root: root, rate: "50m")
        servers.append(nginx)
        try await checkContract(URL(string: "http://127.0.0.1:\(nginx.port)/photos/")!, client: client())
        XCTAssertEqual(LibrarySourceTable.kind(forScheme: "https").map { "\($0)" }, "HTTPIndexSource")
    }

    func testHTTPIndexOnPythonWithoutRanges() async throws {
        let python = try RemoteTestHarness.startPythonHTTPServer(root: root)
        servers.append(python)
        try await checkContract(URL(string: "http://127.0.0.1:\(python.port)/")!, client: client(), sizesListed: false)
    }

    func testWebDAVOnNginx() async throws {
        guard FileManager.default.fileExists(atPath: RemoteTestHarness.davModule) else {
            throw MissingRequirement.tool("nginx's WebDAV module is not installed (apt-get install libnginx-mod-http-dav-ext)")
        }
        let nginx = try RemoteTestHarness.startNginx(root: root, rate: "50m")
        servers.append(nginx)
        try await checkContract(URL(string: "dav://127.0.0.1:\(nginx.port)/dav/")!, client: client())
        XCTAssertFalse(WebDAVSource.capabilities.writable, "livegrid writes to no remote library yet")
    }

    func testSFTPOnOpenSSH() async throws {
        let sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
        defer { sshd.stop() }
        var configuration = RemoteHTTPConfiguration()
        configuration.idleTimeout = 5
        configuration.netrc = Netrc()
        configuration.ssh.openSSHConfigFile = try sshd.clientConfig()
        configuration.ssh.homeDirectory = sshd.home
        configuration.ssh.useAgent = false
        try await checkContract(URL(string: sshd.url(photos.path))!, client: RemoteHTTPClient(configuration: configuration))
        XCTAssertFalse(SFTPSource.capabilities.suffixRanges, "SFTP asks for the bytes themselves")
    }

    /// S3 on a real SeaweedFS (a real SigV4 check), the same files uploaded under a prefix with curl's SigV4.
    func testS3OnSeaweedFS() async throws {
        let server = try S3TestServer.start(in: root.appendingPathComponent("s3"))
        defer { server.stop() }
        try server.createBucket("photos")
        for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg", "sub/inner.jpeg"] {
            try server.put("photos", "lib/" + name, file: photos.appendingPathComponent(name).path)
        }
        var configuration = RemoteHTTPConfiguration()
        configuration.idleTimeout = 10
        configuration.netrc = Netrc()
        configuration.s3 = S3Settings(endpoint: URL(string: server.endpoint),
                                      credentials: S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey))
        try await checkContract(URL(string: "s3://photos/lib/")!, client: RemoteHTTPClient(configuration: configuration))
        XCTAssertFalse(S3Source.capabilities.writable, "livegrid writes nothing to a bucket")
    }

    /// The one table: every scheme of every kind leads back to its kind, `ssh` is spelled `sftp`, an unknown
    /// scheme has no kind, and local files are not a remote scheme on the command line.
    func testTheTableMapsEverySchemeToItsKind() throws {
        for kind in LibrarySourceTable.kinds {
            for scheme in kind.schemes.keys {
                XCTAssertTrue(LibrarySourceTable.kind(forScheme: scheme.uppercased()) == kind, scheme)
            }
        }
        XCTAssertEqual(LibrarySourceTable.remoteSchemes, ["http", "https", "dav", "davs", "webdav", "webdavs", "sftp", "ssh", "s3"])
        XCTAssertNil(LibrarySourceTable.kind(forScheme: "gopher"))
        XCTAssertEqual(LibrarySourceTable.canonical(URL(string: "ssh://h/p/")!).absoluteString, "sftp://h/p/")
        XCTAssertEqual(LibrarySourceTable.wire(of: URL(string: "davs://h/p/")!), .https)
        XCTAssertEqual(LibrarySourceTable.url(fromShortForm: "me@host:pics", localPathExists: { _ in false })?.absoluteString,
                       "sftp://me@host/~/pics/")
    }
}

// unchecked: appended to by one transfer's callbacks, in order, and read after its completion.
private final class Collected: @unchecked Sendable {
    var data = Data()
    func append(_ piece: Data) { data.append(piece) }
}

/// The hook an S3 kind needs (issue 30): requests to a host registered with `RemoteSigning` are signed by
/// libcurl's own SigV4, checked on what a real server receives.
final class RemoteSigningTests: RemoteServerTestCase {
    func testRequestsToASigningHostCarryASigV4Authorization() async throws {
        let faults = try RemoteTestHarness.startFaultServer(root: root)
        servers.append(faults)
        var configuration = RemoteHTTPConfiguration()
        configuration.netrc = Netrc()
        let client = RemoteHTTPClient(configuration: configuration)
        let url = URL(string: "http://127.0.0.1:\(faults.port)/echo-auth")!
        let unsigned = try await client.fetch(url)
        XCTAssertEqual(String(decoding: unsigned.body, as: UTF8.self), "", "nothing signed before the host is registered")

        let signing = RemoteSigning(provider: "aws:amz:us-east-1:s3", accessKey: "AKIDEXAMPLE", secretKey: "not-shown")
        client.sign(host: "127.0.0.1", port: faults.port, with: signing)
        let signed = String(decoding: try await client.fetch(url).body, as: UTF8.self)
        XCTAssertTrue(signed.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"), signed)
        XCTAssertTrue(signed.contains("/us-east-1/s3/aws4_request"), signed)
        XCTAssertTrue(signed.contains("Signature="), signed)
        XCTAssertFalse(signed.contains("not-shown") || "\(signing)".contains("not-shown"), "the secret is never shown")
    }
}

/// The library above the seam knows no kind: a `file://` folder (read without libcurl) lists, pairs from
/// header ranges and downloads through the same `RemoteLibrary` as a server, the way an S3 kind will.
final class RemoteLibraryOnAnyKindTests: RemoteServerTestCase {
    func testALocalFolderBrowsesThroughTheRemoteLibrary() async throws {
        let client = RemoteHTTPClient(configuration: { var c = RemoteHTTPConfiguration(); c.netrc = Netrc(); return c }())
        let photos = root.appendingPathComponent("www/photos")
        let library = RemoteLibrary(url: photos, client: client, cacheRoot: root.appendingPathComponent("cache").path)
        let items = try await library.load()
        XCTAssertEqual(library.listing?.format, .localDirectory)
        let live = try XCTUnwrap(items.first { $0.item.kind == .live }, "\(items.map { ($0.item.kind, $0.item.displayName) })")
        XCTAssertEqual(live.item.pairing, .contentIdentifier, "paired by content identifier from header ranges")
        library.requestPlay(live.id)
        try await waitUntil(seconds: 20) { library.items.first { $0.id == live.id }?.isPlayable == true }
        let movie = try XCTUnwrap(library.items.first { $0.id == live.id }?.localItem?.movie?.path)
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: movie, andPath: photos.appendingPathComponent("train.mov").path))
    }
}
