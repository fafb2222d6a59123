import Foundation
import TestSupport
import XCTest

/// Press-and-hold playback in a real terminal (tmux): holding Space or the mouse button on the train Live
/// Photo changes its cell over time and returns to the key photo after the release; a Live Photo whose movie
/// is corrupt falls back to a still with the LIVE OFF badge and says why.
final class PlaybackEndToEndTests: XCTestCase {
    private var fixture: BrowserFixture!

    override func setUpWithError() throws {
        fixture = try BrowserFixture.make()
        guard fixture.kinds["train.jpg"] == "live" else {
            throw MissingRequirement.Failure(description: "train.jpg should pair as live, scan says \(fixture.kinds["train.jpg"] ?? "nothing")")
        }
    }

    override func tearDown() {
        fixture?.remove()
    }

    func testHoldingSpacePlaysTheMovieThenShowsTheKeyPhotoAgain() throws {
        let (session, before) = try openOnTrain(fixture)
        var snapshots: [[String]] = []
        // Held for at least 1.5 s, and on until two different frames were seen (at most 10 s): on a loaded machine
        // the movie's first frame can come later than a fixed window (the FLAKY cause at a load of 25).
        let started = Date()
        var count = 0
        var status = ""
        func playedEnough() -> Bool {
            Set(snapshots.filter { $0 != before }.map { $0.joined(separator: "\n") }).count >= 2 && !status.isEmpty
        }
        while Date().timeIntervalSince(started) < 10, Date().timeIntervalSince(started) < 1.5 || !playedEnough() {
            try session.run(["send-keys", "-t", session.name, "Space"], capture: false)
            count += 1
            if count % 3 == 0 {
                snapshots.append(try trainCell(session))
                if let line = try session.screen().last, line.contains("hold:") { status = line }
            }
            Thread.sleep(forTimeInterval: 0.03)
        }
        XCTAssertTrue(snapshots.contains { $0 != before }, "the cell never changed while Space was held")
        XCTAssertGreaterThanOrEqual(Set(snapshots.map { $0.joined(separator: "\n") }).count, 2,
                                    "the cell should change over time, not just once")
        XCTAssertTrue(status.contains("hold: key repeat"), "status while playing: \(status)")
        try waitForKeyPhoto(session, equalTo: before, within: 1.5)
    }

    func testHoldingTheMouseButtonPlaysAndTheReleaseStops() throws {
        let (session, before) = try openOnTrain(fixture)
        let grid = ScreenGrid(lines: try session.screen(), names: fixture.names)
        guard let cell = grid.cell("train.jpg") else { return XCTFail("no train.jpg cell") }
        let x = cell.x + cell.width / 2, y = (cell.pictureTop + cell.captionRow) / 2
        try session.mouseButton(pressed: true, x: x, y: y)
        var snapshots: [[String]] = []
        var statusWhilePlaying = ""
        for _ in 0..<8 {
            Thread.sleep(forTimeInterval: 0.1)
            snapshots.append(try trainCell(session))
            if statusWhilePlaying.isEmpty, let line = try session.screen().last, line.contains("hold:") { statusWhilePlaying = line }
        }
        try session.mouseButton(pressed: false, x: x, y: y)
        XCTAssertTrue(snapshots.contains { $0 != before }, "the cell never changed while the button was held")
        XCTAssertTrue(statusWhilePlaying.contains("hold: mouse"), "status while playing: \(statusWhilePlaying)")
        try waitForKeyPhoto(session, equalTo: before, within: 1.0)
        let count = fixture.names.count
        XCTAssertFalse(try session.screen().contains { $0.contains("viewer ·") }, "a hold is not a click")
        XCTAssertTrue(try session.screen().contains { $0.contains("/\(count) train.jpg") })
    }

