import Foundation
import XCTest

/// Runs the built `livegrid` in a real terminal (tmux) and checks what a user sees.
final class BrowserEndToEndTests: XCTestCase {
    private var fixture: BrowserFixture!

    override func setUpWithError() throws {
        fixture = try BrowserFixture.make()
    }

    override func tearDown() {
        fixture?.remove()
    }

    private func open(_ extra: String = "", after: String = "", columns: Int = 120, rows: Int = 40) throws -> TmuxSession {
        let session = try TmuxSession(command: fixture.command(extra, after: after), columns: columns, rows: rows)
        let count = fixture.names.count
        try session.waitFor("the grid with \(count) items") { screen in
            screen.first?.contains("\(count) items") == true && screen.contains { $0.contains(" 1/\(count) ") }
        }
        return session
    }

    private func statusLine(_ session: TmuxSession) throws -> String {
        try session.screen().last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    }

    func testGridShowsEveryItemIncludingACorruptFile() throws {
        let session = try open()
        let screen = try session.screen()
        let grid = ScreenGrid(lines: screen, names: fixture.names)
        for name in fixture.names {
            XCTAssertNotNil(grid.cell(name), "no cell for \(name):\n" + screen.joined(separator: "\n"))
        }
        XCTAssertNotNil(fixture.kinds["broken.jpg"], "the scanner lists the corrupt file")
        XCTAssertTrue(screen[0].contains("\(fixture.liveNames.count) live"), screen[0])
        XCTAssertTrue(screen.joined().contains("grid"), "the status bar names the mode")
    }

    func testBadgeSitsInTheSameCornerOfEveryLiveCellAndNowhereElse() throws {
        let session = try open()
        // Wait for pictures so the badge is checked on real thumbnails, not only on placeholders.
        let screen = try fixture.waitForCompleteGrid(session)
        let grid = ScreenGrid(lines: screen, names: fixture.names)
        var corners: Set<String> = []
        for name in fixture.names {
            guard let cell = grid.cell(name) else { return XCTFail("no cell for \(name)") }
            let badge = grid.find("LIVE", in: cell)
            if fixture.liveNames.contains(name) {
                guard let badge else {
                    XCTFail("\(name) is live but has no LIVE badge:\n" + screen.joined(separator: "\n"))
                    continue
                }
                let height = cell.captionRow - cell.pictureTop
                corners.insert((badge.row < height / 2 ? "top" : "bottom") + "-" + (badge.column < cell.width / 2 ? "left" : "right"))
            } else {
                XCTAssertNil(badge, "\(name) (\(fixture.kinds[name] ?? "?")) must not wear the LIVE badge")
            }
            if fixture.kinds[name] == "video" {
                XCTAssertNotNil(grid.find("VIDEO", in: cell) ?? grid.find("▣", in: cell), "videos get their own mark")
            }
        }
        XCTAssertLessThanOrEqual(corners.count, 1, "badges in different corners: \(corners)")
        if !corners.isEmpty { XCTAssertEqual(corners, ["top-left"], "the default corner") }
    }

    /// A second start finds the thumbnails in the freedesktop cache and draws the first screen from them while
    /// the scan still runs: the finished grid must be the very same screen as the first start's.
    func testWarmStartDrawsTheSameGridAsTheColdStart() throws {
        var cold = try open()
        let coldScreen = try fixture.waitForCompleteGrid(cold, occurrence: 1)
        try cold.send("q")
        try cold.waitForExit()
        cold = try open()
        let warmScreen = try fixture.waitForCompleteGrid(cold, occurrence: 2)
        XCTAssertEqual(warmScreen, coldScreen, "cold:\n" + coldScreen.joined(separator: "\n")
                       + "\nwarm:\n" + warmScreen.joined(separator: "\n"))
    }

    func testConfiguredBadgeCorner() throws {
        try fixture.writeConfig("[badge]\ncorner = \"bottom-right\"\n")
        let session = try open()
        let screen = try fixture.waitForCompleteGrid(session)
        let grid = ScreenGrid(lines: screen, names: fixture.names)
        for name in fixture.liveNames {
            guard let cell = grid.cell(name), let badge = grid.find("LIVE", in: cell) else {
                XCTFail("no badge on \(name):\n" + screen.joined(separator: "\n"))
                continue
            }
            XCTAssertGreaterThanOrEqual(badge.row, (cell.captionRow - cell.pictureTop) / 2, "bottom half")
            XCTAssertGreaterThanOrEqual(badge.column, cell.width / 2, "right half")
        }
        if fixture.liveNames.isEmpty {
            // Without real pairing yet, at least check the video mark moved to the bottom-right.
            for name in fixture.names where fixture.kinds[name] == "video" {
                guard let cell = grid.cell(name), let mark = grid.find("▣", in: cell) else { continue }
                XCTAssertGreaterThanOrEqual(mark.column, cell.width / 2)
            }
        }
    }

    func testNavigationMovesTheSelection() throws {
        let session = try open()
        let count = fixture.names.count
        try session.send("l")
        try session.waitFor("selection 2") { $0.contains { $0.contains(" 2/\(count) ") } }
        try session.send("Right")
        try session.waitFor("selection 3") { $0.contains { $0.contains(" 3/\(count) ") } }
        try session.send("G")
        try session.waitFor("the last item") { $0.contains { $0.contains(" \(count)/\(count) ") } }
        try session.send("h")
        try session.waitFor("one back") { $0.contains { $0.contains(" \(count - 1)/\(count) ") } }
        try session.send("g")
        try session.waitFor("the first item") { $0.contains { $0.contains(" 1/\(count) ") } }
        // The caption of the selected cell carries the selection marker.
        let screen = try session.screen()
        XCTAssertTrue(screen.contains { $0.contains("▸" + fixture.names[0]) }, screen.joined(separator: "\n"))
    }

