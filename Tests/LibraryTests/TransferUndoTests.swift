import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import TestSupport
import XCTest

/// Issue 19.7: `u` undoes a copy (the copies go, only if unchanged) and a move (the files go back, never
/// over something new), each item whole.
final class TransferUndoTests: XCTestCase {
    var root = ""
    override func setUpWithError() throws { root = try TriageFixtures.tempDir("livegrid-undo") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    private func directory(_ name: String) throws -> String {
        let path = root + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func testUndoOfACopyRemovesTheUnchangedCopiesOnly() throws {
        let src = try directory("src"), dst = try directory("dst")
        let first = try TriageFixtures.livePair(in: src, name: "IMG_1")
        let second = try TriageFixtures.still(in: src, name: "IMG_2.JPG")
        let outcomes = ItemFileOperations.transfer([first, second], to: dst, mode: .copy)
        let undo = ItemFileOperations.transferUndo(outcomes, move: false)
        XCTAssertEqual(undo.items.count, 2)
        XCTAssertEqual(undo.fileCount, 3)
        // Someone edits one copy afterwards: that item's copy is kept.
        try Data("edited".utf8).write(to: URL(fileURLWithPath: dst + "/IMG_2.JPG"))
        let results = ItemFileOperations.undoTransfer(undo)
        XCTAssertNil(results[0].error)
        XCTAssertEqual(results[1].error as? ItemFileOperations.UndoError, .changedSince(dst + "/IMG_2.JPG"))
        XCTAssertEqual(TriageFixtures.names(dst), ["IMG_2.JPG"], "the untouched pair is gone, the edited copy stays")
        XCTAssertEqual(TriageFixtures.names(src), ["IMG_1.JPG", "IMG_1.MOV", "IMG_2.JPG"], "sources untouched")
    }

    func testUndoOfAMoveMovesBackAndRefusesToOverwrite() throws {
        let src = try directory("src"), dst = try directory("dst")
        let pair = try TriageFixtures.livePair(in: src, name: "IMG_3")
        let still = try TriageFixtures.still(in: src, name: "IMG_4.JPG")
        let movie = TriageFixtures.bytes(src + "/IMG_3.MOV")
        let outcomes = ItemFileOperations.transfer([pair, still], to: dst, mode: .move)
        XCTAssertEqual(TriageFixtures.names(src), [])
        let undo = ItemFileOperations.transferUndo(outcomes, move: true)
        // Something new appears at one original path: that item stays where it was moved.
        try Data("new".utf8).write(to: URL(fileURLWithPath: src + "/IMG_4.JPG"))
        let results = ItemFileOperations.undoTransfer(undo)
        XCTAssertNil(results[0].error)
        XCTAssertEqual(results[1].error as? FileOperationError, .wouldOverwrite(src + "/IMG_4.JPG"))
        XCTAssertEqual(TriageFixtures.names(src), ["IMG_3.JPG", "IMG_3.MOV", "IMG_4.JPG"])
        XCTAssertEqual(TriageFixtures.bytes(src + "/IMG_3.MOV"), movie, "moved back byte for byte")
        XCTAssertEqual(TriageFixtures.bytes(src + "/IMG_4.JPG"), Data("new".utf8), "the new file is not overwritten")
        XCTAssertEqual(TriageFixtures.names(dst), ["IMG_4.JPG"])
    }

    func testPathCompletionListsDirectoriesInTheTypedSpelling() throws {
        for name in ["photos/2021", "photos/2022", "photos/.hidden"] { _ = try directory(name) }
        _ = FileManager.default.createFile(atPath: root + "/photos/2023.txt", contents: Data())
        XCTAssertEqual(PathCompletion.candidates(for: root + "/photos/20", home: nil), [root + "/photos/2021/", root + "/photos/2022/"],
                       "directories only, hidden ones only when asked for")
        XCTAssertEqual(PathCompletion.candidates(for: root + "/photos/.", home: nil), [root + "/photos/.hidden/"])
        XCTAssertEqual(PathCompletion.candidates(for: "~/ph", home: root), ["~/photos/"])
        XCTAssertEqual(PathCompletion.candidates(for: "ph", home: nil, workingDirectory: root), ["photos/"])
        XCTAssertEqual(PathCompletion.candidates(for: root + "/nowhere/x", home: nil), [])
        XCTAssertEqual(PathCompletion.commonPrefix(["/a/2021/", "/a/2022/"]), "/a/202")
    }
}
