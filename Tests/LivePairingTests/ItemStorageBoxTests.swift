@testable import LivePairing
import MediaFormats
import XCTest

/// `LibraryItem` keeps its fields in one copy-on-write box with the capture-date key made beside them
/// (issue 17 item 3): copies stay values, and what the box caches follows every change.
final class ItemStorageBoxTests: XCTestCase {
    private func file(_ path: String, date: String?, size: UInt64 = 10, movie: Bool = false) -> MediaFile {
        var info = MediaInfo(format: movie ? .quickTime : .jpeg)
        info.captureDate = date
        return MediaFile(path: path, size: size, modificationTime: 0, info: info)
    }

    func testACopyIsAValue() {
        let original = LibraryItem(kind: .still, still: file("a/IMG_1.JPG", date: nil), warnings: ["w"])
        var copy = original
        copy.kind = .live
        copy.movie = file("a/IMG_1.MOV", date: nil, movie: true)
        copy.warnings.append("x")
        XCTAssertEqual(original.kind, .still)
        XCTAssertNil(original.movie)
        XCTAssertEqual(original.warnings, ["w"])
        XCTAssertEqual(copy.warnings, ["w", "x"])
        XCTAssertNotEqual(original, copy)
        XCTAssertEqual(original, LibraryItem(kind: .still, still: file("a/IMG_1.JPG", date: nil), warnings: ["w"]))
    }

    func testTheKeptDateKeyFollowsTheFiles() {
        var item = LibraryItem(kind: .live, still: file("IMG_1.JPG", date: nil),
                               movie: file("IMG_1.MOV", date: "2021-05-02T12:34:57+0200", movie: true))
        XCTAssertEqual(item.captureDateSortKey, CaptureDateKey(item: item).sortKey)
        XCTAssertEqual(item.captureDateSortKey, 20210502123457, "the movie's date when the still has none")
        let before = item
        item.still = file("IMG_1.JPG", date: "2020:01:02 03:04:05")
        XCTAssertEqual(item.captureDateSortKey, 20200102030405)
        XCTAssertEqual(before.captureDateSortKey, 20210502123457, "the copy keeps its own")
        item.still = nil
        item.movie = nil
        item.still = file("IMG_1.JPG", date: nil)
        XCTAssertEqual(item.captureDateSortKey, CaptureDateKey.undatedSortKey)
    }

    func testIDPartsFindTheItemsOwnPathOnly() {
        let paths = ["a/b/IMG_1.JPG", "IMG_1.JPG", "a/", "\u{C9}t\u{E9}/caf\u{E9}.jpg", "x/IMG_1.JPG"]
        let items = paths.map { LibraryItem(kind: .still, still: file($0, date: nil)) }
        for item in items {
            for other in items {
                XCTAssertEqual(other.hasID(LibraryItem.idParts(item.id)), other.id == item.id, "\(other.id) vs \(item.id)")
            }
        }
        // Canonically equal paths are equal ids, as String's == says.
        let decomposed = LibraryItem(kind: .still, still: file("E\u{301}t\u{E9}/caf\u{E9}.jpg", date: nil))
        let precomposed = "\u{C9}t\u{E9}/caf\u{E9}.jpg"
        XCTAssertEqual(decomposed.hasID(LibraryItem.idParts(precomposed)), decomposed.id == ItemID(precomposed))
        let video = LibraryItem(kind: .video, movie: file("v/M.MOV", date: nil, movie: true))
        XCTAssertTrue(video.hasID(LibraryItem.idParts("v/M.MOV")))
    }

    func testSizeAndFolderReadInPlace() {
        let item = LibraryItem(kind: .live, still: file("d/e/IMG_1.JPG", date: nil, size: 7),
                               movie: file("d/e/IMG_1.MOV", date: nil, size: 5, movie: true))
        XCTAssertEqual(item.totalSize, item.files.reduce(0) { $0 + $1.size })
        XCTAssertEqual(item.primaryFolderPrefix, item.primary.folderPrefix)
        XCTAssertEqual(LibraryItem(kind: .video, movie: file("M.MOV", date: nil, movie: true)).primaryFolderPrefix, "")
    }
}

/// A Live Photo's identifier is read from the file that holds it, not copied into the item (issue 17 item 4):
/// the item still answers it, keeps it when that file changes, and compares by what it answers.
final class ItemIdentifierOwnerTests: XCTestCase {
    private let id = "6F4D8B2C-1A3E-4C5B-9D7E-0123456789AB"

    private func file(_ path: String, identifier: String?, movie: Bool = false) -> MediaFile {
        var info = MediaInfo(format: movie ? .quickTime : .jpeg)
        info.contentIdentifier = identifier
        return MediaFile(path: path, size: 10, modificationTime: 0, info: info)
    }

    func testTheIdentifierIsTheStillsAndSurvivesChanges() {
        var item = LibraryItem(kind: .live, still: file("IMG_1.JPG", identifier: id),
                               movie: file("IMG_1.MOV", identifier: id, movie: true), contentIdentifier: id,
                               pairing: .contentIdentifier)
        XCTAssertEqual(item.contentIdentifier, id)
        XCTAssertTrue(item.still?.info.isCompact == true, "a library's file keeps its facts compact")
        let before = item
        item.warnings = ["something"]
        XCTAssertEqual(item.contentIdentifier, id, "a warning does not lose the identifier")
        item.still = file("IMG_1.JPG", identifier: nil)
        XCTAssertEqual(item.contentIdentifier, id, "the identifier stays when its file is replaced")
        item.movie = nil
        XCTAssertEqual(item.contentIdentifier, id)
        XCTAssertEqual(before.contentIdentifier, id)
        item.contentIdentifier = nil
        XCTAssertNil(item.contentIdentifier)
        XCTAssertEqual(before.contentIdentifier, id, "the copy keeps its own")
    }

    func testIdentifiersThatNoFileHoldsAreKept() {
        let movieOnly = LibraryItem(kind: .live, still: file("IMG_1.JPG", identifier: nil),
                                    movie: file("IMG_1.MOV", identifier: id, movie: true), contentIdentifier: id)
        XCTAssertEqual(movieOnly.contentIdentifier, id)
        let lowerCased = LibraryItem(kind: .live, still: file("IMG_2.JPG", identifier: id.lowercased()),
                                     contentIdentifier: id)
        XCTAssertEqual(lowerCased.contentIdentifier, id, "the pairer's upper-cased identifier, not the file's")
        let none = LibraryItem(kind: .still, still: file("IMG_3.JPG", identifier: id))
        XCTAssertNil(none.contentIdentifier, "an item without identifier has none, whatever its still holds")
    }

    func testItemsCompareByTheIdentifierTheyAnswer() {
        let still = file("IMG_1.JPG", identifier: id)
        let fromStill = LibraryItem(kind: .still, still: still, contentIdentifier: id)
        var fromNotes = LibraryItem(kind: .still, still: still)
        fromNotes.contentIdentifier = id
        XCTAssertEqual(fromStill, fromNotes)
        XCTAssertEqual(fromStill.hashValue, fromNotes.hashValue)
        XCTAssertNotEqual(fromStill, LibraryItem(kind: .still, still: still), "same files and notes, one without identifier")
    }
}
