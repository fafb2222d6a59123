import Foundation
@testable import MediaFormats
import TestSupport
import XCTest

/// Issue 32.2: a SIGKILL between a group's two renames (the movie placed, the still not yet) used to leave a
/// movie without its still for good. The journal beside the still names the movie; the next livegrid writing
/// in that folder removes it when the still never arrived, and only if it is still the same file.
final class GroupCommitJournalTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws { dir = try Fixtures.makeTemporaryDirectory("livegrid-group-journal") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func names() throws -> Set<String> { Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) }

    private func deadPid() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    private func inode(_ path: String) throws -> (UInt64, UInt64) {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (UInt64(try XCTUnwrap(attributes[.systemNumber] as? Int)), try XCTUnwrap(attributes[.systemFileNumber] as? UInt64))
    }

    /// What a process killed between the renames leaves: the movie in place and a journal owned by a dead pid.
    private func killedGroup(movie: String, still: String) throws -> String {
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.path + "/" + movie, contents: Data("movie".utf8)))
        let (device, inode) = try inode(dir.path + "/" + movie)
        let name = ".\(still)\(GroupCommitJournal.baseSuffix).livegrid-\(try deadPid())-\(TemporaryFileName.currentBoot)-0000abcd.tmp"
        let journal = GroupCommitJournal(path: dir.path + "/" + name)
        XCTAssertTrue(journal.write(primary: dir.path + "/" + still, companions: [(dir.path + "/" + movie, device, inode)]))
        return name
    }

    func testTheNextWriterRemovesAMovieWhoseStillNeverArrived() throws {
        let journal = try killedGroup(movie: "IMG_1.MOV", still: "IMG_1.JPG")
        XCTAssertEqual(try names(), ["IMG_1.MOV", journal])
        StaleTemporaryFiles.remove(in: dir.path)
        XCTAssertEqual(try names(), [], "the half pair and its journal are gone")
    }

    func testAStillThatArrivedKeepsItsMovie() throws {
        let journal = try killedGroup(movie: "IMG_2.MOV", still: "IMG_2.JPG")
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.path + "/IMG_2.JPG", contents: Data("still".utf8)))
        StaleTemporaryFiles.remove(in: dir.path)
        XCTAssertEqual(try names(), ["IMG_2.MOV", "IMG_2.JPG"], "killed after both renames: only the journal goes (\(journal))")
    }

    func testAMovieReplacedSinceIsNeverRemoved() throws {
        _ = try killedGroup(movie: "IMG_3.MOV", still: "IMG_3.JPG")
        let movie = dir.path + "/IMG_3.MOV"
        // Made while the movie still exists (so it cannot get the movie's inode back), then renamed over it.
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.path + "/other", contents: Data("someone else's".utf8)))
        XCTAssertEqual(rename(dir.path + "/other", movie), 0)
        StaleTemporaryFiles.remove(in: dir.path)
        XCTAssertEqual(try names(), ["IMG_3.MOV"], "another file now at that name stays")
    }

    func testALiveWritersJournalIsLeftAlone() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.path + "/IMG_4.MOV", contents: Data("movie".utf8)))
        let journal = try XCTUnwrap(GroupCommitJournal.begin(primary: dir.path + "/IMG_4.JPG"))
        StaleTemporaryFiles.remove(in: dir.path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal.path), "this process is alive: its group is in progress")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path + "/IMG_4.MOV"))
        journal.end()
    }

    func testAGroupCommitLeavesNoJournal() throws {
        let movie = try AtomicFileWriter(destination: dir.path + "/IMG_5.MOV")
        try movie.write(Array("movie".utf8))
        let still = try AtomicFileWriter(destination: dir.path + "/IMG_5.JPG")
        try still.write(Array("still".utf8))
        try AtomicFileWriter.commitGroup(primary: still, companions: [movie])
        XCTAssertEqual(try names(), ["IMG_5.MOV", "IMG_5.JPG"])
    }
}
