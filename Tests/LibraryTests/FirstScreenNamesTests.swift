import Foundation
@testable import Library
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// The first screen is picked from the raw listing with byte keys: they must order names exactly as the pairer
/// (`NaturalOrder`) does, or the first screen would show other items than the settled grid.
final class FirstScreenNamesTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws { dir = try Fixtures.makeTemporaryDirectory("livegrid-firstnames") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private static let pieces = ["IMG_", "img_", "0", "00", "007", "1", "10", "9", "99999999999999999999", "a", "Z",
                                 " ", "-", ".", "é", "É", "😀", "_HEVC", "copy", "\u{EF80}"]

    private func randomName(_ rng: inout SplitMix64) -> String {
        var name = ""
        for _ in 0..<(1 + Int(rng.next() % 5)) { name += Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }
        return name + [".jpg", ".JPG", ".heic", ".MOV"][Int(rng.next() % 4)]
    }

    func testKeysAreNaturalOrderKeys() {
        var rng = SplitMix64(seed: 17)
        for _ in 0..<2000 {
            let name = randomName(&rng)
            var key: [UInt8] = []
            FirstScreenNames.appendKey(of: Array(name.utf8)[...], to: &key)
            XCTAssertEqual(key, NaturalOrder.key(name), name)
        }
    }

    func testFirstNamesAreTheSortedPrefixAcrossFolders() throws {
        var rng = SplitMix64(seed: 5)
        var paths: [String] = []
        for folder in ["", "2021/05", "2021/5", "b"] {
            let here = dir.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
            for _ in 0..<150 {
                let name = randomName(&rng)
                guard !name.hasPrefix("."), !paths.contains(here.appendingPathComponent(name).path) else { continue }
                // Names made of bytes that are not UTF-8 are kept as PathBytes escapes, like the listing does.
                let url = here.appendingPathComponent(name)
                guard PathBytes.withCString(url.path, { creat($0, 0o644) }) >= 0 else { continue }
                paths.append(url.path)
            }
        }
        var warnings: [String] = []
        let listings = try LibraryScanner.listFolders(root: dir.path, recursive: true, warnings: &warnings)
        let listed = listings.flatMap { listing in (0..<listing.count).map { listing.path($0) } }
        XCTAssertEqual(Set(listed).count, listed.count)
        let expected = NaturalOrder.sortedIndices(listed).map { listed[$0] }
        for count in [1, 7, 100, listed.count - 1, listed.count, listed.count + 10] {
            let first = FirstScreenNames.first(count, of: listings).map { listings[$0.folder].path($0.entry) }
            XCTAssertEqual(first, Array(expected.prefix(count)), "count \(count)")
        }
    }

    /// A recursive first screen lists only the folders that can hold its files: the same first files as the
    /// whole listing gives, on trees with files beside subfolders, numbered folders ("5" and "05" share a
    /// key), letter case, a thumbnails folder, a hidden folder and a link to a folder (neither followed).
    func testFirstScreenFoldersGiveTheSameFirstFilesAsTheWholeListing() throws {
        var rng = SplitMix64(seed: 11)
        let folders = ["", "2021", "2021/05", "2021/5", "2021/10", "2021/10/x", "B", "b", "a b", "thumbnails", ".hidden",
                       "z/deep/er"]
        for folder in folders {
            let here = dir.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
            for _ in 0..<(folder == "" ? 8 : 40) {
                let url = here.appendingPathComponent(randomName(&rng))
                _ = PathBytes.withCString(url.path, { creat($0, 0o644) })
            }
        }
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link").path,
                                                   withDestinationPath: dir.appendingPathComponent("2021").path)
        var warnings: [String] = []
        let whole = try LibraryScanner.listFolders(root: dir.path, recursive: true, warnings: &warnings)
        let total = whole.reduce(0) { $0 + $1.count }
        var listedFewer = false
        for count in [1, 5, 8, 9, 30, 100, 200, total - 1, total, total + 5] {
            let partial = try LibraryScanner.firstScreenListings(root: dir.path, count: count)
            let expected = FirstScreenNames.first(count, of: whole).map { whole[$0.folder].path($0.entry) }
            let first = FirstScreenNames.first(count, of: partial.listings).map { partial.listings[$0.folder].path($0.entry) }
            XCTAssertEqual(first, expected, "count \(count)")
            XCTAssertEqual(partial.complete, partial.listings.count == whole.count, "count \(count)")
            if partial.listings.count < whole.count { listedFewer = true }
            XCTAssertTrue(Set(partial.listings.map(\.directory)).isSubset(of: Set(whole.map(\.directory))))
        }
        XCTAssertTrue(listedFewer, "a small first screen lists fewer folders than the whole tree")
        XCTAssertThrowsError(try LibraryScanner.firstScreenListings(root: dir.appendingPathComponent("missing").path, count: 5))
    }

    /// A root of many small folders beside many files of its own (folders sort first): the first screen lists
    /// only the folders it needs and picks the same files as the whole listing.
    func testFirstScreenFoldersOnManyFoldersBesideManyFiles() throws {
        for day in 0..<1500 {
            let here = dir.appendingPathComponent(String(format: "2019-%04d", day))
            try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: here.appendingPathComponent("IMG_\(day).jpg").path, contents: nil)
        }
        for n in 0..<3000 {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("img_\(n).jpg").path, contents: nil)
        }
        var warnings: [String] = []
        let whole = try LibraryScanner.listFolders(root: dir.path, recursive: true, warnings: &warnings)
        for count in [1, 40, 256, 2000] {
            let partial = try LibraryScanner.firstScreenListings(root: dir.path, count: count)
            let expected = FirstScreenNames.first(count, of: whole).map { whole[$0.folder].path($0.entry) }
            let first = FirstScreenNames.first(count, of: partial.listings).map { partial.listings[$0.folder].path($0.entry) }
            XCTAssertEqual(first, expected, "count \(count)")
            if count < 1500 {
                XCTAssertEqual(partial.listings.count, count + 1, "the root and the first \(count) day folders")
            }
        }
    }

    func testListingKeepsMediaNamesAndSkipsTheRest() throws {
        for name in ["a.jpg", "b.HEIC", "c.Mp4", ".hidden.jpg", "notes.txt", "d.jpeg", "e.j", "f.tiff", "g"] {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data())
        }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("trip.jpg"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("trip.jpg/inner.jpg").path, contents: Data())
        var warnings: [String] = []
        let flat = try LibraryScanner.listFolders(root: dir.path, recursive: false, warnings: &warnings)
        XCTAssertEqual(Set(flat.flatMap { l in (0..<l.count).map { (l.path($0) as NSString).lastPathComponent } }),
                       ["a.jpg", "b.HEIC", "c.Mp4", "d.jpeg", "f.tiff"])
        let deep = try LibraryScanner.listFolders(root: dir.path, recursive: true, warnings: &warnings)
        XCTAssertEqual(deep.count, 2)
        XCTAssertTrue(deep.contains { $0.directory.hasSuffix("/trip.jpg") && $0.count == 1 })
        XCTAssertNotEqual(deep[0].folder, deep[1].folder)
    }
}
