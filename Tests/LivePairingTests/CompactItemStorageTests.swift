import Foundation
@testable import LivePairing
import MediaFormats
import XCTest

/// Issue 17 item 4: a MediaFile keeps a shared folder prefix and its name, a LibraryItem its notes in one box,
/// and the pairer sorts by folder and name keys. Every public accessor must read exactly as before.
final class CompactItemStorageTests: XCTestCase {
    private func file(_ path: String) -> MediaFile {
        MediaFile(path: path, size: 1, modificationTime: 0, info: MediaInfo(format: .jpeg))
    }

    func testPathsReadBackExactlyWhateverTheirShape() {
        let paths = ["x.jpg", "/x.jpg", "a/b/IMG_0001.HEIC", "a/b/", "/", "", "dir/ünïcödé 名前.jpg",
                     "/work/some/very/long/folder/name/that/is/not/inline/IMG_20230714_102233123_HDR.jpg"]
        for path in paths {
            let f = file(path)
            XCTAssertEqual(f.path, path)
            XCTAssertEqual(f.folderPrefix + f.name, path)
        }
        XCTAssertEqual(file("a/b/IMG_0001.HEIC").folderPrefix, "a/b/")
        XCTAssertEqual(file("a/b/IMG_0001.HEIC").name, "IMG_0001.HEIC")
        XCTAssertEqual(file("a/b/IMG_0001.HEIC").baseName, "IMG_0001")
        XCTAssertEqual(file("a/b/").fileName, "b", "a path ending in / keeps its last component")
        XCTAssertEqual(file("x.jpg").folderPrefix, "")
        var moved = file("a/b/c.jpg")
        moved.path = "/tmp/cache/1234.jpg"
        XCTAssertEqual(moved.path, "/tmp/cache/1234.jpg")
        XCTAssertEqual(moved.name, "1234.jpg")
        XCTAssertEqual(file("a/b.jpg"), file("a/b.jpg"))
        XCTAssertNotEqual(file("a/b.jpg"), file("a/c.jpg"))
        XCTAssertEqual(file("a/b.jpg").hashValue, file("a/b.jpg").hashValue)
    }

    func testFilesOfOneFolderShareOnePrefixBuffer() {
        let folder = "/home/someone/Pictures/2023/07 holidays/"
        let a = file(folder + "IMG_0001.jpg"), b = file(folder + "IMG_0002.jpg")
        let addressA = a.folderPrefix.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        let addressB = b.folderPrefix.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        XCTAssertNotNil(addressA ?? nil)
        XCTAssertEqual(addressA, addressB)
    }

    func testMediaFileJSONKeepsItsPathField() throws {
        let original = file("a/b/IMG_0001.HEIC")
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(original)) as? [String: Any]
        XCTAssertEqual(json?["path"] as? String, "a/b/IMG_0001.HEIC")
        XCTAssertNil(json?["name"])
        XCTAssertEqual(try JSONDecoder().decode(MediaFile.self, from: JSONEncoder().encode(original)), original)
    }

    func testSortingFilesByFolderAndNameKeysEqualsSortingTheirPaths() {
        var generator = SystemRandomNumberGenerator()
        let parts = ["a", "A", "b", "2000", "2000-01", "10", "9", "IMG", "img_2", "img_10", "x y", "é", "0010", "b.c"]
        for _ in 0..<20 {
            let paths = (0..<200).map { _ -> String in
                let depth = Int.random(in: 0...3, using: &generator)
                let folders = (0..<depth).map { _ in parts.randomElement(using: &generator)! }
                let name = parts.randomElement(using: &generator)! + String(Int.random(in: 0...120, using: &generator)) + ".jpg"
                return (folders + [name]).joined(separator: "/")
            }
            let byFiles = NaturalOrder.sortedIndices(paths.map(file)).map { paths[$0] }
            XCTAssertEqual(byFiles, NaturalOrder.sortedIndices(paths).map { paths[$0] })
            XCTAssertEqual(byFiles, paths.sorted(by: NaturalOrder.less))
        }
    }

    func testItemNotesReadWriteCompareAndEncodeAsFields() throws {
        var item = LibraryItem(kind: .still, still: file("a.jpg"))
        XCTAssertNil(item.contentIdentifier)
        XCTAssertEqual(item.warnings, [])
        XCTAssertNil(item.liveOffReason)
        let copy = item
        item.warnings = ["one"]
        item.contentIdentifier = "ID"
        item.liveOffReason = "its movie is missing"
        XCTAssertEqual(item.warnings, ["one"])
        XCTAssertEqual(item.contentIdentifier, "ID")
        XCTAssertEqual(item.liveOffReason, "its movie is missing")
        XCTAssertEqual(copy.warnings, [], "a copy keeps its own notes")
        XCTAssertNotEqual(item, copy)
        let same = LibraryItem(kind: .still, still: file("a.jpg"), contentIdentifier: "ID", warnings: ["one"],
                               liveOffReason: "its movie is missing")
        XCTAssertEqual(item, same)
        XCTAssertEqual(item.hashValue, same.hashValue)
        item.warnings = []
        item.contentIdentifier = nil
        item.liveOffReason = nil
        XCTAssertEqual(item, copy)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(same)) as? [String: Any]
        XCTAssertEqual(json?["warnings"] as? [String], ["one"])
        XCTAssertEqual(json?["contentIdentifier"] as? String, "ID")
        XCTAssertEqual(try JSONDecoder().decode(LibraryItem.self, from: JSONEncoder().encode(same)), same)
    }

    func testUpperCasingKeepsAnUpperCaseIdentifierAndFixesOthers() {
        XCTAssertEqual(LivePairer.upper("E905E6C6-C747-4805-942F-9904A0281F02"), "E905E6C6-C747-4805-942F-9904A0281F02")
        XCTAssertEqual(LivePairer.upper("e905e6c6-c747"), "E905E6C6-C747")
        XCTAssertEqual(LivePairer.upper("straße"), "straße".uppercased())
    }
}

