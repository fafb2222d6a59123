import Foundation
import Library
import LivePairing
import MediaFormats
import TestSupport
import XCTest

final class LibraryScannerTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory("livegrid-scan")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755],
                                               ofItemAtPath: dir.appendingPathComponent("locked").path)
        try? FileManager.default.removeItem(at: dir)
    }

    private func place(_ source: String, as name: String, in sub: String? = nil) throws {
        var target = dir!
        if let sub {
            target = target.appendingPathComponent(sub)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: source, toPath: target.appendingPathComponent(name).path)
    }

    private func write(_ bytes: [UInt8], as name: String) throws {
        try Data(bytes).write(to: dir.appendingPathComponent(name))
    }

    func testCommittedLivePhotoPairsByIdentifierAndMotionPhotoIsLive() throws {
        try place(Fixtures.committed("train.jpg"), as: "train.jpg")
        try place(Fixtures.committed("train.mov"), as: "train.mov")
        try place(Fixtures.committed("motion-photo-v1.jpeg"), as: "motion photo.jpeg")  // a name with a space
        let scan = try LibraryScanner.scan(directory: dir.path)
        XCTAssertEqual(scan.items.count, 2)
        let live = try XCTUnwrap(scan.items.first { $0.kind == .live })
        XCTAssertEqual(live.contentIdentifier, "E905E6C6-C747-4805-942F-9904A0281F02")
        XCTAssertEqual(live.pairing, .contentIdentifier)
        XCTAssertEqual(live.files.map(\.fileName), ["train.jpg", "train.mov"])
        XCTAssertEqual(try XCTUnwrap(live.movie?.info.stillImageTime), 0.48, accuracy: 0.001)
        let motion = try XCTUnwrap(scan.items.first { $0.kind == .motion })
        XCTAssertEqual(motion.displayName, "motion photo.jpeg")
        XCTAssertEqual(motion.still?.info.embeddedMovie?.range, ByteRange(offset: 30821, length: 122562))
        XCTAssertEqual(motion.warnings, [])
    }

    func testCorruptAndTruncatedFilesAreItemsWithWarningsAndTheScanContinues() throws {
        try place(Fixtures.committed("train.jpg"), as: "good.jpg")
        try write(Array("this is not a photo".utf8), as: "corrupt.jpg")
        try write([], as: "empty.heic")
        let mov = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.mov")))
        try mov.prefix(4000).write(to: dir.appendingPathComponent("truncated.mov"))
        let scan = try LibraryScanner.scan(directory: dir.path)
        XCTAssertEqual(scan.items.count, 4)
        for name in ["corrupt.jpg", "empty.heic", "truncated.mov"] {
            let item = try XCTUnwrap(scan.items.first { $0.displayName == name }, name)
            XCTAssertFalse(item.warnings.isEmpty, "\(name) should carry a warning")
        }
        let good = try XCTUnwrap(scan.items.first { $0.displayName == "good.jpg" })
        XCTAssertEqual(good.kind, .still)
        XCTAssertEqual(good.liveOffReason, "its movie is missing")
    }

    func testRealWorldHalvesWithoutPartnersStayVisible() throws {
        try place(Fixtures.shared("IMG_2927.HEIC"), as: "IMG_2927.HEIC")
        try place(Fixtures.shared("limitpoint/pairedVideo.mov"), as: "pairedVideo.mov")
        try place(Fixtures.shared("apple-no-identifier.jpg"), as: "apple.jpg")
        try place(Fixtures.shared("samsung-still.jpeg"), as: "samsung.jpeg")
        try place(Fixtures.shared("microvideo-v1.jpeg"), as: "micro.jpeg")
        try place(Fixtures.shared("motion-photo.heic"), as: "motion.heic")
        let scan = try LibraryScanner.scan(directory: dir.path)
        let byName = Dictionary(uniqueKeysWithValues: scan.items.map { ($0.displayName, $0) })
        XCTAssertEqual(byName["IMG_2927.HEIC"]?.kind, .still)
        XCTAssertEqual(byName["IMG_2927.HEIC"]?.contentIdentifier, "1745E022-9712-43C7-B024-F308EC6413CB")
        XCTAssertTrue(byName["IMG_2927.HEIC"]?.warnings.first?.contains("movie missing") ?? false)
        XCTAssertEqual(byName["pairedVideo.mov"]?.kind, .video)
        XCTAssertTrue(byName["pairedVideo.mov"]?.warnings.first?.contains("still missing") ?? false)
        XCTAssertEqual(byName["apple.jpg"]?.kind, .still)
        XCTAssertNil(byName["apple.jpg"]?.liveOffReason)
        XCTAssertEqual(byName["samsung.jpeg"]?.kind, .still)
        XCTAssertEqual(byName["micro.jpeg"]?.kind, .motion)
        XCTAssertEqual(byName["motion.heic"]?.kind, .motion)
    }

    func testSameNameDifferentIdentifiersDoNotPair() throws {
        try place(Fixtures.committed("train.jpg"), as: "IMG_1.JPG")
        try place(Fixtures.shared("limitpoint/pairedVideo.mov"), as: "IMG_1.MOV")
        let scan = try LibraryScanner.scan(directory: dir.path)
        XCTAssertEqual(scan.items.map(\.kind), [.still, .video])
        XCTAssertTrue(scan.items[0].warnings.contains { $0.contains("identifiers differ") })
    }

    func testRecursionHiddenFilesAndUnreadableSubdirectories() throws {
        try place(Fixtures.committed("train.jpg"), as: "a.jpg")
        try place(Fixtures.committed("train.jpg"), as: ".hidden.jpg")
        try place(Fixtures.committed("train.jpg"), as: "b.jpg", in: "sub")
        try place(Fixtures.committed("train.jpg"), as: "c.jpg", in: "locked")
        try write(Array("notes".utf8), as: "notes.txt")
        chmod(dir.appendingPathComponent("locked").path, 0)
        let flat = try LibraryScanner.scan(directory: dir.path)
        XCTAssertEqual(flat.items.map(\.displayName), ["a.jpg"])
        let deep = try LibraryScanner.scan(directory: dir.path, recursive: true)
        XCTAssertTrue(deep.items.map(\.displayName).contains("b.jpg"))
        if getuid() != 0 {  // root reads anything: the permission check only means something for users
            XCTAssertTrue(deep.warnings.contains { $0.contains("locked") })
        }
    }

    func testFirstStillsAreTheScansFirstStillItemsFromTheListingAlone() throws {
        for name in ["IMG_10.JPG", "IMG_2.jpg", "IMG_1.jpeg", "z.heic"] { try write([0xFF, 0xD8, 0xFF], as: name) }
        try place(Fixtures.committed("train.mov"), as: "IMG_0.mov")  // a movie (a video item) is not a still
        try write(Array("text".utf8), as: "IMG_3.txt")  // not media
        try write([0xFF, 0xD8, 0xFF], as: ".hidden.jpg")
        let first = LibraryScanner.firstStills(directory: dir.path, count: 3)
        XCTAssertEqual(first.map { ($0 as NSString).lastPathComponent }, ["IMG_1.jpeg", "IMG_2.jpg", "IMG_10.JPG"])
        let scan = try LibraryScanner.scan(directory: dir.path)
        let scannedStills = scan.items.compactMap(\.still?.path)
        XCTAssertEqual(Array(scannedStills.prefix(3)), first, "the same paths, in the scan's order")
        XCTAssertEqual(LibraryScanner.firstStills(directory: dir.path + "/missing", count: 3), [])
        XCTAssertEqual(LibraryScanner.firstStills(directory: dir.path, count: 0), [])
    }

    func testMissingDirectoryIsAnError() {
        XCTAssertThrowsError(try LibraryScanner.scan(directory: dir.appendingPathComponent("nope").path))
    }
}
