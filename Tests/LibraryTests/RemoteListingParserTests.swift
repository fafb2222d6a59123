import Foundation
import XCTest
@testable import LibrarySources
import MediaFormats

final class RemoteListingParserTests: XCTestCase {
    let base = URL(string: "http://127.0.0.1:8080/photos/")!
    let expectedFiles = ["IMG 0001 & co.jpg", "motion-photo-v1.jpeg", "train.jpg", "train.mov"]

    private func parse(_ text: String, _ type: String? = nil, base: URL? = nil) -> RemoteListing {
        RemoteListingParser.parse(Data(text.utf8), contentType: type, baseURL: base ?? self.base)
    }

    func testNginxHTML() throws {
        let listing = parse(RecordedListings.nginxHTML, "text/html")
        XCTAssertEqual(listing.format, .nginxHTML)
        XCTAssertEqual(listing.files.map(\.name).sorted(), expectedFiles)
        XCTAssertEqual(listing.directories.map(\.name), ["sub"])
        XCTAssertEqual(listing.rejected, [])
        let train = try XCTUnwrap(listing.files.first { $0.name == "train.mov" })
        XCTAssertEqual(train.size, 1509892)
        XCTAssertNotNil(train.modificationTime)
        XCTAssertEqual(train.url.absoluteString, "http://127.0.0.1:8080/photos/train.mov")
        let spaced = try XCTUnwrap(listing.files.first { $0.name.hasPrefix("IMG") })
        XCTAssertEqual(spaced.url.absoluteString, "http://127.0.0.1:8080/photos/IMG%200001%20%26%20co.jpg")
        XCTAssertEqual(listing.directories.first?.url.absoluteString, "http://127.0.0.1:8080/photos/sub/")
    }

    func testNginxJSON() throws {
        let listing = parse(RecordedListings.nginxJSON, "application/json")
        XCTAssertEqual(listing.format, .nginxJSON)
        XCTAssertEqual(listing.files.map(\.name).sorted(), expectedFiles)
        XCTAssertEqual(listing.directories.map(\.name), ["sub"])
        let spaced = try XCTUnwrap(listing.files.first { $0.name.hasPrefix("IMG") })
        XCTAssertEqual(spaced.size, 3478530)
        XCTAssertEqual(spaced.url.absoluteString, "http://127.0.0.1:8080/photos/IMG%200001%20%26%20co.jpg")
        XCTAssertNotNil(spaced.modificationTime)
    }

    func testWebDAVPropfind() throws {
        let davBase = URL(string: "http://127.0.0.1:8080/dav/")!
        let listing = parse(RecordedListings.nginxPROPFIND, "text/xml", base: davBase)
        XCTAssertEqual(listing.format, .webDAV)
        XCTAssertEqual(listing.files.map(\.name).sorted(), expectedFiles)
        XCTAssertEqual(listing.directories.map(\.name), ["sub"])
        XCTAssertEqual(listing.rejected, [])
        XCTAssertEqual(listing.files.first { $0.name == "train.jpg" }?.size, 3478530)
        XCTAssertNotNil(listing.files.first?.modificationTime)
    }

    func testWebDAVWithOtherPrefixesAndETags() {
        let xml = """
            <?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns">
            <d:response><d:href>/remote.php/dav/files/u/Photos/</d:href><d:propstat><d:prop>
            <d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            <d:response><d:href>/remote.php/dav/files/u/Photos/IMG_1.HEIC</d:href><d:propstat><d:prop>
            <d:getcontentlength>2048</d:getcontentlength><d:getetag>&quot;abc&quot;</d:getetag><d:resourcetype/>
            </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            <d:response><d:href>/remote.php/dav/files/u/Other/evil.jpg</d:href></d:response>
            </d:multistatus>
            """
        let listing = parse(xml, "application/xml", base: URL(string: "https://cloud.example/remote.php/dav/files/u/Photos/")!)
        XCTAssertEqual(listing.files.map(\.name), ["IMG_1.HEIC"])
        XCTAssertEqual(listing.files.first?.etag, "\"abc\"")
        XCTAssertEqual(listing.rejected.count, 1)
    }

