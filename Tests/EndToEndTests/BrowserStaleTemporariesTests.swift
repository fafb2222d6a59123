import Foundation
import MediaFormats
import XCTest

/// Issue 15.2: the browser, on opening a folder, removes the temporaries a killed livegrid left there, and
/// nothing else.
final class BrowserStaleTemporariesTests: XCTestCase {
    func testOpeningAFolderRemovesOnlyLivegridsStaleTemporaries() throws {
        let fixture = try BrowserFixture.make()
        defer { fixture.remove() }
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let boot = TemporaryFileName.currentBoot
        let stale = ".train.mov.livegrid-\(ended.processIdentifier)-\(boot)-0000abcd.tmp"
        let live = ".train.jpg.livegrid-1-\(boot)-0000abce.tmp"          // pid 1 started before it: alive
        let others = [".train.mov.tmp", ".train.mov.livegrid-\(ended.processIdentifier)-\(boot)-0000abcd.tmp.keep"]
        for name in [stale, live] + others {
            _ = FileManager.default.createFile(atPath: fixture.directory.appendingPathComponent(name).path, contents: Data(count: 4096))
        }
        let session = try TmuxSession(command: fixture.command(""), columns: 120, rows: 40)
        let count = fixture.names.count
        try session.waitFor("the grid with \(count) items") { screen in
            screen.first?.contains("\(count) items") == true
        }
        // The sweep runs on a worker beside the scan (it read the whole folder before the first screen): wait
        // for it, with a generous deadline.
        let deadline = Date().addingTimeInterval(30)
        var left = Set(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path))
        while left.contains(stale), Date() < deadline {
            usleep(20_000)
            left = Set(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path))
        }
        XCTAssertFalse(left.contains(stale), "\(left)")
        XCTAssertTrue(left.isSuperset(of: [live] + others), "\(left)")
        XCTAssertTrue(left.isSuperset(of: fixture.names), "\(left)")
    }
}
