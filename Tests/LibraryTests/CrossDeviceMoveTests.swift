import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import TestSupport
import XCTest

/// Issue 32.2 below the browser: a move to another file system is a group commit. While any byte is being
/// copied no final name exists at the destination (the movie used to be committed before the still was
/// copied), and a cancelled move leaves both ends as they were.
final class CrossDeviceMoveTests: XCTestCase {
    var root = ""
    var other = ""
    override func setUpWithError() throws {
        root = try TriageFixtures.tempDir()
        var st = stat(), shm = stat()
        guard stat(root, &st) == 0, stat("/dev/shm", &shm) == 0, st.st_dev != shm.st_dev else {
            throw MissingRequirement.tool("/dev/shm is not another file system here: no cross-device move to test")
        }
        other = "/dev/shm/livegrid-move-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    }
    override func tearDown() {
        try? FileManager.default.removeItem(atPath: root)   // try?: clean-up of temporary folders
        if !other.isEmpty { try? FileManager.default.removeItem(atPath: other) }
    }

    func testNoFinalNameAppearsBeforeEveryFileIsCopiedAndVerified() throws {
        let item = try TriageFixtures.livePair(in: root, name: "IMG_7")
        let before = (TriageFixtures.bytes(root + "/IMG_7.JPG"), TriageFixtures.bytes(root + "/IMG_7.MOV"))
        let seen = SeenNames()
        let directory = other
        let watching = FileCopier(chunkSize: 4096) { _, _ in
            seen.add((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])   // try?: a listing for the check
        }
        let outcome = ItemFileOperations.transfer([item], to: other, mode: .move, transfer: FileGroupTransfer(copier: watching))
        XCTAssertNil(outcome.first?.error)
        XCTAssertFalse(seen.names.isEmpty, "the copier was watched")
        XCTAssertEqual(seen.names.filter { !$0.hasPrefix(".") }, [], "a final name was visible while copying")
        XCTAssertEqual(TriageFixtures.names(other), ["IMG_7.JPG", "IMG_7.MOV"])
        XCTAssertEqual(TriageFixtures.bytes(other + "/IMG_7.JPG"), before.0)
        XCTAssertEqual(TriageFixtures.bytes(other + "/IMG_7.MOV"), before.1)
        XCTAssertEqual(TriageFixtures.names(root), [], "the sources went once the pair was in place")
    }

    func testACancelledMoveLeavesBothEndsAsTheyWere() throws {
        let item = try TriageFixtures.livePair(in: root, name: "IMG_8")
        let still = TriageFixtures.bytes(root + "/IMG_8.JPG")
        let outcome = ItemFileOperations.transfer([item], to: other, mode: .move) { source, _ in
            if source.hasSuffix(".MOV") { throw FileOperationError.cancelled }
        }
        XCTAssertEqual(outcome.first?.error as? FileOperationError, .cancelled)
        XCTAssertEqual(TriageFixtures.names(other), [], "no final name and no temporary")
        XCTAssertEqual(TriageFixtures.names(root), ["IMG_8.JPG", "IMG_8.MOV"])
        XCTAssertEqual(TriageFixtures.bytes(root + "/IMG_8.JPG"), still)
    }
}

/// Names listed during the copy (the observer runs on the copying thread; the class only collects).
private final class SeenNames: @unchecked Sendable {
    private(set) var names: Set<String> = []
    func add(_ listed: [String]) { names.formUnion(listed) }
}
