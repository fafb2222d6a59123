import Concurrent
import Foundation
import LibraryCore
@testable import LibrarySources
import XCTest

/// The entries an SFTP scan probes while its listings still arrive (issue 32.9): only what the whole parse
/// (`SFTPListingParser.parse`, the names-vs-long-listing check) keeps, in order, and before the end.
final class SFTPListingConfirmerTests: XCTestCase {
    private let base = URL(string: "sftp://host/photos/")!

    private func longLine(_ name: String, type: Character = "-") -> String {
        "\(type)rw-r--r--    1 root     root          100 Nov 24 19:44 \(name)"
    }

    /// Feeds `long` and `names` in pieces of `step` bytes, alternating (names first when `namesFirst`);
    /// returns the entries confirmed after each feed.
    private func feed(long: [UInt8], names: [UInt8], step: Int, namesFirst: Bool,
                      maxEntries: Int = 1000) -> (all: [RemoteEntry], countAfterFeed: [Int]) {
        let confirmed = Locked<[RemoteEntry]>([])
        let confirmer = SFTPListingConfirmer(baseURL: base, maxEntries: maxEntries) { batch in
            confirmed.withLockedValue { $0 += batch }
        }
        var counts: [Int] = []
        var l = 0, n = 0
        while l < long.count || n < names.count {
            let nextNames = names[n..<min(names.count, n + step)], nextLong = long[l..<min(long.count, l + step)]
            if namesFirst { confirmer.feedNames(nextNames); confirmer.feedLong(nextLong) } else { confirmer.feedLong(nextLong); confirmer.feedNames(nextNames) }
            n += nextNames.count
            l += nextLong.count
            counts.append(confirmed.value.count)
        }
        return (confirmed.value, counts)
    }

    func testFilesAreConfirmedWhileTheListingsStillArrive() {
        let names = [".", ".."] + (0..<200).map { String(format: "IMG_%04d.JPG", $0) }
        let long = Array((names.map { longLine($0, type: $0.hasPrefix(".") ? "d" : "-") }.joined(separator: "\n") + "\n").utf8)
        let nameBytes = Array((names.joined(separator: "\n") + "\n").utf8)
        let whole = SFTPListingParser.parse(long: long, names: nameBytes, baseURL: base)
        let (streamed, counts) = feed(long: long, names: nameBytes, step: 512, namesFirst: false)
        // All but the last file (whose next line never comes), in the whole parse's order, with its URLs and sizes.
        XCTAssertEqual(streamed, Array(whole.entries.dropLast()))
        XCTAssertGreaterThan(counts.count, 10, "fed in many pieces")
        let halfway = counts[counts.count / 2]
        XCTAssertGreaterThan(halfway, 50, "half the bytes in, files are already confirmed: \(counts)")
        XCTAssertLessThan(halfway, 199, "and not all of them: \(counts)")
    }

    func testNothingTheWholeParseRefusesIsConfirmed() {
        // A name with a line break whose second half forges a file line; another whose second half forges a
        // file that really exists too; a link; an unreadable line; dots; a control character; a file last.
        let forged = "nl\n" + longLine("fake.jpg")
        let forgedReal = "a.jpg\n" + longLine("x.jpg")
        let entries: [(name: String, type: Character)] = [
            (".", "d"), ("..", "d"), ("ok1.jpg", "-"), (forged, "-"), ("ok2.jpg", "-"), ("sub", "d"),
            ("link.jpg -> ok1.jpg", "l"), ("ok3.jpg", "-"), (forgedReal, "-"), ("x.jpg", "-"), ("bell\u{07}.jpg", "-"),
            ("ok4.jpg", "-"), ("ok5.jpg", "-"),
        ]
        var long = entries.map { longLine($0.name, type: $0.type) }
        long.insert("garbage line", at: 8)
        let longBytes = Array((long.joined(separator: "\n") + "\n").utf8)
        let names = entries.map { $0.type == "l" ? "link.jpg" : $0.name } + ["garbage line"]
        let nameBytes = Array((names.joined(separator: "\n") + "\n").utf8)
        let whole = SFTPListingParser.parse(long: longBytes, names: nameBytes, baseURL: base)
        XCTAssertFalse(whole.entries.contains { $0.name == "fake.jpg" || $0.name == "nl" }, "the whole parse refuses the forged pair")
        for step in [1, 2, 3, 7, 16, 64, 100_000] {
            for namesFirst in [true, false] {
                let streamed = feed(long: longBytes, names: nameBytes, step: step, namesFirst: namesFirst).all
                XCTAssertTrue(streamed.allSatisfy { whole.entries.contains($0) }, "step \(step): \(streamed.map(\.name))")
                XCTAssertEqual(streamed.map(\.name), streamed.map(\.name).filter { n in whole.entries.contains { $0.name == n } })
                XCTAssertFalse(streamed.contains { $0.name == "fake.jpg" || $0.name == "nl" || $0.name.hasPrefix("bell") })
                XCTAssertFalse(streamed.contains { $0.name.hasPrefix("link") }, "links wait for the whole names listing")
            }
        }
        // Names that can only be confirmed once the names listing has them: long listing whole, names none.
        XCTAssertEqual(feed(long: longBytes, names: [], step: 64, namesFirst: false).all, [])
        // Names listing whole first: the sure files in order (ok1, before the forged pair; after it, everything waits for the whole parse).
        let all = feed(long: longBytes, names: nameBytes, step: 100_000, namesFirst: true).all.map(\.name)
        XCTAssertEqual(all, ["ok1.jpg"], "a line the names listing never confirms stops early confirmation there")
    }

    func testConfirmsAtMostMaxEntries() {
        let names = (0..<50).map { "f\($0).jpg" }
        let long = Array((names.map { longLine($0) }.joined(separator: "\n") + "\n").utf8)
        let streamed = feed(long: long, names: Array((names.joined(separator: "\n") + "\n").utf8), step: 256,
                            namesFirst: true, maxEntries: 10).all
        XCTAssertEqual(streamed.map(\.name), Array(names.prefix(10)))
    }
}
