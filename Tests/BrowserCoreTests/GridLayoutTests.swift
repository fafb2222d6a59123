import BrowserCore
import XCTest

final class GridLayoutTests: XCTestCase {
    func testDefaultZoomAt120x40FillsTheWidth() {
        let layout = GridLayout(terminal: TerminalSize(columns: 120, rows: 40), zoom: GridLayout.defaultZoom)
        XCTAssertFalse(layout.isList)
        XCTAssertEqual(layout.columns, 5)
        // Cells plus gaps use the whole width (leftover spread over cells, less than one column per cell lost).
        XCTAssertLessThan(120 - (layout.columns * layout.cellWidth + (layout.columns - 1)), layout.columns)
        XCTAssertGreaterThanOrEqual(layout.visibleRows, 1)
        XCTAssertLessThanOrEqual(layout.visibleRows * layout.rowPitch - 1, layout.content.height)
    }

    func testCellsNeverOverlapOrLeaveTheScreen() {
        for (columns, rows) in [(40, 12), (80, 24), (120, 40), (300, 100), (1000, 400), (24, 9)] {
            for zoom in GridLayout.zoomWidths.indices {
                let layout = GridLayout(terminal: TerminalSize(columns: columns, rows: rows), zoom: zoom)
                var covered = Set<Int>()
                for index in layout.visibleIndices(scrollRow: 0, itemCount: 10_000) {
                    guard let rect = layout.cellRect(index: index, scrollRow: 0) else {
                        return XCTFail("visible index \(index) has no rect at \(columns)x\(rows) zoom \(zoom)")
                    }
                    XCTAssertGreaterThanOrEqual(rect.y, layout.content.y)
                    XCTAssertLessThanOrEqual(rect.y + rect.height, layout.content.y + layout.content.height,
                                             "\(columns)x\(rows) zoom \(zoom)")
                    XCTAssertLessThanOrEqual(rect.x + rect.width, columns)
                    for y in rect.y..<(rect.y + rect.height) {
                        for x in rect.x..<(rect.x + rect.width) {
                            XCTAssertTrue(covered.insert(y * columns + x).inserted, "overlap at \(x),\(y)")
                        }
                    }
                }
            }
        }
    }

    func testSmallTerminalsDegradeToAList() {
        let tiny = GridLayout(terminal: TerminalSize(columns: 20, rows: 6), zoom: 2)
        XCTAssertTrue(tiny.isList)
        XCTAssertEqual(tiny.columns, 1)
        XCTAssertEqual(tiny.visibleRows, 4)
        let minimum = GridLayout(terminal: TerminalSize(columns: 40, rows: 12), zoom: 2)
        XCTAssertFalse(minimum.isList)
        let zero = GridLayout(terminal: TerminalSize(columns: 0, rows: 0), zoom: 99)
        XCTAssertTrue(zero.isList)
        XCTAssertEqual(zero.itemsPerPage, 1)
    }

    func testZoomChangesColumns() {
        let size = TerminalSize(columns: 200, rows: 60)
        let counts = GridLayout.zoomWidths.indices.map { GridLayout(terminal: size, zoom: $0).columns }
        XCTAssertEqual(counts, counts.sorted(by: >))
        XCTAssertGreaterThan(counts.first ?? 0, counts.last ?? 0)
    }

    func testHitTestingFindsTheCellUnderTheMouse() throws {
        let layout = GridLayout(terminal: TerminalSize(columns: 120, rows: 40), zoom: 2)
        let rect = try XCTUnwrap(layout.cellRect(index: 7, scrollRow: 0))
        XCTAssertEqual(layout.index(atX: rect.x + 1, y: rect.y + 1, scrollRow: 0, itemCount: 20), 7)
        XCTAssertNil(layout.index(atX: 0, y: 0, scrollRow: 0, itemCount: 20), "the header is not a cell")
        XCTAssertNil(layout.index(atX: rect.x + 1, y: rect.y + 1, scrollRow: 0, itemCount: 5), "past the last item")
    }

    func testScrollKeepsTheIndexVisible() {
        let layout = GridLayout(terminal: TerminalSize(columns: 120, rows: 40), zoom: 2)
        let scroll = layout.scrollRow(keeping: 99, current: 0, itemCount: 100)
        XCTAssertTrue(layout.visibleIndices(scrollRow: scroll, itemCount: 100).contains(99))
        XCTAssertEqual(layout.scrollRow(keeping: 0, current: scroll, itemCount: 100), 0)
        XCTAssertEqual(scroll, layout.maxScrollRow(itemCount: 100))
    }
}
