import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 15.2 in the browser: SIGTERM while the triage worker exports a large Live Photo leaves no temporary
/// and no half pair at the destination, the originals intact, and the terminal restored.
final class BrowserInterruptedExportTests: XCTestCase {
    func testSIGTERMDuringAnExportLeavesNothingBehind() throws {
        let fixture = try BrowserFixture.make()
        defer { fixture.remove() }
        // A ~170 MB Live Photo in the library, made by livegrid itself from generated inputs.
        let (liveMovie, _) = try fixture.addBigLivePhoto()
        let movieSize = try XCTUnwrap((try FileManager.default.attributesOfItem(atPath: liveMovie)[.size] as? NSNumber)?.uint64Value)
        let originalsBefore = try ExternalTool.runProgram("/usr/bin/sha256sum", [liveMovie, liveMovie.replacingOccurrences(of: ".MOV", with: ".JPG")]).out

        let out = fixture.home.appendingPathComponent("export").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let session = try TmuxSession(command: fixture.command())
        let count = fixture.names.count + 1
        try session.waitFor("the grid with \(count) items") { $0.first?.contains("\(count) items") == true }
        let pid = try XCTUnwrap(Int32(try session.display("#{pane_pid}")))

        try session.send("Escape", "/")
        try session.run(["send-keys", "-t", session.name, "-l", "big-live"], capture: false)
        try session.send("Enter")
        try session.waitFor("only big-live shown") { $0.first?.contains("1 item ") == true }
        try session.send("m", "Escape")
        try session.waitFor("1 marked") { $0.last?.contains("1 marked") == true }
        try session.send("e")
        try session.waitFor("the export dialog") { $0.contains { $0.contains("Export 1 item") } }
        try session.send("Enter")
        try session.waitFor("the destination prompt") { $0.contains { $0.contains("Export to:") } }
        try session.run(["send-keys", "-t", session.name, "-l", out], capture: false)
        try session.send("Enter")

        // SIGTERM once the movie's temporary holds half the movie.
        let deadline = Date().addingTimeInterval(60)
        var sent = false
        while Date() < deadline, !sent {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
            for name in names where name.hasPrefix(".big-live.MOV.livegrid-") {
                let size = (try? FileManager.default.attributesOfItem(atPath: out + "/" + name)[.size] as? NSNumber)?.uint64Value ?? 0
                if size >= movieSize / 2 { kill(pid, SIGTERM); sent = true }
            }
            usleep(500)
        }
        XCTAssertTrue(sent, "the export's temporary movie never reached half the movie")
        try session.waitFor("the browser to end", timeout: 30) { _ in
            (try? session.display("#{pane_dead}")) == "1"
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "left at the destination")
        XCTAssertEqual(try ExternalTool.runProgram("/usr/bin/sha256sum", [liveMovie, liveMovie.replacingOccurrences(of: ".MOV", with: ".JPG")]).out,
                       originalsBefore)
        // The terminal was given back: the alternate screen is gone.
        XCTAssertEqual(try session.display("#{alternate_on}"), "0")
    }
}
