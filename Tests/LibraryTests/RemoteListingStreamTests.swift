import Foundation
import XCTest
@testable import LibrarySources
import TestSupport

/// The listing parser fed in pieces (issue 17.5): same entries whatever the cut, a cap on the entry count, and
/// hostile bodies that neither hang nor keep memory.
final class RemoteListingStreamTests: XCTestCase {
    let base = URL(string: "http://127.0.0.1:8080/photos/")!

    private func stream(_ body: [UInt8], type: String?, pieces: Int, maxEntries: Int = 200_000, base: URL? = nil) -> RemoteListing {
        let parser = RemoteListingStream(baseURL: base ?? self.base, contentType: type, maxEntries: maxEntries)
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + pieces)
            parser.feed(body[offset..<end])
            offset = end
        }
        return parser.finish()
    }

    private func names(_ listing: RemoteListing) -> [String] { listing.entries.map(\.name) }

    func testEveryRecordedFormatGivesTheSameEntriesWhateverThePieceSize() {
        let cases: [(String, String?)] = [(RecordedListings.nginxHTML, "text/html"), (RecordedListings.nginxJSON, "application/json"),
                                          (RecordedListings.nginxPROPFIND, "application/xml"), (RecordedListings.pythonHTML, "text/html"),
                                          (RecordedListings.apacheHTML, "text/html")]
        for (text, type) in cases {
            let base = type == "application/xml" ? URL(string: "http://127.0.0.1:8080/dav/")! : self.base
            let whole = RemoteListingParser.parse(Data(text.utf8), contentType: type, baseURL: base)
            XCTAssertFalse(whole.entries.isEmpty, "\(whole.format)")
            for size in [1, 2, 3, 7, 64, 1000] {
                let pieces = stream(Array(text.utf8), type: type, pieces: size, base: base)
                XCTAssertEqual(names(pieces), names(whole), "\(whole.format) in pieces of \(size)")
                XCTAssertEqual(pieces.entries.map(\.size), whole.entries.map(\.size), "\(whole.format) in pieces of \(size)")
                XCTAssertEqual(pieces.entries.map(\.modificationTime), whole.entries.map(\.modificationTime))
                XCTAssertEqual(pieces.rejected, whole.rejected, "\(whole.format) in pieces of \(size)")
                XCTAssertEqual(pieces.format, whole.format)
                XCTAssertFalse(pieces.truncated)
            }
        }
    }

    func testTheEntryCapKeepsTheFirstEntriesAndSaysSo() {
        let html = "<html><body>\n" + (0..<1000).map { String(format: "<a href=\"IMG_%04d.jpg\">x</a>\n", $0) }.joined()
        let listing = stream(Array(html.utf8), type: "text/html", pieces: 4096, maxEntries: 100)
        XCTAssertEqual(listing.entries.count, 100)
        XCTAssertEqual(listing.entries.first?.name, "IMG_0000.jpg")
        XCTAssertEqual(listing.entries.last?.name, "IMG_0099.jpg")
        XCTAssertTrue(listing.truncated)

        let exact = stream(Array(html.utf8), type: "text/html", pieces: 4096, maxEntries: 1000)
        XCTAssertEqual(exact.entries.count, 1000)
        XCTAssertFalse(exact.truncated, "exactly the cap: nothing was cut")

        let json = "[" + (0..<500).map { "{\"name\":\"f\($0).jpg\",\"type\":\"file\",\"size\":\($0)}" }.joined(separator: ",") + "]"
        let cut = stream(Array(json.utf8), type: "application/json", pieces: 100, maxEntries: 10)
        XCTAssertEqual(cut.entries.map(\.name), (0..<10).map { "f\($0).jpg" })
        XCTAssertTrue(cut.truncated)

        var dav = #"<?xml version="1.0" encoding="utf-8"?><D:multistatus xmlns:D="DAV:">"#
        for i in 0..<1500 {
            dav += "<D:response><D:href>/photos/d\(i).jpg</D:href><D:propstat><D:prop><D:getcontentlength>\(i)</D:getcontentlength>"
                + "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\n"
        }
        dav += "</D:multistatus>"
        let all = stream(Array(dav.utf8), type: "application/xml", pieces: 3000)
        XCTAssertEqual(all.entries.count, 1500, "three batches of responses")
        XCTAssertEqual(all.entries.last?.size, 1499)
        let davCut = stream(Array(dav.utf8), type: "application/xml", pieces: 3000, maxEntries: 700)
        XCTAssertEqual(davCut.entries.count, 700)
        XCTAssertTrue(davCut.truncated)
    }

    func testHostileBodiesEndWithoutHangingOrKeepingThemWhole() {
        // An anchor that never ends, then a normal one: the first is skipped, the second kept.
        let endless = "<html><a href=\"a.jpg\">" + String(repeating: "y", count: 200_000) + "\n<a href=\"b.jpg\">b</a>\n"
        XCTAssertEqual(names(stream(Array(endless.utf8), type: "text/html", pieces: 8192)), ["b.jpg"])
        // One 27 MB line of anchors (no line breaks at all) parses like many lines.
        let oneLine = "<html>" + (0..<20_000).map { "<a href=\"\($0).jpg\">x</a>" }.joined()
        XCTAssertEqual(stream(Array(oneLine.utf8), type: "text/html", pieces: 65536).entries.count, 20_000)
        // Not JSON after all, and XML without its root element: one plain refusal each.
        XCTAssertEqual(stream(Array("{\"a\":1}".utf8), type: "application/json", pieces: 3).rejected.map(\.reason), ["not a JSON array"])
        XCTAssertEqual(stream(Array("<xml>multistatus</xml>".utf8), type: "application/xml", pieces: 5).rejected.map(\.reason),
                       ["malformed multistatus XML"])
        // Hostile names are refused as in the whole-body parser.
        let hostile = "<html><a href=\"../etc/passwd\">x</a><a href=\"ok.jpg\">ok</a><a href=\"%2e%2e/x.jpg\">x</a>"
        let listing = stream(Array(hostile.utf8), type: "text/html", pieces: 1)
        XCTAssertEqual(names(listing), ["ok.jpg"])
        XCTAssertEqual(listing.rejected, RemoteListingParser.parse(Data(hostile.utf8), contentType: "text/html", baseURL: base).rejected)
        XCTAssertEqual(listing.rejected.count, 2)
    }

    /// The client stops reading a listing once the cap is reached (the rest of a huge body is never fetched).
    func testTheClientStopsReadingAtTheCap() async throws {
        let root = try Fixtures.makeTemporaryDirectory("livegrid-listing-cap")
        defer { try? FileManager.default.removeItem(at: root) }
        let www = root.appendingPathComponent("www/photos/big")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        let html = "<html><body>\n" + (0..<100_000).map { String(format: "<a href=\"%06d.jpg\">x</a>\n", $0) }.joined()
        try html.write(to: www.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let server = try RemoteTestHarness.startPythonHTTPServer(root: root)
        defer { server.stop() }
        var configuration = RemoteHTTPConfiguration()
        configuration.netrc = Netrc()
        let client = RemoteHTTPClient(configuration: configuration)
        let url = URL(string: "http://127.0.0.1:\(server.port)/big/")!
        let listing = try await client.list(url, maxEntries: 1000)
        XCTAssertEqual(listing.entries.count, 1000)
        XCTAssertTrue(listing.truncated)
        XCTAssertEqual(listing.entries.last?.name, "000999.jpg")
        let whole = try await client.list(url)
        XCTAssertEqual(whole.entries.count, 100_000)
        XCTAssertFalse(whole.truncated)
    }
}
