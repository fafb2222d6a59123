import Foundation
import TestSupport
import XCTest

/// Issue 17: on a generated 20,000-file folder the browser draws the first screen's thumbnails before the scan
/// has probed the folder, and the selection made meanwhile does not move while the rest settles.
final class ProgressiveFirstPaintEndToEndTests: XCTestCase {
    static let fileCount = 20_000

    func testThumbnailsShowBeforeTheScanEndsAndTheSelectionStaysPut() throws {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let root = try Fixtures.makeTemporaryDirectory("livegrid-progressive-e2e")
        defer { try? FileManager.default.removeItem(at: root) }
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        // Hard links to a real camera still: 20,000 paths (each its own item and thumbnail) at no disk cost.
        // Linked to a private copy: ext4 allows 65,000 links per inode, and benchmarks link the fixture too.
        let source = root.appendingPathComponent("train.jpg").path
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: source)
        for i in 0..<Self.fileCount {
            try FileManager.default.linkItem(atPath: source, toPath: library.appendingPathComponent(String(format: "IMG_%05d.JPG", i)).path)
        }
        let trace = root.appendingPathComponent("trace").path
        let environment = "env XDG_CONFIG_HOME='\(root.path)/config' XDG_CACHE_HOME='\(root.path)/cache' "
            + "LIVEGRID_TRACE='\(trace)' TERM=tmux-256color"
        let session = try TmuxSession(command: "\(environment) '\(binary)' --graphics symbols '\(library.path)'",
                                      columns: 120, rows: 40)
        func traced(_ event: String) -> Bool {
            ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").contains(" \(event)")
        }

        // The first screen's pictures are drawn (the trace says so once none is a placeholder any more) ...
        let deadline = Date().addingTimeInterval(120)
        while !traced("first-thumbnails"), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertTrue(traced("first-thumbnails"), "no first screen within 120 s")
        // ... while the scan is still running: it has not finished, and the header says so.
        XCTAssertFalse(traced("scan-finished"), "the scan finished before the first thumbnails: nothing was progressive")
        let early = try session.waitFor("the first screen while scanning") { screen in
            screen.first?.contains("scanning…") == true && screen.last?.contains("IMG_00000.JPG") == true
        }
        XCTAssertTrue(early.first?.contains("\(Self.fileCount) files") == true, early.first ?? "")
        XCTAssertFalse(early.joined().contains("┌"), "placeholders left on the first screen:\n" + early.joined(separator: "\n"))

        // Select the third item while the rest is probed ...
        try session.send("Right", "Right")
        let chosen = try session.waitFor("the third item selected") { $0.last?.contains("IMG_00002.JPG") == true }
        XCTAssertTrue(chosen.last?.contains(" 3/") == true, chosen.last ?? "")
        // ... then let the scan finish: the same item stays selected, at the same place.
        // Both lines of the settled paint: tmux may be read between the header's bytes and the status line's of
        // one paint (the FLAKY cause: a header already saying 20000 items above a status line still at 3/256).
        let settled = try session.waitFor("the scan to finish", timeout: 300) { screen in
            screen.first?.contains("scanning…") == false && screen.first?.contains("\(Self.fileCount) items") == true
                && screen.last?.contains("/\(Self.fileCount) ") == true
        }
        XCTAssertTrue(traced("scan-finished"))
        XCTAssertTrue(settled.last?.contains(" 3/\(Self.fileCount) IMG_00002.JPG") == true, settled.last ?? "")
        try session.send("q")
    }
}
