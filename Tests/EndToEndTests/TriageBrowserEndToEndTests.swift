import Foundation
import Library
import LibraryCore
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// Triage in the real browser (tmux): marking and exporting through the dialog, trash and undo in a
/// private freedesktop trash, a rating written to a sidecar.
final class TriageBrowserEndToEndTests: XCTestCase {
    private var fixture: BrowserFixture!
    private var session: TmuxSession!
    private var dataHome = ""

    override func setUpWithError() throws {
        fixture = try BrowserFixture.make()
        dataHome = fixture.home.appendingPathComponent("data").path
        // The trash goes to XDG_DATA_HOME/Trash: a temporary one, never the user's.
        session = try TmuxSession(command: "env XDG_DATA_HOME='\(dataHome)' " + fixture.command())
        let count = fixture.names.count
        try session.waitFor("the grid with \(count) items") { screen in
            screen.first?.contains("\(count) items") == true && screen.contains { $0.contains(" 1/\(count) ") }
        }
    }

    override func tearDown() {
        session = nil
        fixture?.remove()
    }

    private var library: String { fixture.directory.path }

    /// Shows only items whose name contains `name` (the name filter), so the cursor is on it.
    private func show(_ name: String) throws {
        try session.send("Escape", "/")
        try session.run(["send-keys", "-t", session.name, "-l", name], capture: false)
        try session.send("Enter")
        try session.waitFor("only \(name) shown") { $0.first?.contains("1 item ") == true }
    }

    private func waitForStatus(_ text: String, timeout: TimeInterval = 30) throws {
        try session.waitFor("status \"\(text)\"", timeout: timeout) { screen in
            screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains(text) == true
        }
    }

    private func waitUntil(_ what: String, timeout: TimeInterval = 30, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, !condition() { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertTrue(condition(), "timed out waiting for \(what)")
    }

    func testMarkTwoItemsAndExportThemThroughTheDialog() throws {
        let out = fixture.home.appendingPathComponent("export").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try show("train")
        try session.send("m")
        try show("motion-photo")
        try session.send("m", "Escape")
        try session.waitFor("2 marked in the status bar") { $0.last?.contains("2 marked") == true }

        try session.send("e")
        let dialog = try session.waitFor("the export dialog") { $0.contains { $0.contains("Export 2 items") } }
        XCTAssertTrue(dialog.contains { $0.contains("train.jpg") && $0.contains("LIVE") && $0.contains("Live Photo") },
                      dialog.joined(separator: "\n"))
        XCTAssertTrue(dialog.contains { $0.contains("motion-photo-v1.jpeg") }, dialog.joined(separator: "\n"))
        try session.send("Enter")
        try waitForStatus("Export to:")
        try session.run(["send-keys", "-t", session.name, "-l", out], capture: false)
        try session.send("Enter")
        try waitForStatus("2 of 2 items exported")

        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        XCTAssertTrue(names.isSuperset(of: ["train.jpg", "train.mov", "motion-photo-v1.jpeg"]), "\(names)")
        let items = try LibraryScanner.scan(directory: out).items
        let live = try XCTUnwrap(items.first { $0.displayName == "train.jpg" })
        XCTAssertEqual(live.kind, .live, "the exported Live Photo pairs again")
        XCTAssertEqual(live.movie?.fileName, "train.mov")
        XCTAssertEqual(items.first { $0.displayName == "motion-photo-v1.jpeg" }?.kind, .motion)
        XCTAssertEqual(FileManager.default.contents(atPath: out + "/train.mov"),
                       FileManager.default.contents(atPath: library + "/train.mov"))
    }

    func testTrashThenUndoRestoresTheFilesByteIdentical() throws {
        let original = try XCTUnwrap(FileManager.default.contents(atPath: Fixtures.committed("motion-photo-v1.jpeg")))
        let path = library + "/motion-photo-v1.jpeg"
        try show("motion-photo")
        try session.send("d")
        try waitForStatus("Trash motion-photo-v1.jpeg? y/N")
        try session.send("y")
        try waitForStatus("Trashed 1 item")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dataHome + "/Trash/files/motion-photo-v1.jpeg"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dataHome + "/Trash/info/motion-photo-v1.jpeg.trashinfo"))

