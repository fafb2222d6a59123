import Foundation
import TestSupport
import XCTest

/// Issue 32.5: a FIFO named like a photo or a movie used to hang `show`, `thumbnail`, `make-live`, `convert`,
/// `extract` and `play` in open(2) until Ctrl-C. Each verb now says at once that it is not a regular file;
/// `export` and `edit` said "not a photo or movie livegrid knows" of a FIFO named like one, and now name it too;
/// `scan` skips FIFOs without waiting on them.
final class FIFOCommandTests: XCTestCase {
    func testEveryVerbRefusesAFIFOAtOnceAndSaysWhatItIs() throws {
        let binary = try MissingRequirement.livegridBinary()
        let dir = try Fixtures.makeTemporaryDirectory("livegrid-fifo")
        defer { try? FileManager.default.removeItem(at: dir) }   // try?: clean-up of a temporary folder
        for name in ["p.jpg", "p.mov", "p.heic"] { XCTAssertEqual(mkfifo(dir.appendingPathComponent(name).path, 0o644), 0) }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let out = dir.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let verbs: [[String]] = [
            ["show", path("p.jpg")],
            ["thumbnail", path("p.jpg"), "-o", out + "/t.png"],
            ["make-live", path("p.jpg"), path("p.mov"), "-o", out],
            ["convert", path("p.heic"), "--to", "live", "-o", out],
            ["extract", path("p.heic"), "-o", out],
            ["play", path("p.mov")],
            ["export", path("p.jpg"), "--to", out],
            ["export", path("p.mov"), "--to", out],
            ["edit", path("p.jpg"), "-o", out, "--mute"],
            ["edit", path("p.mov"), "-o", out, "--mute"],
        ]
        for arguments in verbs {
            // timeout(1) stands in for the user's Ctrl-C: status 124 means the verb hung on the FIFO.
            let run = try ExternalTool.runProgram("/usr/bin/timeout", ["20", binary] + arguments)
            XCTAssertNotEqual(run.status, 124, "\(arguments[0]) hung on a FIFO")
            XCTAssertNotEqual(run.status, 0, "\(arguments[0]) succeeded on a FIFO")
            XCTAssertTrue(run.err.contains("not a regular file (a FIFO)"), "\(arguments[0]): \(run.err)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "nothing written")
        // `scan` of the folder: the FIFOs are not media, so nothing is listed, at once.
        for arguments in [["scan", dir.path], ["scan", "--json", dir.path]] {
            let run = try ExternalTool.runProgram("/usr/bin/timeout", ["20", binary] + arguments)
            XCTAssertEqual(run.status, 0, "\(arguments.joined(separator: " ")) (124: hung on a FIFO): \(run.err)")
            XCTAssertFalse(run.out.contains("p.jpg") || run.out.contains("p.mov") || run.out.contains("p.heic"), run.out)
        }
    }
}
