import Foundation
import LibraryCore
import XCTest
@testable import Library
@testable import LibrarySources
import LivePairing
import MediaFormats

/// A listing keeps each entry's URL as the directory's shared text plus the entry's own part, the URL made on
/// demand (issue 17 item 5): the URL made must be exactly the one the validator accepted, for hostile names too.
final class RemoteLocationTests: XCTestCase {
    /// Names a server may list: spaces, percent signs, reserved characters, unicode (composed and decomposed),
    /// quotes, a name of 255 bytes, names that only look like paths.
    private let hostileNames = [
        "plain.jpg", "with space.jpg", "100%.jpg", "%41.jpg", "a+b=c&d;e.jpg", "q?x.jpg", "h#1.jpg", "it's \"x\".heic",
        "café.jpg", "cafe\u{301}x.jpg", "日本語の写真.HEIC", "emoji 📷.mov", "..jpg", "...", "a..b.jpg", ".hidden.jpg",
        String(repeating: "é", count: 125) + ".jpg", String(repeating: "x", count: 251) + ".MOV", "no-extension", "trailing.",
    ]

    private func encoded(_ name: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#;%&+=")
        return name.addingPercentEncoding(withAllowedCharacters: allowed)!
    }

    /// Every hostile name through the HTML stream, the JSON stream and the SFTP parser: each entry's URL equals
    /// the one the validator (or `url(forName:)`) makes, and is stored below the listing's prefix.
    func testURLMadeOnDemandEqualsTheAcceptedURLForHostileNames() throws {
        for base in [URL(string: "http://127.0.0.1:8080/photos/")!, URL(string: "http://user:secret@127.0.0.1:8080/my%20photos/")!,
                     URL(string: "https://[::1]/a/b/")!] {
            let hrefs = hostileNames.map(encoded) + ["sub%20dir/", "../outside.jpg", "/elsewhere/x.jpg", "%2e%2e/x.jpg"]
            let html = "<html><body>\n" + hrefs.map { "<a href=\"\($0.replacingOccurrences(of: "&", with: "&amp;"))\">x</a>\n" }.joined()
                + String(repeating: " ", count: 5000) + "</body></html>\n"
            let stream = RemoteListingStream(baseURL: base, contentType: "text/html", maxEntries: 1000)
            stream.feed(Array(html.utf8))
            let listing = stream.finish()
            XCTAssertEqual(listing.entries.count, hostileNames.count + 1, "\(base): \(listing.rejected)")
            XCTAssertEqual(listing.rejected.count, 3, "\(base)")
            for entry in listing.entries {
                let href = entry.isDirectory ? "sub%20dir/" : encoded(entry.name)
                guard case .accept(_, let expected, _) = RemoteEntryValidator.check(href: href, baseURL: base) else {
                    return XCTFail("\(href) not accepted")
                }
                XCTAssertEqual(entry.url, expected, entry.name)
                XCTAssertEqual(entry.url.absoluteString, expected.absoluteString, entry.name)
                XCTAssertNil(entry.url.user, "credentials never stored in an entry")
                XCTAssertNotNil(entry.location.rest(below: listing.locationPrefix), "\(entry.name) kept whole")
                if !entry.isDirectory {
                    XCTAssertEqual(entry.nameExtension, expected.pathExtension, entry.name)
                }
            }
            for name in ["IMG_0001.JPG", "PXL_20230101_123456789.MP4", "a.b", "-x.heic", "_.mov"] {
                let url = try XCTUnwrap(RemoteEntryValidator.url(forName: name, isDirectory: false, in: base))
                XCTAssertEqual(RemoteEntry(name: name, url: url, isDirectory: false).nameExtension, url.pathExtension, name)
            }
            XCTAssertEqual(Set(listing.entries.map(\.name)), Set(hostileNames + ["sub dir"]))

            let json = "[" + hostileNames.map { #"{"name":"\#($0.replacingOccurrences(of: "\"", with: "\\\""))","type":"file","size":1}"# }
                .joined(separator: ",") + "]"
            let jsonStream = RemoteListingStream(baseURL: base, contentType: "application/json", maxEntries: 1000)
            jsonStream.feed(Array(json.utf8))
            let jsonListing = jsonStream.finish()
            XCTAssertEqual(jsonListing.entries.map(\.name), hostileNames)
            for entry in jsonListing.entries {
                let expected = try XCTUnwrap(RemoteEntryValidator.url(forName: entry.name, isDirectory: false, in: base))
                XCTAssertEqual(entry.url, expected, entry.name)
                XCTAssertNotNil(entry.location.rest(below: jsonListing.locationPrefix), "\(entry.name) kept whole")
            }
        }
    }

    /// SFTP entries keep the login user in their URL: the prefix does too, so they are stored in two parts.
    func testSFTPEntriesAreStoredBelowTheirPrefix() {
        let base = URL(string: "sftp://photos@127.0.0.1:2222/home/photos/my%20dir/")!
        let names = ["IMG_0001.JPG", "with space.heic", "café.mov"]
        let long = names.map { "-rw-r--r--    1 photos   photos       1234 Jan  2 10:00 \($0)\n" }.joined()
        let listing = SFTPListingParser.parse(long: Array(long.utf8), names: Array(names.map { $0 + "\n" }.joined().utf8), baseURL: base)
        XCTAssertEqual(listing.entries.map(\.name), names, "\(listing.rejected)")
        for entry in listing.entries {
            XCTAssertEqual(entry.url, SFTPListingParser.entryURL(entry.name, isDirectory: false, in: base))
            XCTAssertEqual(entry.url.user, "photos")
            XCTAssertNotNil(entry.location.rest(below: listing.locationPrefix), entry.name)
        }
    }

    /// A URL that does not start with the listing's text (another host spelling) is kept whole and still equal.
    func testAURLOutsideThePrefixIsKeptWhole() throws {
        let prefix = RemoteLocation.Prefix.listing(URL(string: "http://u:p@127.0.0.1:8080/photos/?q=1")!)
        XCTAssertEqual(prefix.text, "http://127.0.0.1:8080/photos/")
        let inside = URL(string: "http://127.0.0.1:8080/photos/a%20b.jpg")!
        let outside = URL(string: "http://LOCALHOST:8080/photos/a.jpg")!
        let below = RemoteLocation(inside, below: prefix)
        XCTAssertEqual(below.rest(below: prefix), "a%20b.jpg")
        XCTAssertEqual(below.url, inside)
        let whole = RemoteLocation(outside, below: prefix)
        XCTAssertNil(whole.rest(below: prefix))
        XCTAssertEqual(whole.url, outside)
        // Equal and hashed alike however each side is stored.
        XCTAssertEqual(RemoteLocation(inside), below)
        XCTAssertEqual(Set([RemoteLocation(inside), below]).count, 1)
        XCTAssertNotEqual(whole, below)
    }

    /// The remote library finds an item from a download's URL through the compact keys: a downloaded file
    /// changes exactly its item's state (the names here are hostile and one is not below the prefix).
    func testRemoteItemKeysMatchDownloadURLs() throws {
        let base = URL(string: "http://127.0.0.1:8080/photos/")!
        var listing = RemoteListing(baseURL: base, format: .nginxHTML)
        for name in ["with space.jpg", "100%.jpg", "café.mov", "café.jpg"] {
            listing.append(RemoteEntry(name: name, url: try XCTUnwrap(RemoteEntryValidator.url(forName: name, isDirectory: false, in: base)),
                                       isDirectory: false))
        }
        let items = RemoteLibrary.placeholders(for: listing.entries)
        XCTAssertEqual(items.map(\.id), ["100%.jpg", "café.jpg", "with space.jpg"])
        let live = try XCTUnwrap(items.first { $0.id == "café.jpg" })
        XCTAssertEqual(live.item.kind, .live)
        XCTAssertEqual(live.movieURL, listing.entries[2].url)
        XCTAssertEqual(live.stillURL?.absoluteString, "http://127.0.0.1:8080/photos/caf%C3%A9.jpg")
        XCTAssertNotNil(live.stillLocation?.rest(below: listing.locationPrefix))
    }

    /// The budget the compact storage protects: an entry and a remote item hold no URL object of their own.
    func testEntriesAndItemsStayCompact() {
        XCTAssertLessThanOrEqual(MemoryLayout<RemoteLocation>.size, 25)
        XCTAssertLessThanOrEqual(MemoryLayout<RemoteEntry>.stride, 96)
        XCTAssertLessThanOrEqual(MemoryLayout<RemoteItem>.stride, 200)
        print("RemoteLocation \(MemoryLayout<RemoteLocation>.size), RemoteEntry \(MemoryLayout<RemoteEntry>.stride), "
              + "RemoteItem \(MemoryLayout<RemoteItem>.stride), LibraryItem \(MemoryLayout<LibraryItem>.stride)")
    }
}