        try session.send("u")
        try waitForStatus("Restored 1 of 1")
        XCTAssertEqual(FileManager.default.contents(atPath: path), original)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dataHome + "/Trash/files/motion-photo-v1.jpeg"))
    }

    /// The picture area of `name`'s cell as text.
    private func cellPicture(_ name: String) throws -> [String] {
        let grid = ScreenGrid(lines: try session.screen(), names: fixture.names)
        guard let cell = grid.cell(name) else { return [] }
        return (cell.pictureTop..<cell.captionRow).map { row in
            let line = grid.lines.indices.contains(row) ? grid.lines[row] : []
            let start = min(cell.x, line.count), end = min(cell.x + cell.width, line.count)
            return String(line[start..<end])
        }
    }

    /// Rotating in place changes the file: the cell must show the turned picture, not the one in memory.
    func testRotatingInPlaceRedrawsTheTurnedPicture() throws {
        try show("train")
        var before = try cellPicture("train.jpg")
        for _ in 0..<40 {   // until the thumbnail has settled
            Thread.sleep(forTimeInterval: 0.25)
            let now = try cellPicture("train.jpg")
            if now == before, !now.joined().trimmingCharacters(in: .whitespaces).isEmpty { break }
            before = now
        }
        try session.send("]")
        try waitForStatus("in place? y/N")
        try session.send("y")
        try waitForStatus("Rotated", timeout: 20)
        var after = before
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, after == before {
            Thread.sleep(forTimeInterval: 0.2)
            after = try cellPicture("train.jpg")
        }
        XCTAssertNotEqual(after, before, "the cell still shows the picture from before the rotation")
    }

    func testRatingThreeWritesAnXMPSidecar() throws {
        try show("train")
        try session.send("3")
        let sidecar = library + "/train.jpg.xmp"
        waitUntil("the sidecar") { FileManager.default.fileExists(atPath: sidecar) }
        let text = String(decoding: FileManager.default.contents(atPath: sidecar) ?? Data(), as: UTF8.self)
        XCTAssertTrue(text.contains("xmp:Rating=\"3\""), text)
        try session.waitFor("stars in the caption") { $0.contains { $0.contains("train.jpg") && $0.contains("★★★") } }
        XCTAssertEqual(try SidecarTriageStore.read(sidecar: sidecar), TriageState(rating: 3))
    }
}

/// The mark sits in the top corner the LIVE badge does not use, whichever corner the badge is configured to.
final class TriageMarkCornerEndToEndTests: XCTestCase {
    private func markColumn(badgeCorner: String) throws -> (mark: Int, badge: Int, width: Int) {
        let fixture = try BrowserFixture.make()
        defer { fixture.remove() }
        try fixture.writeConfig("[badge]\ncorner = \"\(badgeCorner)\"\n")
        let session = try TmuxSession(command: fixture.command())
        let count = fixture.names.count
        try session.waitFor("the grid") { $0.first?.contains("\(count) items") == true }
        try session.send("M")
        let screen = try session.waitFor("marks") { $0.last?.contains("\(count) marked") == true }
        let grid = ScreenGrid(lines: screen, names: fixture.names)
        let name = try XCTUnwrap(fixture.liveNames.first)
        let cell = try XCTUnwrap(grid.cell(name))
        let mark = try XCTUnwrap(grid.find("✓", in: cell), screen.joined(separator: "\n"))
        let badge = try XCTUnwrap(grid.find("LIVE", in: cell), screen.joined(separator: "\n"))
        XCTAssertEqual(mark.row, 0, "the mark is on the top row")
        XCTAssertEqual(badge.row, 0)
        return (mark.column, badge.column, cell.width)
    }

    func testMarkAvoidsTheBadgeCorner() throws {
        let left = try markColumn(badgeCorner: "top-left")
        XCTAssertGreaterThan(left.mark, left.width / 2, "badge top-left → mark top-right")
        XCTAssertLessThan(left.badge, left.width / 2)
        let right = try markColumn(badgeCorner: "top-right")
        XCTAssertLessThan(right.mark, right.width / 2, "badge top-right → mark top-left")
        XCTAssertGreaterThan(right.badge, right.width / 2)
    }
}
