import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import MediaFormats
import TerminalProtocol
import XCTest

/// Library-wide views: sort order, folder and timeline sections, jump to date (BrowserCore/Views).
final class LibraryViewTests: XCTestCase {
    private func photo(_ path: String, date: String?, size: UInt64 = 1000) -> LibraryItem {
        var info = MediaInfo(format: .jpeg)
        info.captureDate = date
        return LibraryItem(kind: .still, still: MediaFile(path: path, size: size, modificationTime: 0, info: info))
    }

    /// A nested library: three folders, dates across two years, one undated photo. Listed in name order.
    private var library: [LibraryItem] {
        [
            photo("2022/a.jpg", date: "2022:12:30 10:00:00", size: 300),
            photo("2022/b.jpg", date: "2023:01:02 09:00:00", size: 100),
            photo("2023/c.jpg", date: "2023:07:14 08:00:00", size: 500),
            photo("2023/d.jpg", date: "2023-07-01T12:00:00+0200", size: 200),
            photo("2023/e.jpg", date: nil, size: 400),
            photo("misc/f.jpg", date: "2023:01:20 18:30:00", size: 200),
        ]
    }

    private func loaded(_ items: [LibraryItem], columns: Int = 120, rows: Int = 40) -> BrowserState {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: columns, rows: rows))
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: items, warnings: [])))
        return state
    }

    private func names(_ state: BrowserState) -> [String] { state.items.map(\.displayName) }

    func testSortCyclesNameDateSizeAndIsStable() {
        var state = loaded(library)
        XCTAssertEqual(names(state), ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg", "f.jpg"])
        state.reduce(.view(.cycleSort))
        XCTAssertEqual(state.sortOrder, .date)
        XCTAssertEqual(names(state), ["a.jpg", "b.jpg", "f.jpg", "d.jpg", "c.jpg", "e.jpg"], "undated last")
        state.reduce(.view(.cycleSort))
        XCTAssertEqual(state.sortOrder, .size)
        // d and f have the same size: they keep their name order.
        XCTAssertEqual(names(state), ["c.jpg", "e.jpg", "a.jpg", "d.jpg", "f.jpg", "b.jpg"])
        state.reduce(.view(.cycleSort))
        XCTAssertEqual(state.sortOrder, .name)
        XCTAssertEqual(names(state), ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg", "f.jpg"])
    }

    func testSelectionStaysOnTheSameItemWhenTheOrderChanges() {
        var state = loaded(library)
        state.reduce(.select(index: 2))   // c.jpg
        for _ in 0..<5 {
            state.reduce(.view(.cycleSort))
            XCTAssertEqual(state.selectedItem?.displayName, "c.jpg")
            state.reduce(.view(.cycleGrouping))
            XCTAssertEqual(state.selectedItem?.displayName, "c.jpg")
        }
    }

    func testFolderSectionsInNameOrder() {
        var state = loaded(library)
        state.reduce(.view(.setGrouping(.folder)))
        XCTAssertEqual(state.sections.map(\.title), ["2022 · 2 items", "2023 · 3 items", "misc · 1 item"])
        XCTAssertEqual(state.sections.map(\.range), [0..<2, 2..<5, 5..<6])
        state.reduce(.view(.setSort(.size)))
        XCTAssertEqual(names(state), ["a.jpg", "b.jpg", "c.jpg", "e.jpg", "d.jpg", "f.jpg"], "sorted inside each folder")
    }

    func testTimelineHasYearAndMonthHeadersAndUndatedLast() {
        var state = loaded(library)
        state.reduce(.view(.setGrouping(.date)))
        XCTAssertEqual(state.sections.map(\.title), ["2022", "December 2022 · 1 item", "2023", "January 2023 · 2 items",
                                                     "July 2023 · 2 items", "Undated · 1 item"])
        XCTAssertEqual(names(state), ["a.jpg", "b.jpg", "f.jpg", "c.jpg", "d.jpg", "e.jpg"], "name order inside a month")
        XCTAssertTrue(state.sections[0].range.isEmpty && state.sections[2].range.isEmpty, "year rows hold no item")
    }

    func testHeaderRowsAreNeverSelected() throws {
        var state = loaded(library)
        state.reduce(.view(.setGrouping(.date)))
        let grid = try XCTUnwrap(state.sectionedGrid)
        // Walking down and up through every row visits items only, in section order.
        var visited = [state.selection]
        for _ in 0..<10 {
            state.reduce(.move(.down))
            visited.append(state.selection)
        }
        XCTAssertEqual(visited.last, 5, "down reaches the undated section")
        var headersClicked = 0
        for visible in grid.visibleRows(scrollRow: state.scrollRow) {
            if case .header = visible.row {
                headersClicked += 1
                XCTAssertNil(grid.index(atX: 1, y: visible.y, scrollRow: state.scrollRow), "a click on a header selects nothing")
                state.reduce(.click(x: 1, y: visible.y))
                XCTAssertEqual(state.selection, 5)
            }
        }
        XCTAssertGreaterThan(headersClicked, 0)
        // Headers take a row each: year, month, items, year, month, items, month, items, undated, items.
        XCTAssertEqual(grid.rowCount, 10)
        XCTAssertEqual(grid.row(ofItem: 0), 2)
        XCTAssertEqual(grid.row(at: 0), .header(section: 0))
        state.reduce(.move(.up))
        XCTAssertEqual(state.selection, 3, "up from undated goes to July's row (same column, clamped)")
        state.reduce(.first)
        XCTAssertEqual(state.scrollRow, 0, "the first item brings its headers on screen")
    }

    func testScrollingKeepsTheSelectionOnScreenAcrossManySections() throws {
        // 40 folders of 7 photos in a small terminal: pages of rows with headers in between.
        let items = (0..<280).map { photo(String(format: "f%02d/%03d.jpg", $0 / 7, $0), date: nil) }
        var state = loaded(items, columns: 80, rows: 24)
        state.reduce(.view(.setGrouping(.folder)))
        let grid = try XCTUnwrap(state.sectionedGrid)
        for _ in 0..<60 {
            state.reduce(.move(.down))
            XCTAssertNotNil(grid.cellRect(index: state.selection, scrollRow: state.scrollRow), "selection on screen")
        }
        state.reduce(.pageDown)
        XCTAssertNotNil(grid.cellRect(index: state.selection, scrollRow: state.scrollRow))
        state.reduce(.last)
        XCTAssertEqual(state.selection, 279)
        XCTAssertLessThanOrEqual(state.scrollRow, grid.maxScrollRow())
        XCTAssertNotNil(grid.cellRect(index: 279, scrollRow: state.scrollRow))
        state.reduce(.scroll(rows: -1000))
        XCTAssertEqual(state.scrollRow, 0)
        XCTAssertNotNil(grid.cellRect(index: state.selection, scrollRow: 0), "wheel pulls the selection along")
    }

    func testJumpToDateSelectsFirstItemOnOrAfter() {
        var state = loaded(library)
        state.reduce(.view(.setGrouping(.date)))
        let keymap = Keymap()
        for key in [KeyInput.character("D")] + "2023-07".map({ KeyInput.character($0) }) + [.enter] {
            if let action = keymap.action(for: key, in: state) { state.reduce(action) }
        }
        XCTAssertNil(state.dateJumpText)
        XCTAssertEqual(state.selectedItem?.displayName, "d.jpg", "July 1st is the first photo on or after 2023-07")
        state.reduce(.view(.beginDateJump))
        "2023-07-14".forEach { state.reduce(.view(.dateJumpInput($0))) }
        state.reduce(.view(.commitDateJump))
        XCTAssertEqual(state.selectedItem?.displayName, "c.jpg")
        state.reduce(.view(.beginDateJump))
        "2022".forEach { state.reduce(.view(.dateJumpInput($0))) }
        state.reduce(.view(.commitDateJump))
        XCTAssertEqual(state.selectedItem?.displayName, "a.jpg")
        state.reduce(.view(.beginDateJump))
        "2031-01".forEach { state.reduce(.view(.dateJumpInput($0))) }
        state.reduce(.view(.commitDateJump))
        XCTAssertEqual(state.selectedItem?.displayName, "a.jpg", "nothing after: the selection stays")
        XCTAssertEqual(state.message, "no photo taken on or after 2031-01")
        state.reduce(.view(.beginDateJump))
        "July".forEach { state.reduce(.view(.dateJumpInput($0))) }
        state.reduce(.view(.commitDateJump))
        XCTAssertEqual(state.message, "type a date as 2023, 2023-07 or 2023-07-14")
    }

    func testDateJumpPromptTakesEveryKeyAndEscCancels() {
        var state = loaded(library)
        let keymap = Keymap()
        state.reduce(.view(.beginDateJump))
        XCTAssertEqual(keymap.action(for: .character("q"), in: state).map { "\($0)" }, "view(BrowserCore.ViewAction.dateJumpInput(\"q\"))")
        if let action = keymap.action(for: .escape, in: state) { state.reduce(action) }
        XCTAssertNil(state.dateJumpText)
        XCTAssertFalse(state.wantsQuit)
    }

    func testCaptureDateKeyParsesExifAndQuickTimeForms() {
        XCTAssertEqual(CaptureDateKey.parse("2023:07:14 10:22:33", minimumFields: 3), 20230714102233)
        XCTAssertEqual(CaptureDateKey.parse("2023-07-14T10:22:33+0200", minimumFields: 3), 20230714102233)
        XCTAssertEqual(CaptureDateKey.parse("2023-07", minimumFields: 2), 20230701000000)
        XCTAssertNil(CaptureDateKey.parse("0000:00:00 00:00:00", minimumFields: 3), "cameras write zeros for no date")
        XCTAssertNil(CaptureDateKey.parse("2023-13", minimumFields: 2))
        XCTAssertNil(CaptureDateKey.parse("", minimumFields: 2))
    }

    func testNewKeysAreFreeAndListedInHelp() {
        let keymap = Keymap()
        XCTAssertEqual(keymap.keys(for: .sort).map(\.displayName), ["s"])
        XCTAssertEqual(keymap.keys(for: .group).map(\.displayName), ["t"])
        XCTAssertEqual(keymap.keys(for: .jumpToDate).map(\.displayName), ["D"])
        let help = HelpScreen.lines(keymap: keymap).joined(separator: "\n")
        // Labels fit the help screen's 16-column label field (a longer one ran into its keys).
        for label in ["Sort order", "Group/timeline", "Jump to date"] {
            XCTAssertTrue(help.contains(label), help)
            XCTAssertLessThan(label.count, 16)
        }
        // No key is bound twice in the defaults.
        let all = Keymap.defaultBindings.flatMap(\.1)
        XCTAssertEqual(all.count, Set(all).count)
    }

    func testConfigReadsSortAndGroup() throws {
        let config = try BrowserConfig(parsing: "[grid]\nsort = \"date\"\ngroup = \"timeline\"\n")
        XCTAssertEqual(config.sortOrder, .date)
        XCTAssertEqual(config.grouping, .date)
        XCTAssertThrowsError(try BrowserConfig(parsing: "[grid]\nsort = \"colour\"\n"))
    }
}
