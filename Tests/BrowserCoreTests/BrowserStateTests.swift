import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import XCTest

final class BrowserStateTests: XCTestCase {
    private func loadedState(_ items: [LibraryItem], columns: Int = 120, rows: Int = 40) -> BrowserState {
        var state = BrowserState(rootPath: "/photos", terminal: TerminalSize(columns: columns, rows: rows))
        state.reduce(.scanStarted)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: items, warnings: [])))
        return state
    }

    func testArrowsMoveThroughTheGrid() {
        var state = loadedState(TestItems.stills(12))
        let columns = state.layout.columns
        state.reduce(.move(.right))
        XCTAssertEqual(state.selection, 1)
        state.reduce(.move(.down))
        XCTAssertEqual(state.selection, 1 + columns)
        state.reduce(.move(.up))
        state.reduce(.move(.up))
        XCTAssertEqual(state.selection, 1, "up on the first row stays")
        state.reduce(.move(.left))
        state.reduce(.move(.left))
        XCTAssertEqual(state.selection, 0)
        state.reduce(.last)
        XCTAssertEqual(state.selection, 11)
        state.reduce(.first)
        XCTAssertEqual(state.selection, 0)
    }

    func testDownFromAboveAPartialLastRowLandsOnTheLastItem() {
        var state = loadedState(TestItems.stills(7))
        XCTAssertEqual(state.layout.columns, 5)
        state.reduce(.select(index: 4))
        state.reduce(.move(.down))
        XCTAssertEqual(state.selection, 6)
    }

    func testPagingScrollsAndKeepsSelectionVisible() {
        var state = loadedState(TestItems.stills(500))
        state.reduce(.pageDown)
        XCTAssertEqual(state.selection, state.layout.itemsPerPage)
        XCTAssertTrue(state.layout.visibleIndices(scrollRow: state.scrollRow, itemCount: 500).contains(state.selection))
        state.reduce(.last)
        XCTAssertEqual(state.scrollRow, state.layout.maxScrollRow(itemCount: 500))
        state.reduce(.pageUp)
        XCTAssertTrue(state.layout.visibleIndices(scrollRow: state.scrollRow, itemCount: 500).contains(state.selection))
    }

    func testResizeReflowsAndKeepsTheSelection() {
        var state = loadedState(TestItems.stills(200))
        state.reduce(.select(index: 150))
        state.reduce(.resize(TerminalSize(columns: 60, rows: 20)))
        XCTAssertEqual(state.selection, 150)
        XCTAssertTrue(state.layout.visibleIndices(scrollRow: state.scrollRow, itemCount: 200).contains(150))
        state.reduce(.resize(TerminalSize(columns: 20, rows: 5)))
        XCTAssertTrue(state.layout.isList)
        XCTAssertTrue(state.layout.visibleIndices(scrollRow: state.scrollRow, itemCount: 200).contains(150))
    }

    func testViewerInfoHelpAndBack() {
        var state = loadedState([TestItems.live("IMG_0001"), TestItems.still("a.jpg"), TestItems.video("b.mov")])
        state.reduce(.openViewer)
        XCTAssertEqual(state.mode, .viewer)
        state.reduce(.move(.right))
        XCTAssertEqual(state.selection, 1, "right steps to the next item in the viewer")
        state.reduce(.toggleInfo)
        XCTAssertTrue(state.showsInfo)
        state.reduce(.back)
        XCTAssertFalse(state.showsInfo)
        XCTAssertEqual(state.mode, .viewer)
        state.reduce(.back)
        XCTAssertEqual(state.mode, .grid)
        state.reduce(.toggleHelp)
        XCTAssertEqual(state.mode, .help)
        state.reduce(.back)
        XCTAssertEqual(state.mode, .grid)
        XCTAssertEqual(state.reduce(.quit), [.quit])
        XCTAssertTrue(state.wantsQuit)
    }

    func testFilterByNameKeepsSelectedItem() {
        var state = loadedState([TestItems.still("beach.jpg"), TestItems.still("cat.jpg"), TestItems.still("beach2.jpg")])
        state.reduce(.select(index: 2))
        state.reduce(.beginFilter)
        for character in "BEA" { state.reduce(.filterInput(character)) }
        XCTAssertEqual(state.items.map(\.displayName), ["beach.jpg", "beach2.jpg"])
        XCTAssertEqual(state.selectedItem?.displayName, "beach2.jpg")
        state.reduce(.filterBackspace)
        XCTAssertEqual(state.filter, "BE")
        state.reduce(.commitFilter)
        XCTAssertFalse(state.isEditingFilter)
        state.reduce(.back)
        XCTAssertEqual(state.items.count, 3, "Esc in the grid clears the filter")
        XCTAssertEqual(state.selectedItem?.displayName, "beach2.jpg")
    }

    func testZoomIsClamped() {
        var state = loadedState(TestItems.stills(3))
        for _ in 0..<20 { state.reduce(.zoomIn) }
        XCTAssertEqual(state.zoom, GridLayout.zoomWidths.count - 1)
        for _ in 0..<20 { state.reduce(.zoomOut) }
        XCTAssertEqual(state.zoom, 0)
    }

    func testClickSelectsThenOpens() throws {
        var state = loadedState(TestItems.stills(10))
        let rect = try XCTUnwrap(state.layout.cellRect(index: 3, scrollRow: 0))
        state.reduce(.click(x: rect.x, y: rect.y))
        XCTAssertEqual(state.selection, 3)
        XCTAssertEqual(state.mode, .grid)
        state.reduce(.click(x: rect.x, y: rect.y))
        XCTAssertEqual(state.mode, .viewer)
    }

    func testWheelScrollsAndDragsTheSelectionAlong() {
        var state = loadedState(TestItems.stills(300))
        state.reduce(.scroll(rows: 3))
        XCTAssertEqual(state.scrollRow, 3)
        XCTAssertTrue(state.layout.visibleIndices(scrollRow: 3, itemCount: 300).contains(state.selection))
        state.reduce(.scroll(rows: -100))
        XCTAssertEqual(state.scrollRow, 0)
    }

    func testPlaySeamOnlyForMovingItems() {
        var state = loadedState([TestItems.live("IMG_0001"), TestItems.still("a.jpg")])
        XCTAssertEqual(state.reduce(.playPressed), [.startPlayback(itemID: "/photos/IMG_0001.HEIC")])
        XCTAssertEqual(state.reduce(.playPressed), [], "auto-repeat does not restart playback")
        XCTAssertEqual(state.reduce(.playReleased), [.stopPlayback])
        state.reduce(.move(.right))
        XCTAssertEqual(state.reduce(.playPressed), [], "a still has nothing to play")
    }

    func testRescanKeepsSelectionByIdentity() {
        var state = loadedState(TestItems.stills(5))
        state.reduce(.select(index: 3))
        let selected = state.selectedItem?.id
        XCTAssertEqual(state.reduce(.rescan), [.startScan])
        var items = TestItems.stills(5)
        items.insert(TestItems.still("AAA.jpg"), at: 0)
        state.reduce(.scanFinished(LibraryScan(root: "/photos", items: items, warnings: ["x"])))
        XCTAssertEqual(state.selectedItem?.id, selected)
        XCTAssertEqual(state.selection, 4)
        XCTAssertEqual(state.scanWarnings, ["x"])
    }

    func testEmptyLibraryIsSafe() {
        var state = loadedState([])
        for action: BrowserAction in [.move(.down), .pageDown, .last, .openViewer, .playPressed, .scroll(rows: 5),
                                      .click(x: 3, y: 3), .toggleInfo] {
            state.reduce(action)
        }
        XCTAssertNil(state.selectedItem)
        XCTAssertEqual(state.mode, .grid)
    }
}
