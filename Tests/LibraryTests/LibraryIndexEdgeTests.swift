import Foundation
import Library
import LibraryCore
import LibraryIndex
import TestSupport
import XCTest

/// Issue 32.7: the library index's edges. Concurrent first opens make the schema once; an index that cannot
/// be written says so; a wrong-schema index, a directory or a dangling symlink at its path is moved aside and
/// rebuilt with one message; a same-size, same-mtime rewrite is probed again (the ctime is in the key).
final class LibraryIndexEdgeTests: XCTestCase {
    private var dir: URL!
    private var library: URL!
    private var indexPath: String!

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory("livegrid-index-edges")
        library = dir.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        indexPath = dir.appendingPathComponent("cache/livegrid/library-index.sqlite").path
        for (source, name) in [("train.jpg", "IMG_0001.JPG"), ("train.mov", "IMG_0001.MOV")] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(source), toPath: library.appendingPathComponent(name).path)
        }
    }

    override func tearDownWithError() throws {
        // try?: clean-up of a temporary folder (chattr may have been left set by a failed test: undo it first).
        _ = try? ExternalTool.runProgram("/usr/bin/chattr", ["-i", indexPath])
        try? FileManager.default.removeItem(at: dir)
    }

    private func scan(index: LibraryIndex? = nil) throws -> LibraryScan {
        try LibraryScanner.scan(directory: library.path, recursive: false, index: index ?? LibraryIndex(path: indexPath))
    }

    func testConcurrentFirstOpensMakeTheSchemaOnceWithoutAWarning() throws {
        for round in 0..<10 {
            let path = dir.appendingPathComponent("race-\(round)/index.sqlite").path
            // Each opener writes only its own slot.
            let slots = UnsafeMutableBufferPointer<String?>.allocate(capacity: 4)
            slots.initialize(repeating: nil)
            defer { slots.deallocate() }
            let usable = UnsafeMutableBufferPointer<Bool>.allocate(capacity: 4)
            usable.initialize(repeating: false)
            defer { usable.deallocate() }
            nonisolated(unsafe) let (warningSlots, usableSlots) = (slots, usable)
            DispatchQueue.concurrentPerform(iterations: 4) { i in
                let index = LibraryIndex(path: path)
                warningSlots[i] = index.warning
                usableSlots[i] = index.isUsable
            }
            XCTAssertEqual(slots.compactMap { $0 }, [], "round \(round)")
            XCTAssertEqual(Array(usable), [true, true, true, true], "round \(round)")
        }
    }

    func testARewriteWithTheSameSizeAndMtimeIsProbedAgain() throws {
        _ = try scan()
        let still = library.appendingPathComponent("IMG_0001.JPG").path
        let reference = dir.appendingPathComponent("reference").path
        XCTAssertEqual(try ExternalTool.runProgram("/usr/bin/touch", ["-r", still, reference]).status, 0)
        // Same bytes count, one byte changed in the middle, the old mtime put back (`touch -r`).
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: still))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        let byte = try XCTUnwrap(handle.readData(ofLength: 1).first)
        try handle.seek(toOffset: size / 2)
        handle.write(Data([byte ^ 0xFF]))
        try handle.close()
        usleep(20_000)   // the ctime has a clock tick to move on (it is what tells the two versions apart)
        XCTAssertEqual(try ExternalTool.runProgram("/usr/bin/touch", ["-r", reference, still]).status, 0)
        XCTAssertEqual(try scan().probedFiles, 1, "the rewritten file is probed again")
    }

    func testAWrongSchemaIndexIsMovedAsideAndRebuiltWithOneMessage() throws {
        try FileManager.default.createDirectory(atPath: (indexPath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
            throw MissingRequirement.tool("sqlite3 is not installed")
        }
        let made = try ExternalTool.runProgram("/usr/bin/sqlite3", [indexPath, "CREATE TABLE probes(x); PRAGMA user_version = 3;"])
        XCTAssertEqual(made.status, 0, made.err)
        let index = LibraryIndex(path: indexPath)
        XCTAssertTrue(index.isUsable)
        let warning = try XCTUnwrap(index.warning)
        XCTAssertTrue(warning.contains("moved aside") && warning.contains("rebuilt"), warning)
        XCTAssertTrue(FileManager.default.fileExists(atPath: indexPath + ".moved-aside"))
        XCTAssertEqual(try scan(index: index).probedFiles, 2)
        let next = LibraryIndex(path: indexPath)
        XCTAssertNil(next.warning, "healed: the next run says nothing")
        XCTAssertEqual(try scan(index: next).probedFiles, 0)
    }

    func testADirectoryAtTheIndexPathIsMovedAsideAndRebuilt() throws {
        try FileManager.default.createDirectory(atPath: indexPath, withIntermediateDirectories: true)
        let index = LibraryIndex(path: indexPath)
        XCTAssertTrue(index.isUsable)
        XCTAssertEqual(index.warning, "the library index \(indexPath!) was moved aside to \(indexPath!).moved-aside "
                       + "(it is a directory) and has been rebuilt")
        XCTAssertEqual(try scan(index: index).probedFiles, 2)
        XCTAssertNil(LibraryIndex(path: indexPath).warning, "healed")
    }

    func testADanglingSymlinkAtTheIndexPathIsMovedAsideAndRebuilt() throws {
        try FileManager.default.createDirectory(atPath: (indexPath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        XCTAssertEqual(symlink("/nonexistent-\(getpid())/nowhere/index.sqlite", indexPath), 0)
        let index = LibraryIndex(path: indexPath)
        XCTAssertTrue(index.isUsable)
        XCTAssertTrue(index.warning?.contains("symbolic link to nothing") == true, index.warning ?? "")
        XCTAssertNil(LibraryIndex(path: indexPath).warning, "healed")
    }

    func testAnIndexThatCannotBeWrittenSaysSo() throws {
        _ = try scan()
        // An immutable file: even root cannot write it (chmod would not stop root).
        let made = try ExternalTool.runProgram("/usr/bin/chattr", ["+i", indexPath])
        guard made.status == 0 else { throw MissingRequirement.tool("chattr +i is refused here: \(made.err)") }
        defer { _ = try? ExternalTool.runProgram("/usr/bin/chattr", ["-i", indexPath]) }   // try?: clean-up
        try FileManager.default.removeItem(at: library.appendingPathComponent("IMG_0001.MOV"))
        try FileManager.default.copyItem(atPath: Fixtures.committed("motion-photo-v1.jpeg"),
                                         toPath: library.appendingPathComponent("PXL_0002.jpg").path)
        let scanned = try scan()
        XCTAssertTrue(scanned.warnings.contains { $0.contains("cannot be written (livegrid may not write it: it is read-only, or another user's)") },
                      "in plain words, not SQLite's: \(scanned.warnings)")
        XCTAssertEqual(scanned.warnings.filter { $0.contains("library index") }.count, 1, "said once")
    }

    /// A cache on a full disk (a 1 MB tmpfs, filled after the first scan): every run says once, in plain
    /// words, that the index cannot be used; SQLite's own words were "disk I/O error" (the WAL's shared
    /// memory cannot grow), which sent the user looking for a failing disk.
    func testAnIndexOnAFullDiskSaysSoOncePerRunInPlainWords() throws {
        let mountPoint = dir.appendingPathComponent("full").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mounted = try ExternalTool.runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint])
        guard mounted.status == 0 else { throw MissingRequirement.tool("cannot mount a 1 MB tmpfs as a full disk (needs root): \(mounted.err)") }
        defer { _ = try? ExternalTool.runProgram("/bin/umount", ["-l", mountPoint]) }   // try?: clean-up
        indexPath = mountPoint + "/livegrid/library-index.sqlite"
        XCTAssertEqual(try scan().probedFiles, 2, "the first scan, with room")
        // Fill the disk: dd stops (non-zero) when no block is left.
        _ = try ExternalTool.runProgram("/bin/dd", ["if=/dev/zero", "of=\(mountPoint)/fill", "bs=4k"])
        var space = statvfs()
        XCTAssertEqual(statvfs(mountPoint, &space), 0)
        XCTAssertEqual(space.f_bavail, 0, "the disk is full")
        try FileManager.default.copyItem(atPath: Fixtures.committed("motion-photo-v1.jpeg"),
                                         toPath: library.appendingPathComponent("PXL_0002.jpg").path)
        for run in 1...2 {
            let scanned = try scan()
            let said = scanned.warnings.filter { $0.contains("library index") }
            XCTAssertEqual(said.count, 1, "run \(run): said once: \(scanned.warnings)")
            XCTAssertTrue(said.first?.contains("the disk is full") == true, "run \(run): \(said)")
            XCTAssertFalse(said.joined().contains("I/O error"), "run \(run): \(said)")
        }
    }
}
