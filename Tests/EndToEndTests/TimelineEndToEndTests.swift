import Foundation
import TestSupport
import XCTest

/// Issue 17 item 3: a nested library opened with `-r --group date` shows a timeline with year and month header
/// rows (capture dates written by exiftool into copies of a real camera still), and `D` jumps to a date.
final class TimelineEndToEndTests: XCTestCase {
    func testTimelineShowsYearAndMonthHeadersAndJumpsToADate() throws {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let exiftool = try MissingRequirement.path(of: "exiftool", for: "cannot date the test photos")
        let root = try Fixtures.makeTemporaryDirectory("livegrid-timeline-e2e")
        defer { try? FileManager.default.removeItem(at: root) }
        let library = root.appendingPathComponent("library")
        // Folders in name order do not follow the dates: the timeline must reorder across folders.
        let photos: [(String, String?)] = [
            ("a/IMG_01.jpg", "2022:11:02 10:00:00"), ("a/IMG_02.jpg", "2021:03:05 09:00:00"),
            ("b/IMG_03.jpg", "2021:03:20 18:00:00"), ("b/IMG_04.jpg", "2022:07:14 12:00:00"),
            ("c/IMG_05.jpg", "2023:01:09 08:30:00"), ("c/IMG_06.jpg", nil),
        ]
        for (path, date) in photos {
            let file = library.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: file.path)
            let arguments = date.map { ["-DateTimeOriginal=\($0)", "-CreateDate=\($0)"] } ?? ["-AllDates=", "-CreateDate="]
            let result = try ToolRunner.run(exiftool, ["-q", "-overwrite_original"] + arguments + [file.path], mergeErrors: true)
            XCTAssertEqual(result.status, 0, result.output)
        }
        let environment = "env XDG_CONFIG_HOME='\(root.path)/config' XDG_CACHE_HOME='\(root.path)/cache' TERM=tmux-256color"
        let session = try TmuxSession(command: "\(environment) '\(binary)' --graphics symbols -r --group date '\(library.path)'",
                                      columns: 120, rows: 60)
        let timeline = try session.waitFor("the timeline with its headers", timeout: 60) { screen in
            let text = screen.joined(separator: "\n")
            return text.contains("━━ 2021") && text.contains("── March 2021 · 2 items") && text.contains("━━ 2022")
                && text.contains("── July 2022 · 1 item") && text.contains("── November 2022 · 1 item")
                && text.contains("── Undated · 1 item") && screen.first?.contains("6 items") == true
        }
        // Headers come in time order: 2021 before 2022 before 2023 before the undated photo.
        let rows = ["━━ 2021", "── March 2021", "━━ 2022", "── July 2022", "── November 2022", "━━ 2023", "── Undated"]
            .map { header in timeline.firstIndex { $0.contains(header) } ?? -1 }
        XCTAssertEqual(rows, rows.sorted(), timeline.joined(separator: "\n"))
        XCTAssertFalse(rows.contains(-1), timeline.joined(separator: "\n"))
        XCTAssertTrue(timeline.last?.contains("1/6 IMG_02.jpg") == true, "the oldest photo first: " + (timeline.last ?? ""))

        // Jump to a date: the first photo on or after 2022-08 is November's.
        try session.send("D")
        try session.waitFor("the date prompt") { $0.first?.contains("jump to date") == true }
        try session.send("2", "0", "2", "2", "-", "0", "8", "Enter")
        let jumped = try session.waitFor("the jump") { $0.last?.contains("IMG_01.jpg") == true }
        XCTAssertTrue(jumped.last?.contains("4/6 IMG_01.jpg") == true, jumped.last ?? "")
        // A step down from November lands on January 2023, over the year and month headers.
        try session.send("Down")
        let next = try session.waitFor("the next item past the headers") { $0.last?.contains("IMG_05.jpg") == true }
        XCTAssertTrue(next.last?.contains("5/6") == true, next.last ?? "")
        try session.send("q")
    }
}
