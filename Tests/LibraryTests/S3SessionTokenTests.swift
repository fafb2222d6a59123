import Foundation
import XCTest
@testable import LibrarySources
import TestSupport

/// A session token (`AWS_SESSION_TOKEN`: temporary credentials from STS, SSO or an assumed role) goes as
/// `x-amz-security-token` and is covered by the signature. SeaweedFS 4.48 cannot issue or check such tokens
/// without an OIDC provider (it treats a token on static keys as an unknown key: S3EndToEndTests), so what a
/// server receives is checked here: a recording server answers S3's listing and an object, and checks each
/// SigV4 signature itself with the secret (AWS's documented algorithm, in python's standard library).
final class S3SessionTokenTests: XCTestCase {
    func testTheSessionTokenIsSentAndSignedOnListingsAndReads() async throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-s3-token")
        defer { try? FileManager.default.removeItem(at: directory) }   // a leftover only costs /tmp space
        let secret = "token-test-secret-7Hq"
        let token = "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJH+token/with=odd+characters"
        let recorder = try S3RecordingProxy(upstreamPort: nil, directory: directory, secret: secret)
        defer { recorder.stop() }
        var configuration = RemoteHTTPConfiguration()
        configuration.idleTimeout = 10
        configuration.netrc = Netrc()
        configuration.s3 = S3Settings(endpoint: URL(string: "http://127.0.0.1:\(recorder.port)"),
                                      credentials: S3Credentials(accessKey: "ASIATEMPORARYKEY", secretKey: secret, sessionToken: token))
        let client = RemoteHTTPClient(configuration: configuration)
        let directoryURL = try XCTUnwrap(URL(string: "s3://photos/2024/"))
        let source = try XCTUnwrap(LibrarySourceTable.source(for: directoryURL, client: client))
        let listing = try await source.list(directoryURL, maxEntries: 10, maxBytes: 1 << 20)
        XCTAssertTrue(listing.entries.isEmpty)
        let object = try XCTUnwrap(URL(string: "s3://photos/2024/a b.jpg"))
        let head = try await source.fetch(object, range: .bytes(first: 0, last: 3), maxBytes: 4)
        XCTAssertEqual(head.body, Array("echo".utf8))

        let requests = recorder.requests
        XCTAssertEqual(requests.count, 2, "\(requests.map(\.path))")
        for request in requests {
            XCTAssertEqual(request.token, token, "the token, unchanged, on \(request.path)")
            let authorization = request.authorization ?? ""
            XCTAssertTrue(authorization.contains("Credential=ASIATEMPORARYKEY/"), authorization)
            XCTAssertTrue(authorization.contains("x-amz-security-token"), "the token is among the signed headers: \(authorization)")
            XCTAssertEqual(request.signatureValid, true, "the signature checks with the secret: \(request.path)")
            XCTAssertFalse(authorization.contains(secret))
        }
        // The same check refuses a signature made with another secret (so `true` above means something).
        var wrong = configuration
        wrong.s3.credentials = S3Credentials(accessKey: "ASIATEMPORARYKEY", secretKey: "another-secret", sessionToken: token)
        _ = try await S3Source(client: RemoteHTTPClient(configuration: wrong)).fetch(object, range: .bytes(first: 0, last: 3), maxBytes: 4)
        XCTAssertEqual(recorder.requests.last?.signatureValid, false)
    }
}