    func testCorruptMovieFallsBackToAStillWithLiveOff() throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-e2e-corrupt")
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: library.appendingPathComponent("train.jpg").path)
        try Self.movieWithZeroedMediaData(Fixtures.committed("train.mov"))
            .write(to: library.appendingPathComponent("train.mov"))
        let broken = BrowserFixture(directory: library, home: directory.appendingPathComponent("home"),
                                    binary: fixture.binary, kinds: ["train.jpg": "live"], names: ["train.jpg"])
        let (session, _) = try openOnTrain(broken)
        for _ in 0..<12 {
            try session.run(["send-keys", "-t", session.name, "Space"], capture: false)
            Thread.sleep(forTimeInterval: 0.03)
        }
        let screen = try session.waitFor("the LIVE OFF badge", timeout: 30) { screen in
            screen.contains { $0.contains("LIVE OFF") }
        }
        // A hold may also say, once and up to 1.5 s later (the sound server is asked in the background), that
        // there is no sound server here (issue 29), over the reason: holds go on until the reason stays.
        var reasonShown = false
        for _ in 0..<15 where !reasonShown {
            try session.send("Space")
            let deadline = Date().addingTimeInterval(2)
            while Date() < deadline, !reasonShown {
                reasonShown = (try session.screen().last ?? "").contains("LIVE OFF:")
                if !reasonShown { Thread.sleep(forTimeInterval: 0.1) }
            }
        }
        XCTAssertTrue(reasonShown, "the status bar says why the movie does not play")
        let grid = ScreenGrid(lines: screen, names: ["train.jpg"])
        if let cell = grid.cell("train.jpg") {
            XCTAssertNotNil(grid.find("LIVE OFF", in: cell), "the badge turns LIVE OFF:\n" + screen.joined(separator: "\n"))
        }
        // Still responsive: another hold says why again, no crash.
        try session.send("Space")
        try session.send("l")
        XCTAssertTrue(try session.screen().first?.contains("1 item") == true)
    }

    func testStillWhoseMovieIsMissingWearsLiveOffFromTheStart() throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-e2e-orphan")
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: library.appendingPathComponent("train.jpg").path)
        let orphan = BrowserFixture(directory: library, home: directory.appendingPathComponent("home"),
                                    binary: fixture.binary, kinds: ["train.jpg": "still"], names: ["train.jpg"])
        let (session, cell) = try openOnTrain(orphan)
        XCTAssertTrue(cell.joined().contains("LIVE OFF"), "LIVE OFF before any hold:\n" + cell.joined(separator: "\n"))
        try session.send("Space")
        try session.waitFor("the reason in the status bar", timeout: 30) { ($0.last ?? "").contains("LIVE OFF: its movie is missing") }
    }

    func testHintOfMovementPlaysOnceAfterTheItemStaysSelected() throws {
        let session = try TmuxSession(command: fixture.command(), columns: 120, rows: 40)
        let count = fixture.names.count
        try session.waitFor("the grid") { $0.contains { $0.contains(" 1/\(count) ") } }
        for _ in 0..<count {
            if try session.screen().last?.contains("train.jpg") == true { break }
            try session.send("l")
        }
        // Over the next 4 s the cell shows the key photo, moves once (about a second), and rests again.
        var snapshots: [[String]] = []
        let deadline = Date().addingTimeInterval(4)
        while Date() < deadline {
            snapshots.append(try trainCell(session))
            Thread.sleep(forTimeInterval: 0.08)
        }
        let settled = try trainCell(session)
        XCTAssertFalse(settled.joined().contains("jpg"), "the thumbnail is in")
        let moving = snapshots.filter { $0 != settled && !$0.joined().contains("jpg") }
        XCTAssertFalse(moving.isEmpty, "the hint never moved the cell")
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(try trainCell(session), settled, "the hint plays once, then rests on the key photo")
    }

    // MARK: - helpers

    /// Opens the browser without hints, selects train.jpg and waits until its cell is stable (thumbnail in).
    private func openOnTrain(_ fixture: BrowserFixture) throws -> (TmuxSession, [String]) {
        let session = try TmuxSession(command: fixture.command("--no-motion"), columns: 120, rows: 40)
        let count = fixture.names.count
        try session.waitFor("the grid") { $0.contains { $0.contains(" 1/\(count) ") } }
        for _ in 0..<count {
            if try session.screen().last?.contains("train.jpg") == true { break }
            try session.send("l")
        }
        try session.waitFor("train.jpg selected") { $0.last?.contains("train.jpg") == true }
        var previous = try trainCell(session, names: fixture.names)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.4)
            let now = try trainCell(session, names: fixture.names)
            if now == previous, !now.joined().contains("jpg") { return (session, now) }
            previous = now
        }
        XCTFail("the train.jpg thumbnail never settled")
        return (session, previous)
    }

    /// The picture area of the train.jpg cell.
    private func trainCell(_ session: TmuxSession, names: [String]? = nil) throws -> [String] {
        let lines = try session.screen()
        let grid = ScreenGrid(lines: lines, names: names ?? fixture.names)
        guard let cell = grid.cell("train.jpg") else { return [] }
        return (cell.pictureTop..<cell.captionRow).map { row in
            let line = grid.lines.indices.contains(row) ? grid.lines[row] : []
            let start = min(cell.x, line.count), end = min(cell.x + cell.width, line.count)
            return String(line[start..<end])
        }
    }

    private func waitForKeyPhoto(_ session: TmuxSession, equalTo before: [String], within seconds: Double) throws {
        let deadline = Date().addingTimeInterval(seconds)
        var last: [String] = []
        while Date() < deadline {
            last = try trainCell(session)
            if last == before { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("the key photo did not come back:\nbefore\n" + before.joined(separator: "\n") + "\nnow\n" + last.joined(separator: "\n"))
    }

    /// train.mov with its `mdat` payload zeroed: the metadata (identifier, tracks) is intact, no frame decodes.
    static func movieWithZeroedMediaData(_ path: String) throws -> Data {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            var header = 8
            if size == 1, offset + 16 <= bytes.count {
                size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
                header = 16
            }
            if size == 0 { size = bytes.count - offset }
            guard size >= header, offset + size <= bytes.count else { break }
            if type == "mdat" {
                for i in (offset + header)..<(offset + size) { bytes[i] = 0 }
            }
            offset += size
        }
        return Data(bytes)
    }
}

extension TmuxSession {
    /// Button 1 down or up at a zero-based cell, as the X10 mouse report tmux-256color's terminfo announces
    /// (the browser asks curses for press and release separately).
    func mouseButton(pressed: Bool, x: Int, y: Int) throws {
        guard x < 223, y < 223, let column = Unicode.Scalar(33 + x), let row = Unicode.Scalar(33 + y) else { return }
        let report = "\u{1B}[M\(pressed ? " " : "#")\(column)\(row)"
        try run(["send-keys", "-t", name, "-l", report], capture: false)
    }
}
