import Foundation
import TestSupport
import XCTest

/// `livegrid play`, the third user of the one media player (issue 27.3): every frame of the movie is shown
/// or dropped, drawn in place, and the terminal is put back; a file that is no movie gets a plain message.
final class PlayCommandTests: XCTestCase {
    /// "frames shown N, dropped M" of each `--stats` report.
    private func frameCounts(_ report: String) -> [(shown: Int, dropped: Int)] {
        report.split(separator: "\n").compactMap { line -> (Int, Int)? in
            let words = line.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            guard let shownAt = words.firstIndex(of: "shown"), let droppedAt = words.firstIndex(of: "dropped"),
                  shownAt + 1 < words.count, droppedAt + 1 < words.count,
                  let shown = Int(words[shownAt + 1]), let dropped = Int(words[droppedAt + 1]) else { return nil }
            return (shown, dropped)
        }
    }

    func testAStillPlaysItsCompanionMovieEveryFrameAccountedFor() throws {
        let result = try LivegridCommand.run(["play", Fixtures.committed("train.jpg"), "--size", "40x12", "--format", "symbols",
                                              "--stats", "--repeat", "2"], environment: ["COLORTERM": "truecolor"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("play 1/2: h264 1440x1080 -> 40x12 cells symbols"), result.err)
        XCTAssertTrue(result.err.contains("play 2/2:"), result.err)
        let counts = frameCounts(result.err)
        XCTAssertEqual(counts.count, 2, result.err)
        for count in counts {
            XCTAssertEqual(count.shown + count.dropped, 22, "train.mov's 22 frames, each shown or dropped")
            XCTAssertGreaterThan(count.shown, 0)
        }
        XCTAssertTrue(result.out.hasPrefix("\u{1B}[?25l\u{1B}[H"), "the cursor is hidden and sent home first")
        XCTAssertTrue(result.out.hasSuffix("\u{1B}[0m\u{1B}[?25h\n"), "and the terminal is put back at the end")
        XCTAssertGreaterThan(result.out.utf8.count, 22 * 1000, "the frames were drawn")
    }

    func testAFileThatIsNoMovieGetsAPlainMessage() throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-play-garbage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage.mov")
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: garbage)
        let result = try LivegridCommand.run(["play", garbage.path, "--size", "40x12", "--format", "symbols"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.err.contains("garbage.mov: not a picture: not a format livegrid knows"), result.err)
        XCTAssertFalse(result.err.contains("Fatal error"), result.err)
    }

    /// A still without a movie is a file problem, said in a sentence: not a usage error with "Usage:" lines and
    /// status 64, nor its path twice (the corpus audit, issue 32, found "Error: P: no movie found for P").
    func testAStillWithoutAMovieIsNotAUsageError() throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-play-still")
        defer { try? FileManager.default.removeItem(at: directory) }
        let still = directory.appendingPathComponent("train.jpg")
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: still.path)
        let result = try LivegridCommand.run(["play", still.path, "--size", "40x12", "--format", "symbols", "--mute"])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(result.err, "livegrid: \(still.path): nothing to play: not a movie, a Motion Photo, or a Live Photo still with its movie beside it\n")
    }

    /// A movie cut short reaches the player, which fails with the reason in plain words; the terminal is
    /// put back all the same.
    func testATruncatedMovieFailsWithAPlainMessage() throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-play-truncated")
        defer { try? FileManager.default.removeItem(at: directory) }
        let truncated = directory.appendingPathComponent("train.mov")
        try Data(try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.mov"))).prefix(600_000)).write(to: truncated)
        let result = try LivegridCommand.run(["play", truncated.path, "--size", "40x12", "--format", "symbols"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.err.contains("train.mov: damaged MOV movie: the file ends early"), result.err)
        XCTAssertTrue(result.out.hasSuffix("\u{1B}[0m\u{1B}[?25h\n"), "the terminal is put back")
    }
}