/// The pairer handles a folder's stills as ranks into the one list of files (issue 17 item 4): the names in its
/// warnings, the partners and the order must be those of the right files, in a flat folder and among others.
final class RankedPairingTests: XCTestCase {
    private func file(_ path: String, _ format: ContainerFormat, id: String? = nil, seconds: Double? = nil) -> MediaFile {
        var info = MediaInfo(format: format)
        info.contentIdentifier = id
        info.duration = seconds
        return MediaFile(path: path, size: 1, modificationTime: 0, info: info)
    }

    private func folder(_ prefix: String) -> [MediaFile] {
        [file(prefix + "IMG_10.HEIC", .heif, id: "AAA"), file(prefix + "IMG_2.HEIC", .heif, id: "aaa"),
         file(prefix + "IMG_3.HEIC", .heif, id: "AAA"), file(prefix + "IMG_2.MOV", .quickTime, id: "AAA", seconds: 2),
         file(prefix + "IMG_5.JPG", .jpeg), file(prefix + "IMG_5.MOV", .quickTime, seconds: 3),
         file(prefix + "IMG_7.HEIC", .heif, id: "BBB"), file(prefix + "IMG_7.MOV", .quickTime, id: "CCC", seconds: 2),
         file(prefix + "lone.mov", .quickTime, id: "BBB", seconds: 2)]
    }

    private func summary(_ items: [LibraryItem]) -> [String] {
        items.map { item in
            "\(item.kind) \(item.files.map(\.path).joined(separator: "+")) \(item.pairing.map(\.rawValue) ?? "-") "
                + item.warnings.joined(separator: " | ")
        }
    }

    func testFolderPairsTheSameAloneFlatAndAmongOtherFolders() {
        let alone = LivePairer.pair(folder("a/"))
        XCTAssertEqual(summary(alone), [
            "live a/IMG_2.HEIC+a/IMG_2.MOV contentIdentifier identifier AAA is shared with IMG_3.HEIC, IMG_10.HEIC",
            "still a/IMG_3.HEIC - identifier AAA is shared with IMG_2.HEIC, IMG_10.HEIC; the movie is paired with another still",
            "live a/IMG_5.JPG+a/IMG_5.MOV probableByName paired by file name only (probable): one half has no content identifier",
            "live a/IMG_7.HEIC+a/lone.mov contentIdentifier ",
            "video a/IMG_7.MOV - Live Photo still missing (identifier CCC)",
            "still a/IMG_10.HEIC - identifier AAA is shared with IMG_2.HEIC, IMG_3.HEIC; the movie is paired with another still",
        ])
        // Mixed with another folder's files, in any order: the folder's items are the same.
        let mixed = LivePairer.pair((folder("b/") + folder("a/")).reversed())
        XCTAssertEqual(summary(mixed.filter { $0.id.rawValue.hasPrefix("a/") }), summary(alone))
        XCTAssertEqual(mixed.count, 2 * alone.count)
    }
}

extension RankedPairingTests {
    /// Copies of one still without its movie carry equal notes past the first few: one shared box, same text.
    func testEqualNotesShareOneBox() {
        let stills = (1...50).map { file("c/IMG_\($0).HEIC", .heif, id: "DDD") }
        let items = LivePairer.pair(stills)
        XCTAssertEqual(items.count, 50)
        XCTAssertEqual(items[10].warnings, ["Live Photo movie missing (identifier DDD, also in IMG_1.HEIC, IMG_2.HEIC, IMG_3.HEIC and 46 more)"])
        XCTAssertEqual(items[0].warnings, ["Live Photo movie missing (identifier DDD, also in IMG_2.HEIC, IMG_3.HEIC, IMG_4.HEIC and 46 more)"])
        XCTAssertEqual(items[49].warnings, items[10].warnings)
        XCTAssertTrue(LibraryItem.NotesSharing.sameBox(items[10], items[49]))
        XCTAssertFalse(LibraryItem.NotesSharing.sameBox(items[0], items[10]))
        XCTAssertEqual(items[49].liveOffReason, "its movie is missing")
        XCTAssertEqual(items[49].contentIdentifier, "DDD")
    }
}