    func testMouseClickSelectsThenOpens() throws {
        let session = try open()
        let count = fixture.names.count
        let grid = ScreenGrid(lines: try session.screen(), names: fixture.names)
        guard let last = fixture.names.last, let cell = grid.cell(last) else { return XCTFail("no cell for the last item") }
        try session.click(x: cell.x + 2, y: cell.captionRow - 2)
        try session.waitFor("the clicked item selected") { $0.contains { $0.contains(" \(count)/\(count) ") } }
        try session.click(x: cell.x + 2, y: cell.captionRow - 2)
        try session.waitFor("a second click opens the viewer") { $0.contains { $0.contains("viewer ·") } }
    }

    func testResizeReflowsTheGrid() throws {
        let session = try open()
        func captionRows(_ screen: [String]) -> Set<Int> {
            Set(ScreenGrid(lines: screen, names: fixture.names).cells.map(\.captionRow))
        }
        XCTAssertEqual(captionRows(try session.screen()).count, 1, "4 items fit one row at 120 columns")
        try session.resize(columns: 50, rows: 40)
        let narrow = try session.waitFor("two columns") { captionRows($0).count == 2 }
        XCTAssertTrue(narrow.allSatisfy { $0.count <= 50 })
        try session.resize(columns: 30, rows: 8)
        try session.waitFor("the list layout") { screen in
            // One item per line: every name on its own row.
            fixture.names.allSatisfy { name in screen.contains { $0.contains(name) } }
                && captionRows(screen).count == fixture.names.count
        }
        try session.resize(columns: 120, rows: 40)
        try session.waitFor("back to one row") { captionRows($0).count == 1 }
    }

    func testViewerInfoAndHelpOpenAndClose() throws {
        let session = try open()
        try session.send("Enter")
        try session.waitFor("the viewer") { $0.contains { $0.contains("viewer ·") } }
        try session.send("i")
        let info = try session.waitFor("the info panel") { $0.contains { $0.contains("Info") } && $0.contains { $0.contains("Kind") } }
        XCTAssertFalse(info.joined().lowercased().contains("gps"))
        try session.send("Escape")
        try session.waitFor("info closed") { !$0.contains { $0.contains("Kind ") } }
        try session.send("Escape")
        try session.waitFor("back in the grid") { $0.contains { $0.contains("grid ·") } }
        try session.send("?")
        try session.waitFor("help") { $0.contains { $0.contains("Help") } }
        try session.send("?")
        try session.waitFor("help closed") { !$0.contains { $0.contains("Help —") } }
    }

    func testFilterByName() throws {
        let session = try open()
        try session.send("/", "m", "o", "t", "Enter")
        try session.waitFor("the filtered grid") { $0.first?.contains("1 items") == true || $0.first?.contains("1 item") == true }
        try session.send("Escape")
        try session.waitFor("the filter cleared") { $0.first?.contains("\(fixture.names.count) items") == true }
    }

    func testQuitLeavesTheAlternateScreenAndRestoresTheTerminal() throws {
        // CHECKED comes after stty's answer: waiting for EXIT= alone read the screen before it (seen in CI).
        let session = try open(after: "echo EXIT=\\$?; stty -a | tr ' ' '\\\\n' | grep -x echo; echo CHECKED; sleep 30")
        XCTAssertEqual(try session.display("#{alternate_on}"), "1", "the browser uses the alternate screen")
        try session.send("q")
        let screen = try session.waitFor("the shell after exit") { $0.contains { $0.contains("CHECKED") } }
        XCTAssertTrue(screen.contains { $0.contains("EXIT=0") }, screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains { $0 == "echo" }, "echo is back on:\n" + screen.joined(separator: "\n"))
        XCTAssertEqual(try session.display("#{alternate_on}"), "0", "the alternate screen was left")
    }

    func testCtrlZThenFgRedrawsTheGrid() throws {
        let session = try TmuxSession(command: "env PS1='$ ' bash --norc --noprofile -i")
        try session.send(fixture.command(), "Enter")
        let count = fixture.names.count
        try session.waitFor("the grid") { $0.contains { $0.contains(" 1/\(count) ") } }
        try session.send("C-z")
        try session.waitFor("the shell after Ctrl-Z") { $0.contains { $0.contains("Stopped") } }
        XCTAssertEqual(try session.display("#{alternate_on}"), "0", "suspended: the alternate screen is left")
        try session.send("fg", "Enter")
        try session.waitFor("the grid again") { screen in
            screen.contains { $0.contains(" 1/\(count) ") } && screen.first?.contains("\(count) items") == true
        }
        try session.send("l")
        try session.waitFor("still responsive") { $0.contains { $0.contains(" 2/\(count) ") } }
    }

    func testCtrlCRestoresTheTerminal() throws {
        // CHECKED comes after stty's answer: waiting for EXIT= alone read the screen before it (seen once).
        let session = try open(after: "echo EXIT=\\$?; stty -a | tr ' ' '\\\\n' | grep -x echo; echo CHECKED; sleep 30")
        try session.send("C-c")
        let screen = try session.waitFor("the shell after Ctrl-C") { $0.contains { $0.contains("CHECKED") } }
        XCTAssertTrue(screen.contains { $0.contains("EXIT=130") }, "ended by SIGINT:\n" + screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains { $0 == "echo" }, "echo is back on:\n" + screen.joined(separator: "\n"))
        XCTAssertEqual(try session.display("#{alternate_on}"), "0")
    }
}
