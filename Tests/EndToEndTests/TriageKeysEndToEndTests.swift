import Foundation
import Library
import LibraryCore
import LivePairing
import TestSupport
import XCTest

/// Issues 19.7 and 31.3-4 in the real browser (tmux): actions on the marks when there are marks, named,
/// with the way to act on the cursor item instead; one ordered undo; `p`/`x` confirmations, mark-and-advance and range marks, prompts whose prefill is replaced
/// by typing and whose paths complete with Tab, undo of copy and move, `--print-marked`.
final class TriageKeysEndToEndTests: XCTestCase {
    private var fixture: BrowserFixture!
    private var session: TmuxSession!

    override func setUpWithError() throws {
        fixture = try BrowserFixture.make()
    }

    override func tearDown() {
        session = nil
        fixture?.remove()
    }

    private var library: String { fixture.directory.path }

    private func start(_ extra: String = "", after: String = "") throws {
        let trash = fixture.home.appendingPathComponent("data").path
        // Wide enough that the longest confirmation and the mode/colour summary share the status bar uncut.
        session = try TmuxSession(command: "env XDG_DATA_HOME='\(trash)' " + fixture.command(extra, after: after), columns: 160)
        let count = fixture.names.count
        try session.waitFor("the grid with \(count) items", timeout: 30) { screen in
            screen.first?.contains("\(count) items") == true && screen.contains { $0.contains(" 1/\(count) ") }
        }
    }

    /// Shows only items whose name contains `name` (the name filter), so the cursor is on it.
    private func show(_ name: String) throws {
        try session.send("Escape", "/")
        try type(name)
        try session.send("Enter")
        try session.waitFor("only \(name) shown") { $0.first?.contains("1 item ") == true }
    }

    private func type(_ text: String) throws {
        try session.run(["send-keys", "-t", session.name, "-l", text], capture: false)
    }

    @discardableResult
    private func waitForStatus(_ text: String, timeout: TimeInterval = 30) throws -> [String] {
        try session.waitFor("status \"\(text)\"", timeout: timeout) { screen in
            screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains(text) == true
        }
    }

