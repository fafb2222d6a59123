import Foundation
import Library
import LibraryCore
import LibrarySources
import TestSupport
import XCTest

/// When a group operation fails midway and its undo fails too, the user is told which files stayed where:
/// the error is an `IncompleteRollback` naming each stranded file, never a silent split group.
///
/// The undo is made to fail with the append-only attribute (`chattr +a`): such a directory takes new names
/// but refuses to lose one, even for root (permissions would not stop root, who runs these tests).
final class RollbackFailureTests: XCTestCase {
    private var root = ""
    private var appendOnlyDirectories: [String] = []

    override func setUpWithError() throws {
        root = try TriageFixtures.tempDir("livegrid-rollback")
    }

    override func tearDown() {
        for dir in appendOnlyDirectories { _ = try? ExternalTool.runProgram("/usr/bin/chattr", ["-a", dir]) }
        try? FileManager.default.removeItem(atPath: root)
    }

    private func directory(_ name: String) throws -> String {
        let path = root + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func file(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// New names may appear in `dir`, none may go.
    private func makeAppendOnly(_ dir: String) throws {
        guard let chattr = ExternalTool.path("chattr") else {
            throw MissingRequirement.tool("chattr is not installed (e2fsprogs): cannot make an undo fail")
        }
        let result = try ExternalTool.runProgram(chattr, ["+a", dir])
        guard result.status == 0 else {
            // Not a missing tool but a machine that cannot set attributes (not root, or tmpfs/overlayfs):
            // the condition this test needs cannot be made here, whatever the code does.
            throw XCTSkip("chattr +a \(dir) failed (needs root and a file system with attributes): \(result.err)")
        }
        appendOnlyDirectories.append(dir)
    }

    private func incompleteRollback(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> IncompleteRollback? {
        do {
            try body()
            XCTFail("the operation should have failed", file: file, line: line)
        } catch let error as IncompleteRollback {
            return error
        } catch {
            XCTFail("expected an IncompleteRollback, got \(error)", file: file, line: line)
        }
        return nil
    }

    func testAMoveWhoseUndoFailsNamesTheFileLeftInTheDestination() throws {
        let source = try directory("card"), destination = try directory("sorted")
        // The still vanished (another program took it) after the movie, which moves first, went over.
        try file(source + "/IMG_1.MOV", "movie")
        try makeAppendOnly(destination)

        let error = incompleteRollback {
            _ = try FileGroupTransfer().transfer([source + "/IMG_1.JPG", source + "/IMG_1.MOV"], to: destination, mode: .move)
        }
        XCTAssertEqual(error?.cause as? FileOperationError,
                       .system(operation: "rename", path: source + "/IMG_1.JPG", errno: ENOENT))
        XCTAssertEqual(error?.stranded, [.init(path: destination + "/IMG_1.MOV", undo: .moveBack(to: source + "/IMG_1.MOV"),
                                               problem: .system(operation: "unlink", path: destination + "/IMG_1.MOV", errno: EPERM))])
        XCTAssertEqual(error?.description,
                       "\(source)/IMG_1.JPG: rename failed: No such file or directory; undoing it failed too: "
                       + "\(destination)/IMG_1.MOV could not go back to \(source)/IMG_1.MOV "
                       + "(\(destination)/IMG_1.MOV: unlink failed: Operation not permitted)")
        // The movie is where the message says, whole, and nowhere else.
        XCTAssertEqual(TriageFixtures.bytes(destination + "/IMG_1.MOV"), Data("movie".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: source + "/IMG_1.MOV"))
    }

    func testATrashWhoseUndoFailsKeepsTheStrandedFileRestorable() throws {
        let trash = FreedesktopTrash(environment: ["XDG_DATA_HOME": root + "/data", "HOME": root])
        let files = try directory("data/Trash/files"), info = try directory("data/Trash/info")
        let stills = try directory("stills"), movies = try directory("movies")
        try file(stills + "/IMG_2.JPG", "still")
        try file(movies + "/IMG_2.MOV", "movie")
        // The movie cannot leave its folder; the still, trashed first, cannot leave the trash again.
        try makeAppendOnly(movies)
        try makeAppendOnly(files)

        let error = incompleteRollback { _ = try trash.trash([stills + "/IMG_2.JPG", movies + "/IMG_2.MOV"]) }
        XCTAssertEqual(error?.cause as? FileOperationError,
                       .system(operation: "unlink", path: movies + "/IMG_2.MOV", errno: EPERM))
        // The movie's rename left a second name in the trash (its first could not go, nor then the new one),
        // and the still cannot leave the trash again: both are named.
        let strayLink = IncompleteRollback.StrandedFile(path: files + "/IMG_2.MOV", undo: .removeCopy(original: movies + "/IMG_2.MOV"),
                                                        problem: .system(operation: "unlink", path: files + "/IMG_2.MOV", errno: EPERM))
        let still = IncompleteRollback.StrandedFile(path: files + "/IMG_2.JPG", undo: .moveBack(to: stills + "/IMG_2.JPG"),
                                                    problem: .system(operation: "unlink", path: files + "/IMG_2.JPG", errno: EPERM))
        XCTAssertEqual(error?.stranded, [strayLink, still])
        XCTAssertTrue(error?.description.contains("the copy \(files)/IMG_2.MOV of \(movies)/IMG_2.MOV could not be removed") ?? false,
                      error?.description ?? "")
        XCTAssertTrue(error?.description.contains("\(files)/IMG_2.JPG could not go back to \(stills)/IMG_2.JPG") ?? false,
                      error?.description ?? "")
        XCTAssertEqual(TriageFixtures.bytes(files + "/IMG_2.JPG"), Data("still".utf8))
        XCTAssertEqual(TriageFixtures.bytes(movies + "/IMG_2.MOV"), Data("movie".utf8), "the movie never left")
        // The stranded still keeps its .trashinfo (a file manager can restore it); the movie's claim is gone.
        XCTAssertEqual(TriageFixtures.names(info), ["IMG_2.JPG.trashinfo"])
        let text = try String(contentsOfFile: info + "/IMG_2.JPG.trashinfo", encoding: .utf8)
        XCTAssertEqual(TrashInfo.parse(text)?.path, stills + "/IMG_2.JPG")
    }

    func testARestoreWhoseUndoFailsNamesTheFileAlreadyBack() throws {
        let stillTrash = try directory("trash1/files"), movieTrash = try directory("trash2/files")
        let stills = try directory("stills"), movies = try directory("movies")
        try file(stillTrash + "/IMG_3.JPG", "still")
        try file(movieTrash + "/IMG_3.MOV", "movie")
        // The still comes back first and cannot leave its folder again; the movie cannot leave its trash.
        try makeAppendOnly(stills)
        try makeAppendOnly(movieTrash)
        let stillPath: String = stills + "/IMG_3.JPG", trashedStill: String = stillTrash + "/IMG_3.JPG"
        let moviePath: String = movies + "/IMG_3.MOV", trashedMovie: String = movieTrash + "/IMG_3.MOV"
        let stillEntry = FreedesktopTrash.Entry(originalPath: stillPath, trashedPath: trashedStill,
                                                infoPath: root + "/trash1/info/IMG_3.JPG.trashinfo")
        let movieEntry = FreedesktopTrash.Entry(originalPath: moviePath, trashedPath: trashedMovie,
                                                infoPath: root + "/trash2/info/IMG_3.MOV.trashinfo")
        let record = FreedesktopTrash.Record(entries: [stillEntry, movieEntry])

        let trash = FreedesktopTrash(environment: ["XDG_DATA_HOME": root + "/data", "HOME": root])
        let error = incompleteRollback { try trash.restore(record) }
        XCTAssertEqual(error?.cause as? FileOperationError,
                       .system(operation: "unlink", path: movieTrash + "/IMG_3.MOV", errno: EPERM))
        let expected = IncompleteRollback.StrandedFile(path: stillPath, undo: .moveBack(to: trashedStill),
                                                       problem: .system(operation: "unlink", path: stillPath, errno: EPERM))
        XCTAssertEqual(error?.stranded, [expected])
        XCTAssertEqual(TriageFixtures.bytes(stills + "/IMG_3.JPG"), Data("still".utf8))
        XCTAssertEqual(TriageFixtures.bytes(movieTrash + "/IMG_3.MOV"), Data("movie".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: movies + "/IMG_3.MOV"))
    }

    func testAnUndoThatWorksThrowsTheFirstFailureAlone() throws {
        let source = try directory("card"), destination = try directory("sorted")
        try file(source + "/IMG_4.MOV", "movie")
        XCTAssertThrowsError(try FileGroupTransfer().transfer([source + "/IMG_4.JPG", source + "/IMG_4.MOV"],
                                                              to: destination, mode: .move)) { error in
            XCTAssertEqual(error as? FileOperationError, .system(operation: "rename", path: source + "/IMG_4.JPG", errno: ENOENT))
        }
        XCTAssertEqual(TriageFixtures.bytes(source + "/IMG_4.MOV"), Data("movie".utf8), "the movie went back")
        XCTAssertEqual(TriageFixtures.names(destination), [])
    }

    /// An undo of a move whose files came from two folders: the second folder refuses, so the first one's file
    /// must return to where the move had put it (the item stays whole) — and here that fails too.
    private func twoFolderUndo(firstFolderAppendOnly: Bool) throws -> (error: Error?, stills: String, sortedStills: String) {
        let stills = try directory("a-stills"), movies = try directory("b-movies")
        let sortedStills = try directory("sorted-stills"), sortedMovies = try directory("sorted-movies")
        try file(sortedStills + "/IMG_5.JPG", "still")
        try file(sortedMovies + "/IMG_5.MOV", "movie")
        try makeAppendOnly(sortedMovies)   // the movie cannot leave where the move put it
        if firstFolderAppendOnly { try makeAppendOnly(stills) }   // and the still, once back, cannot leave again
        let undo = ItemFileOperations.TransferUndo(isMove: true, items: [[
            .init(source: stills + "/IMG_5.JPG", destination: sortedStills + "/IMG_5.JPG", identity: nil),
            .init(source: movies + "/IMG_5.MOV", destination: sortedMovies + "/IMG_5.MOV", identity: nil),
        ]])
        let outcomes = ItemFileOperations.undoTransfer(undo)
        XCTAssertEqual(outcomes.count, 1)
        return (outcomes.first?.error, stills, sortedStills)
    }

    func testAnUndoOfAMoveKeepsTheItemWholeWhenItsSecondFolderRefuses() throws {
        let (error, stills, sortedStills) = try twoFolderUndo(firstFolderAppendOnly: false)
        XCTAssertEqual(error as? FileOperationError,
                       .system(operation: "unlink", path: root + "/sorted-movies/IMG_5.MOV", errno: EPERM))
        XCTAssertEqual(TriageFixtures.bytes(sortedStills + "/IMG_5.JPG"), Data("still".utf8), "the still went back to the move's place")
        XCTAssertFalse(FileManager.default.fileExists(atPath: stills + "/IMG_5.JPG"))
    }

    func testAnUndoOfAMoveWhoseRollbackFailsNamesTheStillLeftInItsOldFolder() throws {
        let (error, stills, sortedStills) = try twoFolderUndo(firstFolderAppendOnly: true)
        let rollback = try XCTUnwrap(error as? IncompleteRollback, "\(String(describing: error))")
        XCTAssertEqual(rollback.cause as? FileOperationError,
                       .system(operation: "unlink", path: root + "/sorted-movies/IMG_5.MOV", errno: EPERM))
        XCTAssertEqual(rollback.stranded, [.init(path: stills + "/IMG_5.JPG", undo: .moveBack(to: sortedStills + "/IMG_5.JPG"),
                                                 problem: .system(operation: "unlink", path: stills + "/IMG_5.JPG", errno: EPERM))])
        XCTAssertEqual(TriageFixtures.bytes(stills + "/IMG_5.JPG"), Data("still".utf8))
        XCTAssertTrue(rollback.description.contains("\(stills)/IMG_5.JPG could not go back to \(sortedStills)/IMG_5.JPG"),
                      rollback.description)
    }

    func testAnUndoOfACopyReportsACopyThatCannotBeRemoved() throws {
        let sorted = try directory("sorted")
        try file(sorted + "/IMG_6.JPG", "copy")
        let identity = try XCTUnwrap(ItemFileOperations.FileIdentity(path: sorted + "/IMG_6.JPG"))
        try makeAppendOnly(sorted)
        let undo = ItemFileOperations.TransferUndo(isMove: false, items: [[
            .init(source: root + "/IMG_6.JPG", destination: sorted + "/IMG_6.JPG", identity: identity),
        ]])
        let outcome = ItemFileOperations.undoTransfer(undo).first
        XCTAssertEqual(outcome?.error as? FileOperationError,
                       .system(operation: "unlink", path: sorted + "/IMG_6.JPG", errno: EPERM))
        XCTAssertEqual(TriageFixtures.bytes(sorted + "/IMG_6.JPG"), Data("copy".utf8))
    }
}
