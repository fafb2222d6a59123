import Foundation
import Library
import LibraryIndex
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 17: the library index survives a `livegrid scan` killed with SIGKILL while it writes. Each round
/// starts a real child process on a fresh folder, waits until its write-ahead log holds data (a
/// transaction is being written), kills it, then opens the index again: SQLite's integrity check passes,
/// no warning is given, and a scan through the index equals a plain scan.
final class LibraryIndexKillTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws { root = try Fixtures.makeTemporaryDirectory("livegrid-index-kill") }
    override func tearDownWithError() throws { if let root { try? FileManager.default.removeItem(at: root) } }

    /// `count` distinct files (own inodes): heads of the committed Live Photo still, cut where its Exif ends.
    private func makeFolder(_ name: String, count: Int) throws -> URL {
        let folder = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let head = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg"))).prefix(24 * 1024)
        for i in 0..<count {
            try head.write(to: folder.appendingPathComponent(String(format: "IMG_%05d.JPG", i)))
        }
        return folder
    }

    private func walSize(_ indexPath: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: indexPath + "-wal"))?[.size] as? Int) ?? 0
    }

    func testIndexSurvivesSIGKILLWhileScanWrites() throws {
        let binary = try MissingRequirement.livegridBinary()
        let cache = root.appendingPathComponent("cache")
        let indexPath = cache.appendingPathComponent("livegrid/library-index.sqlite").path
        var killedWhileWriting = 0
        for round in 0..<3 {
            let folder = try makeFolder("round\(round)", count: 1500)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["scan", folder.path, "--json"]
            process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": cache.path]) { _, new in new }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let walBefore = walSize(indexPath)
            try process.run()
            // Wait (on the condition, generously) until the log grows: the scan is inside its writes.
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning, walSize(indexPath) <= walBefore, Date() < deadline { usleep(500) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killedWhileWriting += 1
            }
            process.waitUntilExit()

            let index = LibraryIndex(path: indexPath)
            XCTAssertTrue(index.isUsable, "round \(round)")
            XCTAssertNil(index.warning, "round \(round): \(index.warning ?? "")")
            XCTAssertEqual(index.integrityCheck(), "ok", "round \(round)")
            let indexed = try LibraryScanner.scan(directory: folder.path, index: index)
            XCTAssertEqual(indexed.items, try LibraryScanner.scan(directory: folder.path).items, "round \(round)")
            XCTAssertEqual(indexed.items.count, 1500)
        }
        XCTAssertGreaterThan(killedWhileWriting, 0, "no round caught the scan while it wrote the index")
    }
}