    private func waitUntil(_ what: String, timeout: TimeInterval = 30, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, !condition() { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertTrue(condition(), "timed out waiting for \(what)")
    }

    private func directory(_ name: String) throws -> String {
        let path = fixture.home.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func names(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// Issue 31.4: a forgotten mark elsewhere. `d` on the photo being looked at names the marked item it would
    /// trash and says how to trash the current one instead; a rating acts on the marks too, and says so.
    func testAForgottenMarkIsNamedAndTheWayToActOnTheCurrentPhotoIsSaid() throws {
        try start()
        try show("motion-photo")
        try session.send("m")
        try waitForStatus("marked motion-photo-v1.jpeg · 1 marked")
        try show("train")
        try session.send("d")
        try waitForStatus("Trash 1 marked item: motion-photo-v1.jpeg? y/N · for train.jpg instead: n, U (clears the marks), d")
        try session.send("n")
        try waitForStatus("cancelled")
        XCTAssertEqual(names(library).filter { $0.hasPrefix("motion-photo") || $0.hasPrefix("train") },
                       ["motion-photo-v1.jpeg", "train.jpg", "train.mov"], "nothing trashed")
        try session.send("U")
        try waitForStatus("no marks")
        try session.send("d")
        try waitForStatus("Trash train.jpg (still + movie)? y/N")
        try session.send("n")
        try waitForStatus("cancelled")

        // Ratings follow the same rule: the marks when there are marks.
        try show("motion-photo")
        try session.send("m")
        try show("train")
        try session.send("3")
        try waitForStatus("rated 1 marked item: motion-photo-v1.jpeg ★★★ · not train.jpg: U clears the marks")
        let trainSidecar = library + "/train.jpg.xmp", motionSidecar = library + "/motion-photo-v1.jpeg.xmp"
        waitUntil("the marked item's sidecar") { (try? SidecarTriageStore.read(sidecar: motionSidecar)) == TriageState(rating: 3) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: trainSidecar), "the cursor item was not rated")
        // Unrating takes the sidecar livegrid made for the rating away again (no litter).
        try session.send("u")
        try waitForStatus("undid: rated 1 marked item: motion-photo-v1.jpeg ★★★")
        waitUntil("the sidecar gone") { !FileManager.default.fileExists(atPath: motionSidecar) }
    }

    /// Issue 31.3: `u` after a rotation turns the photo back; it never reaches past it to a copy made before.
    func testUndoAfterARotationTurnsItBackAndLeavesTheEarlierCopy() throws {
        let out = try directory("copies")
        try start()
        try show("train")
        let before = try XCTUnwrap(FileManager.default.contents(atPath: library + "/train.jpg"))
        try session.send("c")
        try waitForStatus("Copy train.jpg (still + movie) to: ")
        try type(out)
        try session.send("Enter")
        try waitForStatus("Copied 1 of 1 item (u undoes) to")
        try session.send("]")
        try waitForStatus("in place? y/N")
        try session.send("y")
        try waitForStatus("Rotated", timeout: 20)
        XCTAssertNotEqual(FileManager.default.contents(atPath: library + "/train.jpg"), before, "turned")
        try session.send("u")
        try waitForStatus("Turned back train.jpg · u again undoes: the copy of 1 item (train.jpg", timeout: 20)
        XCTAssertEqual(FileManager.default.contents(atPath: library + "/train.jpg"), before, "the photo is as it was")
        XCTAssertEqual(names(out), ["train.jpg", "train.mov"], "the earlier copy is still there")
        try session.send("u")
        try waitForStatus("Removed the copies of 1 of 1 item", timeout: 20)
        XCTAssertEqual(names(out), [], "the second u undid the copy")
        try session.send("u")
        try waitForStatus("nothing to undo")
    }

    func testPickAndRejectSayWhatTheyDid() throws {
        try start()
        try show("train")
        try session.send("p")
        try waitForStatus("picked train.jpg ⚑")
        try session.send("f", "p")
        let picks = try waitForStatus("1 item matches")
        XCTAssertTrue(picks.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains("filter: picks") == true, picks.joined(separator: "\n"))
        try session.send("f", "a")
        try waitForStatus("filter off: everything shown")
        try session.send("x")
        try waitForStatus("rejected train.jpg ✗")
        try session.send("x")
        try waitForStatus("unrejected train.jpg")
    }

    func testMarkAndAdvanceThenMarkARange() throws {
        try start()
        let count = fixture.names.count
        XCTAssertGreaterThanOrEqual(count, 3)
        try session.send("g", "m")
        try waitForStatus("marked \(fixture.names[0]) · 1 marked")
        try session.send("G", "V")
        try waitForStatus("marked \(count) items (\(fixture.names[0]) to \(fixture.names[count - 1])) · \(count) marked")
        let screen = try session.screen()
        XCTAssertEqual(screen.joined().components(separatedBy: "✓").count - 1 >= count, true, screen.joined(separator: "\n"))
    }

    /// The prefilled directory is replaced by what is typed (an absolute path is not joined onto it), Tab
    /// completes a directory, and `u` removes the copies again.
    func testPromptReplacesThePrefillTabCompletesAndUndoRemovesTheCopies() throws {
        let first = try directory("first")
        let target = try directory("destination-alpha")
        try start()
        try show("motion-photo")
        try session.send("c")
        try waitForStatus("Copy motion-photo-v1.jpeg to: ")
        try type(first)
        try session.send("Enter")
        try waitForStatus("Copied 1 of 1 item (u undoes) to")
        XCTAssertEqual(names(first), ["motion-photo-v1.jpeg"])

        try session.send("c")
        try waitForStatus("type to replace")
        try type(fixture.home.path + "/desti")
        try session.send("Tab")
        try waitForStatus("to: \(target)/▏")
        try session.send("Enter")
        try waitForStatus("Copied 1 of 1 item (u undoes) to")
        XCTAssertEqual(names(target), ["motion-photo-v1.jpeg"], "typed text replaced the prefill")
        XCTAssertEqual(names(first), ["motion-photo-v1.jpeg"], "nothing joined onto the old directory")

        try session.send("u")
        try waitForStatus("Removed the copies of 1 of 1 item")
        XCTAssertEqual(names(target), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: library + "/motion-photo-v1.jpeg"), "the original stays")
    }

    func testUndoOfAMoveMovesTheLivePhotoBack() throws {
        let target = try directory("moved")
        let movie = FileManager.default.contents(atPath: library + "/train.mov")
        try start()
        try show("train")
        try session.send("v")
        try waitForStatus("Move train.jpg (still + movie) to: ")
        try type(target)
        try session.send("Enter")
        try waitForStatus("Moved 1 of 1 item (u undoes) to")
        XCTAssertEqual(names(target), ["train.jpg", "train.mov"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: library + "/train.mov"))
        try session.send("u")
        try waitForStatus("Moved back 1 of 1 item")
        XCTAssertEqual(names(target), [])
        XCTAssertEqual(FileManager.default.contents(atPath: library + "/train.mov"), movie)
        XCTAssertTrue(FileManager.default.fileExists(atPath: library + "/train.jpg"))
    }

    /// `--print-marked` with stdout redirected: the browser draws on the terminal, the file gets exactly the
    /// marked items' files, one per line.
    func testPrintMarkedWritesTheMarkedFilesOnExit() throws {
        let output = fixture.home.appendingPathComponent("marked.txt").path
        let trash = fixture.home.appendingPathComponent("data").path
        let environment = "env XDG_CONFIG_HOME='\(fixture.home.path)/config' XDG_CACHE_HOME='\(fixture.home.path)/cache' XDG_DATA_HOME='\(trash)' TERM=tmux-256color"
        session = try TmuxSession(command: "sh -c \"\(environment) '\(fixture.binary)' --print-marked '\(library)' > '\(output)'\"")
        let count = fixture.names.count
        try session.waitFor("the grid", timeout: 30) { $0.first?.contains("\(count) items") == true }
        try show("train")
        try session.send("m")
        try show("motion-photo")
        try session.send("m")
        try waitForStatus("2 marked")
        try session.send("Escape", "q")
        waitUntil("the list") { ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").hasSuffix("\n") }
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
        let expected = fixture.names.filter { $0 == "train.jpg" || $0 == "motion-photo-v1.jpeg" }.flatMap { name in
            name == "train.jpg" ? [library + "/train.jpg", library + "/train.mov"] : [library + "/" + name]
        }
        XCTAssertEqual(lines, expected, "still then movie, in display order, nothing else")
    }

    /// On a terminal the printed names cannot act on it: a tab in a name shows as \t (VisibleText).
    func testPrintMarkedOnATerminalEscapesControlCharacters() throws {
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: library + "/a\tb.jpg")
        // A shell around the browser keeps the pane alive after it exits (tmux drops a dead pane's last output).
        session = try TmuxSession(command: fixture.command("--print-marked", after: "sleep 30"))
        let count = fixture.names.count + 1
        try session.waitFor("the grid", timeout: 30) { $0.first?.contains("\(count) items") == true }
        try session.send("/")
        try type("b.jpg")
        try session.send("Enter")
        try session.waitFor("one item") { $0.first?.contains("1 item ") == true }
        try session.send("m")
        try waitForStatus("1 marked")
        try session.send("Escape", "q")
        let screen = try session.waitFor("the printed name") { $0.contains { $0.contains("b.jpg") && $0.contains("/library/") } }
        XCTAssertTrue(screen.contains { $0.hasSuffix("/library/a\\tb.jpg") }, screen.joined(separator: "\n"))
    }

    /// The info panel as a photographer reads it; the position only after L.
    func testInfoPanelShowsExposureAndLocationOnlyOnRequest() throws {
        try start()
        try show("train")
        try session.send("i")
        let panel = try session.waitFor("the info panel") { $0.contains { $0.contains("Exposure") } }
        let text = panel.joined(separator: "\n")
        XCTAssertTrue(text.contains("Apple iPhone 6s"), text)
        XCTAssertTrue(text.contains("1/801 s · f/2.2 · ISO 25"), text)
        XCTAssertTrue(text.contains("iPhone 6s back camera"), text)
        XCTAssertTrue(text.contains("UTC+01:00"), text)
        XCTAssertTrue(text.contains("yes (hidden · L shows)"), text)
        XCTAssertFalse(text.contains("52."), "no coordinates by default:\n" + text)
        try session.send("L")
        let shown = try session.waitFor("the coordinates") { $0.contains { $0.contains("° N") } }
        XCTAssertTrue(shown.joined().contains("52.209"), shown.joined(separator: "\n"))
        try session.send("L")
        try session.waitFor("hidden again") { !$0.joined().contains("° N") && $0.joined().contains("L shows") }
    }

    /// The export dialog's location toggle starts from `[export] strip_location` and the copies leave
    /// without GPS (exiftool checks).
    func testExportDialogRemovesTheLocationWhenTheConfigSaysSo() throws {
        let exiftool = try MissingRequirement.path(of: "exiftool", for: "the copies' location cannot be checked")
        try fixture.writeConfig("[export]\nstrip_location = true\n")
        let target = try directory("shared")
        try start()
        try show("train")
        try session.send("e")
        try session.waitFor("the dialog says the location goes") { $0.contains { $0.contains("Location: removed from the copies") } }
        try session.send("g")
        try session.waitFor("toggled off") { $0.contains { $0.contains("Location: kept in the copies") } }
        try session.send("g", "Enter")
        try waitForStatus("Export to:")
        try type(target)
        try session.send("Enter")
        try waitForStatus("1 of 1 item exported")
        XCTAssertEqual(names(target), ["train.jpg", "train.mov"])
        let tags = try ToolRunner.run(exiftool, ["-a", "-G1", "-s", "-gps:all", "-xmp-exif:all", "-Keys:all", "-UserData:all",
                                                 target + "/train.jpg", target + "/train.mov"]).output
        XCTAssertFalse(tags.contains("GPS"), tags)
        XCTAssertTrue(tags.contains("ContentIdentifier"), tags)
        let original = try ToolRunner.run(exiftool, ["-s", "-gps:all", library + "/train.jpg"]).output
        XCTAssertTrue(original.contains("GPSLatitude"), "the original keeps its position")
    }

    /// Issue 15: `?` listed the rating keys as "3".
    func testHelpListsTheRatingKeysAsARange() throws {
        try start()
        try session.send("?")
        let help = try session.waitFor("the help") { $0.contains { $0.contains("Rating 0-5") } }
        let line = try XCTUnwrap(help.first { $0.contains("Rating 0-5") })
        XCTAssertNotNil(line.range(of: #"Rating 0-5\s+0-5"#, options: .regularExpression), line)
    }
}
