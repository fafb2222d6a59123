import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// Builds Live Photo pairs from copies of the committed fixtures in temporary directories (never the
/// originals), without depending on the parsers: the items are made by hand the way the scanner makes them.
enum TriageFixtures {
    static func copy(_ fixture: String, to path: String) throws {
        try FileManager.default.copyItem(atPath: Fixtures.committed(fixture), toPath: path)
    }

    static func file(_ path: String, _ format: ContainerFormat) -> MediaFile {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64) ?? 0
        return MediaFile(path: path, size: size, modificationTime: 0, info: MediaInfo(format: format))
    }

    /// `dir/NAME.JPG` + `dir/NAME.MOV` as one live item.
    static func livePair(in dir: String, name: String = "IMG_0001") throws -> LibraryItem {
        let still = dir + "/" + name + ".JPG", movie = dir + "/" + name + ".MOV"
        try copy("train.jpg", to: still)
        try copy("train.mov", to: movie)
        return LibraryItem(kind: .live, still: file(still, .jpeg), movie: file(movie, .quickTime),
                           contentIdentifier: "TEST-ID", pairing: .contentIdentifier)
    }

    static func still(in dir: String, name: String = "PHOTO.JPG") throws -> LibraryItem {
        let path = dir + "/" + name
        try copy("train.jpg", to: path)
        return LibraryItem(kind: .still, still: file(path, .jpeg))
    }

    static func tempDir(_ label: String = "livegrid-triage") throws -> String {
        try Fixtures.makeTemporaryDirectory(label).path
    }

    static func names(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}

final class TriageTests: XCTestCase {
    func testMarkSetMarksTogglesAndInverts() {
        var marks = MarkSet()
        marks.mark("a")
        marks.toggle("b")
        marks.toggle("a")
        XCTAssertEqual(marks.ids, ["b"])
        marks.markAll(["a", "b", "c"])
        XCTAssertEqual(marks.count, 3)
        marks.unmark("c")
        marks.invert(within: ["a", "b", "c", "d"])
        XCTAssertEqual(marks.ids, ["c", "d"])
        marks.keepOnly(["d"])
        XCTAssertEqual(marks.ids, ["d"])
        marks.clear()
        XCTAssertTrue(marks.isEmpty)
    }

    func testMarkSetSelectsItemsInDisplayOrder() {
        let items = ["z.jpg", "a.jpg", "m.jpg"].map { LibraryItem(kind: .still, still: TriageFixtures.file($0, .jpeg)) }
        let marks = MarkSet(["m.jpg", "z.jpg"])
        XCTAssertEqual(marks.selected(from: items).map(\.id), ["z.jpg", "m.jpg"])
    }

    func testFilterByRatingFlagAndKind() {
        let live = LibraryItem(kind: .live, still: TriageFixtures.file("a.jpg", .jpeg),
                               movie: TriageFixtures.file("a.mov", .quickTime))
        var liveOff = live
        liveOff.still?.path = "b.jpg"
        liveOff.liveOffReason = "movie missing"
        let still = LibraryItem(kind: .still, still: TriageFixtures.file("c.jpg", .jpeg))
        let states: [ItemID: TriageState] = ["a.jpg": TriageState(rating: 4), "b.jpg": TriageState(rating: 5, flag: .reject),
                      "c.jpg": TriageState(rating: 2, flag: .pick)]
        let all = [live, liveOff, still]
        XCTAssertEqual(TriageFilter(minimumRating: 3).apply(to: all, states: states).map(\.id), ["a.jpg"])
        XCTAssertEqual(TriageFilter(flag: .pick).apply(to: all, states: states).map(\.id), ["c.jpg"])
        XCTAssertEqual(TriageFilter(flag: .reject).apply(to: all, states: states).map(\.id), ["b.jpg"])
        XCTAssertEqual(TriageFilter(kind: .liveOnly).apply(to: all, states: states).map(\.id), ["a.jpg"])
        XCTAssertEqual(TriageFilter(kind: .stillsOnly).apply(to: all, states: states).map(\.id), ["b.jpg", "c.jpg"])
        XCTAssertEqual(TriageFilter.everything.apply(to: all, states: [:]).count, 3)
    }

    func testCollisionNamesKeepAGroupPaired() {
        XCTAssertEqual(CollisionNaming.parenthesized.name("IMG_1.JPG", number: 2), "IMG_1 (2).JPG")
        XCTAssertEqual(CollisionNaming.parenthesized.name("IMG_1.JPG.xmp", number: 2), "IMG_1 (2).JPG.xmp")
        XCTAssertEqual(CollisionNaming.parenthesized.name("IMG_1.xmp", number: 3), "IMG_1 (3).xmp")
        XCTAssertEqual(CollisionNaming.dotted.name("IMG_1.MOV", number: 2), "IMG_1.2.MOV")
        XCTAssertEqual(CollisionNaming.dotted.name("README", number: 2), "README.2")
        XCTAssertEqual(CollisionNaming.dotted.name(".hidden", number: 2), ".hidden.2")
        XCTAssertEqual(CollisionNaming.parenthesized.name("IMG_1.JPG", number: 1), "IMG_1.JPG")
        // Both halves get the first number free for both: IMG_1 (2).MOV is taken, so both become (3).
        let taken: Set<String> = ["IMG_1.JPG", "IMG_1.MOV", "IMG_1 (2).MOV"]
        let n = CollisionNaming.parenthesized.firstFreeNumber(for: ["IMG_1.JPG", "IMG_1.MOV"]) { _, c in !taken.contains(c) }
        XCTAssertEqual(n, 3)
    }
}
