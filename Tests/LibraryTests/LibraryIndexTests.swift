import Foundation
import Library
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
}
