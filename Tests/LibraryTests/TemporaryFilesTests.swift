import Foundation
import MediaFormats
import TestSupport
import XCTest

/// livegrid's temporaries: their names, which ones count as stale, and the group commit order.
final class TemporaryFilesTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws { dir = try Fixtures.makeTemporaryDirectory("livegrid-temporaries") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func names() throws -> Set<String> { Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) }

    func touch(_ name: String) { _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data([1])) }

    /// The pid of a process that has ended (and been reaped).
    func deadPid() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    func testANameCarriesItsOwnerAndParsesBack() {
        let name = TemporaryFileName.make(for: "IMG_0001.MOV")
        XCTAssertTrue(name.hasPrefix(".IMG_0001.MOV.livegrid-\(getpid())-"), name)
        XCTAssertTrue(name.hasSuffix(".tmp"), name)
        guard case .owned(let owner)? = TemporaryFileName.parse(Array(name.utf8)) else { return XCTFail(name) }
        XCTAssertEqual(owner.pid, getpid())
        XCTAssertEqual(owner.boot, TemporaryFileName.currentBoot)
        XCTAssertNotEqual(TemporaryFileName.make(for: "a"), TemporaryFileName.make(for: "a"))
        // A name at NAME_MAX still gives a temporary name that fits.
        let long = String(repeating: "é", count: 127) + ".JPG"
        XCTAssertLessThanOrEqual(TemporaryFileName.make(for: long).utf8.count, 255)
    }

    func testOnlyLivegridsExactPatternIsRecognised() {
        func parse(_ name: String) -> TemporaryFileName.Parsed? { TemporaryFileName.parse(Array(name.utf8)) }
        XCTAssertEqual(parse(".a.jpg.livegrid-12-0123abcd45670000-89abcdef.tmp"),
                       .owned(TemporaryFileName(pid: 12, boot: "0123abcd45670000", unique: "89abcdef")))
        XCTAssertEqual(parse(".IMG_1.MOV.livegrid-3141592653.tmp"), .legacy)
        for other in ["a.jpg.livegrid-12-0123abcd45670000-89abcdef.tmp",      // not hidden
                      ".a.jpg.livegrid-12-0123abcd45670000-89abcdef.tmp~",    // not ours any more
                      ".a.jpg.livegrid-12-0123ABCD45670000-89abcdef.tmp",     // upper-case hex: never written by livegrid
                      ".a.jpg.livegrid-12-0123abcd-89abcdef.tmp",
                      ".a.jpg.livegrid-x-0123abcd45670000-89abcdef.tmp",
                      ".a.jpg.livegrid-12-0123abcd45670000-89abcdef-1.tmp",
                      ".a.jpg.livegrid--0123abcd45670000-89abcdef.tmp",
                      ".livegrid-12-0123abcd45670000-89abcdef.tmp",
                      ".a.jpg.tmp", ".a.jpg.livegrid-.tmp", "IMG_1.JPG", ".a.jpg.livegrid-backup-12"] {
            XCTAssertNil(parse(other), other)
        }
    }

    func testTheSweepRemovesOnlyTemporariesOfDeadOwners() throws {
        let boot = TemporaryFileName.currentBoot
        let dead = try deadPid()
        let stale = ".IMG_1.MOV.livegrid-\(dead)-\(boot)-00000001.tmp"
        let mine = ".IMG_1.JPG.livegrid-\(getpid())-\(boot)-00000002.tmp"
        let initsOwn = ".IMG_2.JPG.livegrid-1-\(boot)-00000003.tmp"                 // pid 1 lives, started earlier
        let otherMachine = ".IMG_3.JPG.livegrid-\(dead)-ffffffff\(boot.suffix(8))-00000004.tmp"
        let earlierBoot = ".IMG_6.JPG.livegrid-1-\(TemporaryFileName.currentMachine)\(boot.hasSuffix("ffffffff") ? "eeeeeeee" : "ffffffff")-00000007.tmp"
        let legacy = ".IMG_4.JPG.livegrid-123456.tmp"
        let someoneElses = [".IMG_5.JPG.tmp", "IMG_5.JPG", ".IMG_5.JPG.livegrid-\(dead)-\(boot)-0000000g.tmp"]
        for name in [stale, mine, initsOwn, otherMachine, legacy, earlierBoot] + someoneElses { touch(name) }
        // A symlink and a directory named like a stale temporary are not livegrid's files.
        let linkName = ".L.MOV.livegrid-\(dead)-\(boot)-00000005.tmp"
        let dirName = ".D.MOV.livegrid-\(dead)-\(boot)-00000006.tmp"
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent(linkName).path, withDestinationPath: "IMG_5.JPG")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(dirName), withIntermediateDirectories: false)

        let removed = StaleTemporaryFiles.remove(in: dir.path)
        // A machine that does not tell its id cannot tell its earlier boots from other machines either.
        let machineKnown = TemporaryFileName.currentMachine != TemporaryFileName.unknown
        XCTAssertEqual(Set(removed), Set([stale] + (machineKnown ? [earlierBoot] : [])))
        XCTAssertEqual(try names(), Set([mine, initsOwn, otherMachine, legacy, linkName, dirName] + someoneElses
                                        + (machineKnown ? [] : [earlierBoot])))
    }

    func testAReusedPidOrAnUnaskableOwnerMakesATemporaryStaleOnlyWhenOld() throws {
        let now = Date().timeIntervalSince1970
        let boot = TemporaryFileName.currentBoot
        // A process that started just now cannot own a file last changed 100 s ago: its pid was reused.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        defer { child.terminate(); child.waitUntilExit() }
        let reused = TemporaryFileName.Parsed.owned(TemporaryFileName(pid: child.processIdentifier, boot: boot, unique: "00000001"))
        XCTAssertTrue(StaleTemporaryFiles.isStale(reused, modified: now - 100, now: now))
        XCTAssertFalse(StaleTemporaryFiles.isStale(reused, modified: now + 1, now: now + 1))
        let foreign = TemporaryFileName.Parsed.owned(TemporaryFileName(pid: 1, boot: "ffffffff" + boot.suffix(8), unique: "00000001"))
        XCTAssertFalse(StaleTemporaryFiles.isStale(foreign, modified: now - 3600, now: now))
        XCTAssertTrue(StaleTemporaryFiles.isStale(foreign, modified: now - 25 * 3600, now: now))
        XCTAssertFalse(StaleTemporaryFiles.isStale(.legacy, modified: now - 60, now: now))
        XCTAssertTrue(StaleTemporaryFiles.isStale(.legacy, modified: now - 25 * 3600, now: now))
    }

    func testATemporaryOfAZombieIsStale() throws {
        // A child that has exited but is not reaped yet: kill(pid, 0) still succeeds.
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        XCTAssertEqual(posix_spawn(&pid, "/bin/true", nil, nil, argv, environ), 0)
        defer { var status: Int32 = 0; waitpid(pid, &status, 0) }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") == true { break }
            usleep(10_000)
        }
        XCTAssertEqual(kill(pid, 0), 0, "the zombie still has its pid")
        let name = ".IMG_1.MOV.livegrid-\(pid)-\(TemporaryFileName.currentBoot)-00000001.tmp"
        touch(name)
        XCTAssertEqual(StaleTemporaryFiles.remove(in: dir.path), [name])
    }

    func testTheFirstWriterIntoAFolderSweepsIt() throws {
        let stale = ".IMG_1.MOV.livegrid-\(try deadPid())-\(TemporaryFileName.currentBoot)-00000001.tmp"
        touch(stale)
        try AtomicFileWriter.write([1, 2], to: dir.appendingPathComponent("new.bin").path)
        XCTAssertEqual(try names(), ["new.bin"])
    }

    func testAGroupCommitsItsCompanionsBeforeItsPrimary() throws {
        let still = try AtomicFileWriter(destination: dir.appendingPathComponent("IMG_1.JPG").path)
        let movie = try AtomicFileWriter(destination: dir.appendingPathComponent("IMG_1.MOV").path)
        try still.write([1])
        try movie.write([2, 2])
        try AtomicFileWriter.commitGroup(primary: still, companions: [movie])
        XCTAssertEqual(try names(), ["IMG_1.JPG", "IMG_1.MOV"])
        // Each link(2) into place changes its file's status time: the movie's is never the later one.
        func changed(_ name: String) -> Double {
            var st = stat()
            _ = stat(dir.appendingPathComponent(name).path, &st)
            return Double(st.st_ctim.tv_sec) + Double(st.st_ctim.tv_nsec) / 1e9
        }
        XCTAssertLessThanOrEqual(changed("IMG_1.MOV"), changed("IMG_1.JPG"))
    }

    func testAGroupWhosePrimaryNameIsTakenLeavesNothing() throws {
        touch("IMG_1.JPG")
        let still = try AtomicFileWriter(destination: dir.appendingPathComponent("IMG_1.JPG").path)
        let movie = try AtomicFileWriter(destination: dir.appendingPathComponent("IMG_1.MOV").path)
        try still.write([1])
        try movie.write([2, 2])
        XCTAssertThrowsError(try AtomicFileWriter.commitGroup(primary: still, companions: [movie])) { error in
            guard case AtomicFileWriter.WriteError.exists = error else { return XCTFail("\(error)") }
        }
        // The movie, committed first, is taken back; the other program's file is untouched.
        XCTAssertEqual(try names(), ["IMG_1.JPG"])
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("IMG_1.JPG")), Data([1]))
    }
}
