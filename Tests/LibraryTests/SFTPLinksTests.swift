import Foundation
import LibraryCore
import XCTest
@testable import LibrarySources

/// Links followed through an SFTP listing alone (`SFTPLinks`): the long listing's ` -> target` as libcurl writes it.
final class SFTPLinksTests: XCTestCase {
    private let base = URL(string: "sftp://host/srv/photos/")!

    private func listing(_ entries: [(name: String, target: String?)]) -> RemoteListing {
        var long = "drwxr-xr-x    2 u        g            4096 Nov 24 19:49 .\n"
        var names = ".\n"
        for entry in entries {
            if let target = entry.target {
                long += "lrwxrwxrwx    1 u        g               9 Nov 24 19:49 \(entry.name) -> \(target)\n"
            } else {
                long += "-rw-r--r--    1 u        g            1000 Nov 24 19:49 \(entry.name)\n"
            }
            names += entry.name + "\n"
        }
        return SFTPListingParser.parse(long: Array(long.utf8), names: Array(names.utf8), baseURL: base)
    }

    func testVerdictsOfLinksInsideAndOutsideTheFolder() {
        let parsed = listing([("a.jpg", nil), ("good.jpg", "a.jpg"), ("chain.jpg", "./good.jpg"),
                              ("absolute.jpg", "/srv/photos/a.jpg"), ("gone.jpg", "nothing.jpg"),
                              ("x.jpg", "y.jpg"), ("y.jpg", "x.jpg"), ("self.jpg", "self.jpg"),
                              ("out.jpg", "../other/a.jpg"), ("far.jpg", "/elsewhere/a.jpg"), ("here", ".")])
        XCTAssertEqual(parsed.links["good.jpg"], "a.jpg")
        let links = SFTPLinks(parsed)
        XCTAssertEqual(links.verdict(for: "a.jpg"), .fine, "not a link")
        XCTAssertEqual(links.verdict(for: "good.jpg"), .fine)
        XCTAssertEqual(links.verdict(for: "chain.jpg"), .fine)
        XCTAssertEqual(links.verdict(for: "absolute.jpg"), .fine)
        XCTAssertEqual(links.verdict(for: "here"), .fine)
        XCTAssertEqual(links.verdict(for: "gone.jpg"), .broken(.missingTarget))
        XCTAssertEqual(links.verdict(for: "x.jpg"), .broken(.loop))
        XCTAssertEqual(links.verdict(for: "y.jpg"), .broken(.loop))
        XCTAssertEqual(links.verdict(for: "self.jpg"), .broken(.loop))
        XCTAssertEqual(links.verdict(for: "out.jpg"), .undecided(next: "/srv/other/a.jpg"))
        XCTAssertEqual(links.verdict(for: "far.jpg"), .undecided(next: "/elsewhere/a.jpg"))
        XCTAssertEqual(links.verdicts().count, 10)
    }

    func testACutListingDoesNotCallAnUnlistedTargetMissing() {
        var parsed = listing([("gone.jpg", "later.jpg")])
        parsed.truncated = true
        XCTAssertEqual(SFTPLinks(parsed).verdict(for: "gone.jpg"), .undecided(next: nil))
    }

    func testSentencesNameNoFormat() {
        XCTAssertEqual(RemoteError.brokenLink("IMG_1.JPG", .missingTarget).description,
                       "IMG_1.JPG is a link to a file that does not exist on the server")
        XCTAssertTrue(RemoteError.brokenLink("IMG_2.JPG", .loop).description.hasPrefix("IMG_2.JPG is a link that loops"))
        XCTAssertFalse(RemoteError.brokenLink("a", .loop).isTransient, "retrying cannot help")
    }
}