    func testPythonHTTPServer() {
        let listing = parse(RecordedListings.pythonHTML, "text/html")
        XCTAssertEqual(listing.format, .pythonHTML)
        XCTAssertEqual(listing.files.map(\.name).sorted(), expectedFiles)
        XCTAssertEqual(listing.directories.map(\.name), ["sub"])
        XCTAssertNil(listing.files.first?.size)
    }

    func testApacheAutoindex() {
        let listing = parse(RecordedListings.apacheHTML, "text/html")
        XCTAssertEqual(listing.format, .apacheHTML)
        XCTAssertEqual(listing.files.map(\.name).sorted(), expectedFiles)
        XCTAssertEqual(listing.directories.map(\.name), ["sub"])
        XCTAssertEqual(listing.rejected, [], "sort links and the parent link are navigation, not entries")
        XCTAssertNil(listing.files.first?.size, "Apache's sizes are rounded (3.3M): not kept")
        XCTAssertNotNil(listing.files.first?.modificationTime)
    }

    func testHostileListingIsRefusedWithReasons() {
        let html = """
            <html><body><pre>
            <a href="../">../</a>
            <a href="good.jpg">good.jpg</a>
            <a href="../../etc/passwd">passwd</a>
            <a href="/etc/passwd">abs</a>
            <a href="http://evil.example/x.jpg">other host</a>
            <a href="http://127.0.0.1:9999/photos/x.jpg">other port</a>
            <a href="..%2F..%2Fsecret.jpg">encoded slash</a>
            <a href="a%0Ab.jpg">newline</a>
            <a href="%00.jpg">nul</a>
            <a href="sub/deeper.jpg">deeper</a>
            <a href="">empty</a>
            <a href="%2e%2e">dotdot encoded</a>
            <a href="bad%zz.jpg">bad escape</a>
            <a href="%252e%252e.jpg">double encoded</a>
            <a href="x/../y.jpg">sneaky</a>
            </pre></body></html>
            """
        let listing = parse(html, "text/html")
        XCTAssertEqual(listing.files.map(\.name), ["good.jpg", "%2e%2e.jpg"],
                       "decoding happens once: %252e%252e.jpg is the literal name %2e%2e.jpg")
        let reasons = Dictionary(listing.rejected.map { ($0.raw, $0.reason) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(listing.rejected.count, 12, "\(listing.rejected)")
        XCTAssertEqual(reasons["../../etc/passwd"].map { $0.contains("outside") || $0.contains("leaves") }, true)
        XCTAssertNotNil(reasons["/etc/passwd"])
        XCTAssertEqual(reasons["http://evil.example/x.jpg"], "link points to another server")
        XCTAssertEqual(reasons["http://127.0.0.1:9999/photos/x.jpg"], "link points to another server")
        XCTAssertEqual(reasons["..%2F..%2Fsecret.jpg"], "slash in name")
        XCTAssertEqual(reasons["a%0Ab.jpg"], "control character in name")
        XCTAssertEqual(reasons["%00.jpg"], "control character in name")
        XCTAssertEqual(reasons["sub/deeper.jpg"], "link goes deeper than one level")
        XCTAssertEqual(reasons[""], "empty link")
        XCTAssertEqual(reasons["%2e%2e"], "'..' in link")
        XCTAssertEqual(reasons["bad%zz.jpg"], "invalid percent-encoding")
        XCTAssertEqual(reasons["x/../y.jpg"], "'..' in link")
    }

    func testHostileJSONNames() {
        let json = #"[{"name":"..","type":"directory"},{"name":"a/b.jpg","type":"file","size":1},{"name":"","type":"file"},{"name":"ok.jpg","type":"file","size":5},{"name":"bell\u0007.jpg","type":"file"}]"#
        let listing = parse(json, "application/json")
        XCTAssertEqual(listing.files.map(\.name), ["ok.jpg"])
        XCTAssertEqual(listing.rejected.map(\.reason), ["'..' is not a file name", "slash in name", "empty name",
                                                        "control character in name"])
    }

    func testNetrc() {
        let netrc = Netrc.parse("""
            # comment line
            machine photos.example login alice password "s3cret pw"
            machine other.example
              login bob
              password hunter2
            default login anon password anon@
            """)
        XCTAssertEqual(netrc.credentials(forHost: "PHOTOS.example"), .init(login: "alice", password: "s3cret pw"))
        XCTAssertEqual(netrc.credentials(forHost: "other.example"), .init(login: "bob", password: "hunter2"))
        XCTAssertEqual(netrc.credentials(forHost: "nowhere"), .init(login: "anon", password: "anon@"))
    }

    func testBasicAuthFromUserinfoStaysOnItsHost() throws {
        let client = RemoteHTTPClient(configuration: { var c = RemoteHTTPConfiguration(); c.netrc = Netrc(); return c }())
        defer { client.invalidate() }
        let first = try client.makeRequest(URL(string: "http://al%40ice:p%3Aw@127.0.0.1:8080/photos/")!)
        XCTAssertEqual(first.url?.absoluteString, "http://127.0.0.1:8080/photos/", "userinfo never stays in the URL")
        XCTAssertEqual(first.value(forHTTPHeaderField: "Authorization"),
                       "Basic " + Data("al@ice:p:w".utf8).base64EncodedString())
        let entry = try client.makeRequest(URL(string: "http://127.0.0.1:8080/photos/a.jpg")!, range: .suffix(10))
        XCTAssertNotNil(entry.value(forHTTPHeaderField: "Authorization"), "entries of the same host authenticate")
        XCTAssertEqual(entry.value(forHTTPHeaderField: "Range"), "bytes=-10")
        let other = try client.makeRequest(URL(string: "http://127.0.0.2:8080/x.jpg")!)
        XCTAssertNil(other.value(forHTTPHeaderField: "Authorization"))
        XCTAssertThrowsError(try client.makeRequest(URL(string: "file:///etc/passwd")!))
    }

    func testSHA256() {
        XCTAssertEqual(SHA256.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(String(repeating: "a", count: 1000)).count, 64)
    }

    func testContentRange() {
        XCTAssertEqual(parseContentRange("bytes 0-65535/3478530")?.total, 3478530)
        XCTAssertNil(parseContentRange("bytes 10-5/100"))
        XCTAssertNil(parseContentRange("bytes 0-100/100"))
        XCTAssertNil(parseContentRange("items 0-1/2"))
    }

    func testSparseByteSource() throws {
        let source = SparseByteSource(size: 1000)
        source.add(Array(repeating: 1, count: 100), at: 0)
        source.add(Array(repeating: 2, count: 100), at: 900)
        source.add(Array(repeating: 3, count: 50), at: 80)       // overlaps the head: merged
        XCTAssertEqual(source.knownRanges, [ByteRange(offset: 0, length: 130), ByteRange(offset: 900, length: 100)])
        XCTAssertEqual(try source.read(at: 90, count: 10), Array(repeating: 3, count: 10))
        XCTAssertEqual(try source.read(at: 950, count: 500).count, 50, "reads clamp at the end like any source")
        XCTAssertThrowsError(try source.read(at: 120, count: 20)) { error in
            XCTAssertTrue(SparseByteSource.isMissingBytes(error as! MediaError))
        }
        XCTAssertEqual(source.misses, [ByteRange(offset: 120, length: 20)])
        source.add(Array(repeating: 9, count: 10_000), at: 995)  // clipped to the size
        XCTAssertEqual(source.knownByteCount, 230)
    }
}
