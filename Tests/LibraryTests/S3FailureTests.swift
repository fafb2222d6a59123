import Foundation
import XCTest
@testable import LibrarySources
import TestSupport

/// S3's refusals that SeaweedFS cannot be made to send (a region redirect, an expired token, clock skew,
/// throttling): each code's sentence, and the retry of 503 SlowDown against a small server that throttles twice.
final class S3FailureTests: XCTestCase {
    private let address = S3Address(bucket: "archive", key: "2024/")
    private var settings: S3Settings {
        var settings = S3Settings(region: "us-east-1", credentials: S3Credentials(accessKey: "AKIAEXAMPLE", secretKey: "s3cr3t"))
        settings.credentialSource = "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
        return settings
    }

    private func sentence(_ status: Int, _ body: String, headers: [String: String] = [:]) -> String {
        S3Failure.error(S3Reply(status: status, headers: headers, body: Array(body.utf8)), address: address, settings: settings).description
    }

    private func document(_ code: String, _ extra: String = "") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>\(code)</Code><Message>m</Message>\(extra)</Error>"
    }

    func testEachCodeHasItsSentenceAndNoneShowsTheSecret() {
        let cases: [(Int, String, [String: String], String)] = [
            (301, document("PermanentRedirect", "<Endpoint>archive.s3.eu-west-2.amazonaws.com</Endpoint>"),
             ["x-amz-bucket-region": "eu-west-2"], "is in the region eu-west-2, not us-east-1: set AWS_REGION=eu-west-2"),
            (301, "", ["x-amz-bucket-region": "ap-south-1"], "set AWS_REGION=ap-south-1"),
            (400, document("AuthorizationHeaderMalformed", "<Region>eu-central-1</Region>"), [:], "set AWS_REGION=eu-central-1"),
            (400, document("ExpiredToken"), [:], "the session token (AWS_SESSION_TOKEN or the profile's aws_session_token) has expired"),
            (403, document("RequestTimeTooSkewed"), [:], "this computer's clock differs too much"),
            (503, document("SlowDown"), [:], "the S3 server is busy (SlowDown)"),
            (403, document("AccessDenied"), [:], "the access key AKIAEXAMPLE (from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) may not read"),
            (403, document("SignatureDoesNotMatch"), [:], "check the secret of access key AKIAEXAMPLE"),
            (404, document("NoSuchBucket"), [:], "there is no bucket 'archive' at AWS (us-east-1)"),
            (400, "<Error><Code>WeirdNewCode</Code><Message>odd\u{9b}2J</Message></Error>", [:], "the S3 server refused with WeirdNewCode: odd2J"),
            (502, "<html><body>Bad gateway</body></html>", [:], "answered HTTP 502 with a web page, not S3's XML"),
        ]
        for (status, body, headers, expected) in cases {
            let text = sentence(status, body, headers: headers)
            XCTAssertTrue(text.contains(expected), "\(status) \(body.prefix(60)): \(text)")
            XCTAssertFalse(text.contains("s3cr3t"), text)
            XCTAssertFalse(text.contains("\n"), text)
        }
        let slow = S3Failure.error(S3Reply(status: 503, headers: [:], body: Array(document("SlowDown").utf8)), address: address, settings: settings)
        XCTAssertTrue(slow.isTransient, "throttling is worth retrying later")
    }

    func testThrottledListingIsRetriedWithBackoff() async throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-s3-throttle")
        defer { try? FileManager.default.removeItem(at: directory) }   // a leftover only costs /tmp space
        let script = directory.appendingPathComponent("throttle.py")
        try Self.throttlingServer.write(to: script, atomically: true, encoding: .utf8)
        let port = try RemoteTestHarness.freePort()
        let server = try RemoteTestHarness.Server(port: port, directory: directory,
                                                  arguments: [try RemoteTestHarness.python(), script.path, String(port)],
                                                  workingDirectory: directory)
        defer { server.stop() }
        var configuration = RemoteHTTPConfiguration()
        configuration.netrc = Netrc()
        configuration.s3 = S3Settings(endpoint: URL(string: "http://127.0.0.1:\(port)"))
        let client = RemoteHTTPClient(configuration: configuration)
        let url = try XCTUnwrap(URL(string: "s3://archive/2024/"))
        let listing = try await client.list(url)
        XCTAssertEqual(listing.files.map(\.name), ["a.jpg"], "the third answer, after two 503 SlowDown")
        let count = try String(contentsOf: directory.appendingPathComponent("requests"), encoding: .utf8)
        XCTAssertEqual(count.split(separator: "\n").count, 3, "two throttled requests, then the one that worked")
    }

    /// 503 SlowDown twice, then a one-object ListObjectsV2 page; each request line is appended to `requests`.
    static let throttlingServer = #"""
    import sys
    from http.server import BaseHTTPRequestHandler, HTTPServer
    seen = [0]
    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            seen[0] += 1
            open('requests', 'a').write(self.path + '\n')
            if seen[0] <= 2:
                body = b'<?xml version="1.0"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>'
                self.send_response(503)
            else:
                body = (b'<?xml version="1.0"?><ListBucketResult><Name>archive</Name><Prefix>2024/</Prefix>'
                        b'<IsTruncated>false</IsTruncated><Contents><Key>2024/a.jpg</Key><Size>3</Size>'
                        b'<ETag>"x"</ETag><LastModified>2026-11-29T04:15:11.000Z</LastModified></Contents></ListBucketResult>')
                self.send_response(200)
            self.send_header('Content-Type', 'application/xml')
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def log_message(self, *a): pass
    HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()
    """#
}

final class S3ListPageTests: XCTestCase {
    func testLastModifiedIsReadAsUTC() {
        XCTAssertEqual(S3ListPage.date("2026-11-29T04:15:11Z")?.timeIntervalSince1970, 1_795_925_711)
        XCTAssertEqual(S3ListPage.date("2026-11-29T04:15:11.250Z")?.timeIntervalSince1970, 1_795_925_711.25)
        XCTAssertNil(S3ListPage.date("2026-13-29T04:15:11Z"))
        XCTAssertNil(S3ListPage.date("yesterday"))
    }

    func testURLEncodedKeysAreDecodedOnce() {
        XCTAssertEqual(S3ListPage.decodeKey("2024/a+b%2Bc%25d.jpg"), "2024/a b+c%d.jpg")
    }
}
