import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import TestSupport
import XCTest

final class TriageTransferTests: XCTestCase {
    var root = ""
    override func setUpWithError() throws { root = try TriageFixtures.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    func testCopyResolvesCollisionsWithoutOverwritingEitherHalf() throws {
        let src = root + "/src", dst = root + "/dst"
        try FileManager.default.createDirectory(atPath: src, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dst, withIntermediateDirectories: true)
        let item = try TriageFixtures.livePair(in: src, name: "IMG_1")
        try TriageState(rating: 3).write(for: item)
        // Only the movie's name is taken at the destination: both halves must still move on to (2).
        try Data("other".utf8).write(to: URL(fileURLWithPath: dst + "/IMG_1.MOV"))
        let outcome = ItemFileOperations.transfer([item], to: dst, mode: .copy)
        XCTAssertNil(outcome.first?.error)
        XCTAssertEqual(TriageFixtures.names(dst), ["IMG_1 (2).JPG", "IMG_1 (2).JPG.xmp", "IMG_1 (2).MOV", "IMG_1.MOV"])
        XCTAssertEqual(TriageFixtures.bytes(dst + "/IMG_1.MOV"), Data("other".utf8))
        XCTAssertEqual(TriageFixtures.bytes(dst + "/IMG_1 (2).MOV"), TriageFixtures.bytes(src + "/IMG_1.MOV"))
        XCTAssertEqual(TriageFixtures.names(src).count, 3, "a copy leaves the sources")
    }

    func testMoveTakesTheWholeGroupAndCrossDeviceMoveVerifies() throws {
        let dst = root + "/dst"
        try FileManager.default.createDirectory(atPath: dst, withIntermediateDirectories: true)
        let item = try TriageFixtures.livePair(in: root, name: "IMG_2")
        let original = TriageFixtures.bytes(root + "/IMG_2.MOV")
        XCTAssertNil(ItemFileOperations.transfer([item], to: dst, mode: .move).first?.error)
        XCTAssertEqual(TriageFixtures.names(dst), ["IMG_2.JPG", "IMG_2.MOV"])
        XCTAssertEqual(TriageFixtures.names(root), ["dst"])
        XCTAssertEqual(TriageFixtures.bytes(dst + "/IMG_2.MOV"), original)

        // /dev/shm is another device here: rename fails with EXDEV, the move copies, verifies, deletes.
        var st = stat(), shm = stat()
        guard stat(root, &st) == 0, stat("/dev/shm", &shm) == 0, st.st_dev != shm.st_dev else {
            throw XCTSkip("no second device to test a cross-device move")
        }
        let other = "/dev/shm/livegrid-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: other) }
        let moved = try FileGroupTransfer().transfer([dst + "/IMG_2.JPG", dst + "/IMG_2.MOV"], to: other, mode: .move)
        XCTAssertEqual(moved.map { ($0.destination as NSString).lastPathComponent }, ["IMG_2.JPG", "IMG_2.MOV"])
        XCTAssertEqual(TriageFixtures.names(dst), [])
        XCTAssertEqual(TriageFixtures.bytes(other + "/IMG_2.MOV"), original)
    }

    func testAFailedCopyRollsBackTheHalfAlreadyCopied() throws {
        let dst = root + "/dst"
        try FileManager.default.createDirectory(atPath: dst, withIntermediateDirectories: true)
        let item = try TriageFixtures.livePair(in: root, name: "IMG_3")
        let failing = FileCopier(chunkSize: 4096) { destination, _ in
            if destination.hasSuffix(".MOV") { throw FileOperationError.cancelled }
        }
        let outcome = ItemFileOperations.transfer([item], to: dst, mode: .copy,
                                                  transfer: FileGroupTransfer(copier: failing))
        XCTAssertEqual(outcome.first?.error as? FileOperationError, .cancelled)
        XCTAssertEqual(TriageFixtures.names(dst), [], "neither the still nor a temporary file is left")
    }

    func testAReadOnlyDestinationGivesAClearError() throws {
        let item = try TriageFixtures.livePair(in: root, name: "IMG_4")
        let readOnly = try TriageFixtures.readOnlyDirectory(in: root)
        defer { chmod(readOnly, 0o755) }
        let outcome = ItemFileOperations.transfer([item], to: readOnly, mode: .copy)
        let error = try XCTUnwrap(outcome.first?.error as? FileOperationError)
        XCTAssertEqual(error, .notWritable(readOnly))
        XCTAssertTrue(error.description.contains("not writable"), error.description)
        XCTAssertTrue(TriageFixtures.names(root).starts(with: ["IMG_4.JPG", "IMG_4.MOV"]))
    }
}

extension TriageFixtures {
    /// A directory nothing can be created in. Root ignores permission bits, so as root the test uses /proc
    /// (a file system that refuses new files).
    static func readOnlyDirectory(in root: String) throws -> String {
        if geteuid() == 0 { return "/proc" }
        let dir = root + "/ro"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(dir, 0o555)
        return dir
    }
}

extension TriageState {
    @discardableResult
    func write(for item: LibraryItem) throws -> String { try SidecarTriageStore.write(self, for: item) }
}
