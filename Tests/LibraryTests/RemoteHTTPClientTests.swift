import Foundation
import LibraryCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import LibrarySources
import TestSupport

/// The libcurl engine against real servers on 127.0.0.1: HTTPS with a self-signed CA, cancellation, refusals.
final class RemoteHTTPClientTests: RemoteServerTestCase {

    private func client(caBundle: String? = nil, idle: TimeInterval = 5) -> RemoteHTTPClient {
        var http = RemoteHTTPConfiguration()
        http.idleTimeout = idle
        http.netrc = Netrc()
        http.caBundlePath = caBundle
        return RemoteHTTPClient(configuration: http)
    }

    func testHTTPSListingAndDownloadTrustingTheGivenCABundle() async throws {
        let certificate = try RemoteTestHarness.makeSelfSignedCertificate(in: root)
        let nginx = try RemoteTestHarness.startNginx(root: root, certificate: certificate)
        servers.append(nginx)
        let client = client(caBundle: certificate.certificatePath)
        let listing = try await client.list(URL(string: "https://127.0.0.1:\(nginx.port)/photos/")!)
        XCTAssertEqual(listing.files.map(\.name).sorted(), ["motion-photo-v1.jpeg", "train.jpg", "train.mov"])

        let config = DownloadManager.Configuration(cacheRoot: root.appendingPathComponent("cache").path)
        let downloads = DownloadManager(client: client, configuration: config)
        let url = URL(string: "https://localhost:\(nginx.port)/photos/train.mov")!
        downloads.request(url)
        try await waitUntil(seconds: 20) { !downloads.state(of: url).isActive }
        let path = try XCTUnwrap(downloads.localPath(for: url), "\(downloads.state(of: url))")
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: path, andPath: Fixtures.committed("train.mov")))
    }

    func testHTTPSWithoutTheCABundleFailsWithATLSError() async throws {
        let certificate = try RemoteTestHarness.makeSelfSignedCertificate(in: root)
        let nginx = try RemoteTestHarness.startNginx(root: root, certificate: certificate)
        servers.append(nginx)
        let client = client()   // system CAs: the self-signed certificate is unknown
        do {
            _ = try await client.list(URL(string: "https://127.0.0.1:\(nginx.port)/photos/")!)
            XCTFail("an unknown certificate authority was trusted")
        } catch let error as RemoteError {
            guard case .tls(let why) = error else { return XCTFail("expected a TLS error, got \(error)") }
            XCTAssertFalse(why.isEmpty)
            XCTAssertTrue(error.description.hasPrefix("secure connection failed"), error.description)
            XCTAssertFalse(error.isTransient, "retrying does not fix a certificate")
        }
        // A CA bundle that does not exist is a clear error too, not a crash.
        let missing = self.client(caBundle: root.appendingPathComponent("no-such-ca.pem").path)
        do {
            _ = try await missing.fetch(URL(string: "https://127.0.0.1:\(nginx.port)/photos/train.jpg")!)
            XCTFail("a missing CA bundle was accepted")
        } catch let error as RemoteError {
            guard case .tls = error else { return XCTFail("expected a TLS error, got \(error)") }
        }
    }

    func testCancelFromAnotherThreadCompletesOnceAndNothingFollows() async throws {
        let nginx = try RemoteTestHarness.startNginx(root: root, rate: "200k")
        servers.append(nginx)
        let client = client()
        let log = CallLog()
        let request = try client.makeRequest(URL(string: "http://127.0.0.1:\(nginx.port)/slow/train.mov")!)
        let task = client.start(request, handler: RemoteTransferHandler(
            onResponse: { log.add("response \($0.statusCode)"); return nil },
            onData: { log.add("data \($0.count)"); return nil },
            onComplete: { log.add("complete \($0.map { "\($0)" } ?? "ok")") }))
        try await waitUntil(seconds: 10) { log.entries.contains { $0.hasPrefix("data") } }
        DispatchQueue.global().async { task.cancel() }
        try await waitUntil(seconds: 10) { log.entries.contains { $0.hasPrefix("complete") } }
        try await Task.sleep(nanoseconds: 300_000_000)
        task.cancel()   // after completion: a no-op
        let entries = log.entries
        XCTAssertEqual(entries.first, "response 200")
        XCTAssertEqual(entries.last, "complete cancelled", "\(entries.suffix(3))")
        XCTAssertEqual(entries.filter { $0.hasPrefix("complete") }.count, 1)
        let received = entries.compactMap { $0.hasPrefix("data ") ? Int($0.dropFirst(5)) : nil }.reduce(0, +)
        XCTAssertLessThan(received, 1509892, "cancelled before the end")
    }

    func testRefusedConnectionAndEmptyBodyAndCustomMethod() async throws {
        let port = try RemoteTestHarness.freePort()
        do {
            _ = try await client().fetch(URL(string: "http://127.0.0.1:\(port)/x")!)
            XCTFail("nothing listens there")
        } catch let error as RemoteError {
            guard case .connectionLost = error else { return XCTFail("expected connection lost, got \(error)") }
            XCTAssertTrue(error.isTransient)
        }
        let nginx = try RemoteTestHarness.startNginx(root: root)
        servers.append(nginx)
        let client = client()
        // A HEAD answer has no body: onResponse still comes, before onComplete.
        let head = try await client.fetch(URL(string: "http://127.0.0.1:\(nginx.port)/photos/train.jpg")!, method: "HEAD")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.body.count, 0)
        XCTAssertEqual(head.totalSize, 3478530)
        // Redirects are followed (nginx answers a directory without its slash with 301).
        let redirected = try await client.fetch(URL(string: "http://127.0.0.1:\(nginx.port)/photos/sub")!)
        XCTAssertEqual(redirected.status, 200)
        XCTAssertTrue(redirected.url.absoluteString.hasSuffix("/photos/sub/"), redirected.url.absoluteString)
        XCTAssertTrue(String(decoding: redirected.body, as: UTF8.self).contains("inner.jpeg"))
    }
}

