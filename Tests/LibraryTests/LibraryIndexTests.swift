import Foundation
import Library
import LibraryCore
import LibraryIndex
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// The persistent index gives exactly the scan a plain probe gives, and notices every change made behind its back.
final class LibraryIndexTests: XCTestCase {
    private var dir: URL!
    private var library: URL!
    private var indexPath: String!

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory("livegrid-index")
        library = dir.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        indexPath = dir.appendingPathComponent("cache/livegrid/library-index.sqlite").path
        for (source, name) in [("train.jpg", "IMG_0001.JPG"), ("train.mov", "IMG_0001.MOV"),
                               ("motion-photo-v1.jpeg", "PXL_0002.jpg")] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(source),
                                             toPath: library.appendingPathComponent(name).path)
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func scan(_ root: URL? = nil, recursive: Bool = false, index: LibraryIndex? = nil) throws -> LibraryScan {
        try LibraryScanner.scan(directory: (root ?? library).path, recursive: recursive,
                                index: index ?? LibraryIndex(path: indexPath))
    }

    private func plain(_ root: URL? = nil, recursive: Bool = false) throws -> LibraryScan {
        try LibraryScanner.scan(directory: (root ?? library).path, recursive: recursive)
    }

    func testSecondScanProbesNothingAndEqualsAPlainScan() throws {
        let first = try scan()
        XCTAssertEqual(first.probedFiles, 3)
        let second = try scan()
        XCTAssertEqual(second.probedFiles, 0, "every file is known")
        XCTAssertEqual(second.reads, 0)
        XCTAssertEqual(second.items, try plain().items)
        XCTAssertEqual(second.items.map(\.kind), [.live, .motion])
    }

    func testChangedModificationTimeIsProbedAgain() throws {
        _ = try scan()
        let still = library.appendingPathComponent("IMG_0001.JPG").path
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: still)
        let again = try scan()
        XCTAssertEqual(again.probedFiles, 1)
        XCTAssertEqual(again.items, try plain().items)
    }

    func testChangedSizeIsProbedAgainAndItsNewBytesCount() throws {
        _ = try scan()
        // Same mtime, other size: a truncated movie. Its movie is now damaged, which the index must not hide.
        let movie = library.appendingPathComponent("IMG_0001.MOV").path
        let attributes = try FileManager.default.attributesOfItem(atPath: movie)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: movie))
        try handle.truncate(atOffset: 4096)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: movie)
        let again = try scan()
        XCTAssertEqual(again.probedFiles, 1)
        XCTAssertEqual(again.items, try plain().items)
        XCTAssertNotEqual(again.items.first?.kind, .live, "a movie cut to 4 KiB has no identifier left")
    }

    func testFileReplacedInPlaceWithTheSameSizeAndTimeIsProbedByInode() throws {
        _ = try scan()
        // A writer that renames a temporary over the original: new inode, same name. Give it the old mtime
        // and a same-size body so only the inode tells them apart.
        let still = library.appendingPathComponent("PXL_0002.jpg")
        let attributes = try FileManager.default.attributesOfItem(atPath: still.path)
        var bytes = try Data(contentsOf: still)
        bytes.replaceSubrange(0..<4, with: [0x00, 0x00, 0x00, 0x00])   // no longer a JPEG
        let temporary = library.appendingPathComponent(".PXL_0002.tmp")
        try bytes.write(to: temporary)
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: temporary.path)
        XCTAssertEqual(rename(temporary.path, still.path), 0)
        let again = try scan()
        XCTAssertEqual(again.probedFiles, 1)
        XCTAssertEqual(again.items, try plain().items)
        XCTAssertEqual(again.items.last?.still?.info.format, .unknown)
    }

    func testDeletedFileDisappearsAndItsPartnerStandsAlone() throws {
        _ = try scan()
        try FileManager.default.removeItem(at: library.appendingPathComponent("IMG_0001.MOV"))
        let again = try scan()
        XCTAssertEqual(again.probedFiles, 0)
        XCTAssertEqual(again.items, try plain().items)
        XCTAssertEqual(again.items.first?.kind, .still)
        XCTAssertTrue(again.items.first?.warnings.contains { $0.contains("missing") } ?? false, "\(again.items.first?.warnings ?? [])")
    }

    func testRenamedFolderReusesItsProbes() throws {
        let root = dir.appendingPathComponent("tree")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: library, to: root.appendingPathComponent("2021-05"))
        _ = try scan(root, recursive: true)
        try FileManager.default.moveItem(at: root.appendingPathComponent("2021-05"), to: root.appendingPathComponent("May 2021"))
        let again = try scan(root, recursive: true)
        XCTAssertEqual(again.probedFiles, 0, "the inodes did not change")
        XCTAssertEqual(again.items, try plain(root, recursive: true).items)
        XCTAssertTrue(again.items.allSatisfy { $0.primary.path.contains("/May 2021/") })
    }

    func testCorruptDatabaseIsRebuiltWithAWarning() throws {
        _ = try scan()
        // Garbage over the whole file, as a disk error or a stray writer would leave it.
        try Data(repeating: 0x5A, count: 64 * 1024).write(to: URL(fileURLWithPath: indexPath))
        let index = LibraryIndex(path: indexPath)
        XCTAssertTrue(index.isUsable)
        let warning = try XCTUnwrap(index.warning)
        XCTAssertTrue(warning.contains("damaged") && warning.contains("rebuilt"), warning)
        let again = try scan(index: index)
        XCTAssertEqual(again.probedFiles, 3)
        XCTAssertEqual(again.items, try plain().items)
        XCTAssertTrue(again.warnings.contains(warning))
        XCTAssertEqual(try scan().probedFiles, 0, "the rebuilt index is used from then on")
    }

    func testTruncatedDatabaseIsRebuiltOrIgnoredNeverACrash() throws {
        for _ in 0..<20 { _ = try scan() }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: indexPath)[.size] as? Int)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: indexPath))
        try handle.truncate(atOffset: UInt64(max(1, size / 2)))
        try handle.close()
        XCTAssertEqual(try scan().items, try plain().items)
    }

    func testUnwritableLocationMeansNoIndexAndAPlainWarning() throws {
        let blocked = dir.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocked)
        let index = LibraryIndex(path: blocked.path + "/livegrid/library-index.sqlite")
        XCTAssertFalse(index.isUsable)
        XCTAssertNotNil(index.warning)
        XCTAssertEqual(try scan(index: index).items, try plain().items)
    }

    func testDefaultPathFollowsXDGCacheHome() {
        XCTAssertEqual(LibraryIndex.defaultPath(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]),
                       "/c/livegrid/library-index.sqlite")
        XCTAssertEqual(LibraryIndex.defaultPath(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]),
                       "/h/.cache/livegrid/library-index.sqlite")
    }

    // MARK: pruning (issue 17: rows of deleted files were never removed)

    func testDeletedFilesRowsArePrunedByTheNextScanOfTheirFolder() throws {
        let index = LibraryIndex(path: indexPath)
        _ = try scan(index: index)
        XCTAssertEqual(index.count, 3)
        try FileManager.default.removeItem(at: library.appendingPathComponent("IMG_0001.MOV"))
        try FileManager.default.removeItem(at: library.appendingPathComponent("PXL_0002.jpg"))
        let again = try scan(index: index)
        XCTAssertEqual(again.probedFiles, 0)
        XCTAssertEqual(index.count, 1, "the rows of the two deleted files are gone")
        XCTAssertEqual(again.items, try plain().items)
        // And through the browser's progressive scan (first screen of one file, then the rest).
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.mov"),
                                         toPath: library.appendingPathComponent("IMG_0001.MOV").path)
        _ = try LibraryScanner.scanProgressively(directory: library.path, index: index, firstScreen: 1,
                                                    remembersInBackground: false) { _ in }
        XCTAssertEqual(index.count, 2)
        try FileManager.default.removeItem(at: library.appendingPathComponent("IMG_0001.JPG"))
        let progressive = try LibraryScanner.scanProgressively(directory: library.path, index: index, firstScreen: 1,
                                                    remembersInBackground: false) { _ in }
        XCTAssertEqual(index.count, 1)
        XCTAssertEqual(progressive.items, try plain().items)
    }

    func testPruningOneFolderLeavesOtherFoldersAndMovedFilesAlone() throws {
        let root = dir.appendingPathComponent("tree")
        let other = root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: library, to: root.appendingPathComponent("2021-05"))
        let may = root.appendingPathComponent("2021-05")
        try FileManager.default.copyItem(atPath: Fixtures.committed("motion-photo-v1.jpeg"),
                                         toPath: other.appendingPathComponent("PXL_0009.jpg").path)
        let index = LibraryIndex(path: indexPath)
        _ = try scan(root, recursive: true, index: index)
        XCTAssertEqual(index.count, 4)
        // Scanning one folder alone never touches the rows of another.
        _ = try scan(other, index: index)
        XCTAssertEqual(index.count, 4)
        // A file moved to another folder keeps its row (by inode, filed under its new folder); the rename moved
        // its ctime, which is part of the key since issue 32.7, so it is probed once again.
        try FileManager.default.moveItem(at: may.appendingPathComponent("PXL_0002.jpg"), to: other.appendingPathComponent("PXL_0002.jpg"))
        let moved = try scan(root, recursive: true, index: index)
        XCTAssertEqual(moved.probedFiles, 1)
        XCTAssertEqual(moved.items, try plain(root, recursive: true).items)
        XCTAssertEqual(index.count, 4)
        // A deleted subfolder's files are pruned when their folder is scanned; an emptied folder loses its rows.
        try FileManager.default.removeItem(at: other.appendingPathComponent("PXL_0009.jpg"))
        try FileManager.default.removeItem(at: other.appendingPathComponent("PXL_0002.jpg"))
        let emptied = try scan(root, recursive: true, index: index)
        XCTAssertEqual(emptied.items, try plain(root, recursive: true).items)
        XCTAssertEqual(index.count, 2, "only the live pair of 2021-05 is left")
    }

    func testHardLinksInManyFoldersAreProbedOnceAndNotReprobed() throws {
        let root = dir.appendingPathComponent("links")
        for folder in 0..<4 {
            let here = root.appendingPathComponent("f\(folder)")
            try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
            for name in ["IMG_0001.JPG", "IMG_0001.MOV"] {
                XCTAssertEqual(link(library.appendingPathComponent(name).path, here.appendingPathComponent(name).path), 0)
            }
        }
        let index = LibraryIndex(path: indexPath)
        let first = try scan(root, recursive: true, index: index)
        XCTAssertEqual(first.items.map(\.kind), [.live, .live, .live, .live])
        XCTAssertEqual(index.count, 2)
        let second = try scan(root, recursive: true, index: index)
        XCTAssertEqual(second.probedFiles, 0, "a hard link filed under another folder is found by its inode")
        XCTAssertEqual(second.items, try plain(root, recursive: true).items)
        XCTAssertEqual(index.count, 2)
    }
}