extension RemoteHTTPClientTests {
    func testEndlessHeadersAreRefused() async throws {
        let faults = try RemoteTestHarness.startFaultServer(root: root)
        servers.append(faults)
        do {
            _ = try await client().fetch(URL(string: "http://127.0.0.1:\(faults.port)/headers")!)
            XCTFail("a megabyte of headers was accepted")
        } catch let error as RemoteError {
            // Ours (256 KiB) or libcurl's own limit, whichever comes first: never a crash or a memory balloon.
            switch error {
            case .invalidResponse, .transport, .connectionLost: break
            default: XCTFail("unexpected \(error)")
            }
        }
    }
}

extension RemoteHTTPClientTests {
    func testCredentialsFollowARedirectOnlyToTheSameHostAndPort() async throws {
        let faults = try RemoteTestHarness.startFaultServer(root: root)
        servers.append(faults)
        let nginx = try RemoteTestHarness.startNginx(root: root, extraLocations: """
            location = /same { return 302 /echo-here; }
            location = /echo-here { default_type text/plain; return 200 "$http_authorization"; }
            location = /elsewhere { return 302 http://127.0.0.1:\(faults.port)/echo-auth; }
            """)
        servers.append(nginx)
        let client = client()
        let basic = "Basic " + Data("al@ice:pw".utf8).base64EncodedString()
        let direct = try await client.fetch(URL(string: "http://al%40ice:pw@127.0.0.1:\(faults.port)/echo-auth")!)
        XCTAssertEqual(String(decoding: direct.body, as: UTF8.self), basic, "the fault server sees credentials sent to it")
        let same = try await client.fetch(URL(string: "http://al%40ice:pw@127.0.0.1:\(nginx.port)/same")!)
        XCTAssertEqual(String(decoding: same.body, as: UTF8.self), basic, "a redirect on the same host keeps them")
        let other = try await client.fetch(URL(string: "http://al%40ice:pw@127.0.0.1:\(nginx.port)/elsewhere")!)
        XCTAssertTrue(other.url.absoluteString.hasSuffix("/echo-auth"), other.url.absoluteString)
        XCTAssertEqual(String(decoding: other.body, as: UTF8.self), "", "another port never gets them")
    }
}

private final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
    var entries: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
