import BrowserCore
import XCTest
@testable import TerminalUI

final class ImagePlacementLedgerTests: XCTestCase {
    let screen = TerminalSize(columns: 80, rows: 24)

    func place(_ key: String, _ x: Int, _ y: Int, _ w: Int = 10, _ h: Int = 5) -> ImagePlacement<String> {
        ImagePlacement(key: key, rect: CellRect(x: x, y: y, width: w, height: h))
    }

    func testFirstFrameDrawsEverythingAndAnIdleFrameWritesNothing() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        let wanted = [place("a", 0, 1), place("b", 12, 1)]
        let first = ledger.plan(wanted: wanted, overlays: [], screen: screen)
        XCTAssertEqual(first.draw, wanted)
        XCTAssertEqual(first.erase, [])
        XCTAssertEqual(first.repaintRows, [])
        XCTAssertTrue(ledger.plan(wanted: wanted, overlays: [], screen: screen).isEmpty)
    }

    func testScrollErasesOldRowsAndRedrawsPicturesOnThem_sixel() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        _ = ledger.plan(wanted: [place("a", 0, 1), place("b", 12, 1), place("c", 0, 8), place("d", 12, 8)],
                        overlays: [], screen: screen)
        // One grid row down: a and b scroll away, c and d move up to row 1, e appears at row 8 (the list ends
        // there: nothing takes d's old cells).
        let plan = ledger.plan(wanted: [place("c", 0, 1), place("d", 12, 1), place("e", 0, 8)],
                               overlays: [], screen: screen)
        XCTAssertEqual(Set(plan.erase.map(\.key)), ["a", "b", "c", "d"])
        XCTAssertEqual(plan.repaintRows, Array(8...12), "a, b and c's cells are overdrawn; d's old cells are not")
        XCTAssertEqual(Set(plan.draw.map(\.key)), ["c", "d", "e"])
    }

    func testRepaintingARowRedrawsAnUnchangedPictureOnIt_sixel() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        _ = ledger.plan(wanted: [place("a", 0, 1), place("b", 12, 1), place("c", 0, 8)], overlays: [], screen: screen)
        // b is replaced by another picture of a different size; a shares its rows and is wiped by the repaint.
        let plan = ledger.plan(wanted: [place("a", 0, 1), place("b2", 12, 1, 10, 3), place("c", 0, 8)],
                               overlays: [], screen: screen)
        XCTAssertEqual(plan.erase.map(\.key), ["b"])
        XCTAssertEqual(plan.repaintRows, [1, 2, 3, 4, 5])
        XCTAssertEqual(Set(plan.draw.map(\.key)), ["a", "b2"])
    }

    /// A movie's frames (and the key photo after it) replace each other over the same cells: overdrawn, never
    /// repainted first (that would flash the cell blank 30 times a second).
    func testAPictureReplacedOverTheSameCellsIsOverdrawnNotRepainted_sixel() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        _ = ledger.plan(wanted: [place("photo", 0, 1), place("b", 12, 1)], overlays: [], screen: screen)
        let frame1 = ledger.plan(wanted: [place("frame1", 0, 1), place("b", 12, 1)], overlays: [], screen: screen)
        XCTAssertEqual(frame1.erase.map(\.key), ["photo"])
        XCTAssertEqual(frame1.repaintRows, [], "nothing to repaint: frame1 covers photo's cells")
        XCTAssertEqual(frame1.draw.map(\.key), ["frame1"], "b stays as it is")
        let frame2 = ledger.plan(wanted: [place("frame2", 0, 1), place("b", 12, 1)], overlays: [], screen: screen)
        XCTAssertEqual(frame2.repaintRows, [])
        XCTAssertEqual(frame2.draw.map(\.key), ["frame2"])
        let back = ledger.plan(wanted: [place("photo", 0, 1), place("b", 12, 1)], overlays: [], screen: screen)
        XCTAssertEqual(back.repaintRows, [])
        XCTAssertEqual(back.draw.map(\.key), ["photo"])
        // A smaller replacement leaves old pixels around it: those rows are repainted as before.
        let smaller = ledger.plan(wanted: [place("small", 0, 1, 10, 3), place("b", 12, 1)], overlays: [], screen: screen)
        XCTAssertEqual(smaller.repaintRows, [1, 2, 3, 4, 5])
    }

    func testKittyDeletesByIDAndLeavesNeighboursAlone() {
        var ledger = ImagePlacementLedger<String>(erasure: .deleteByID)
        _ = ledger.plan(wanted: [place("a", 0, 1), place("b", 12, 1)], overlays: [], screen: screen)
        let plan = ledger.plan(wanted: [place("a", 0, 1)], overlays: [], screen: screen)
        XCTAssertEqual(plan.erase.map(\.key), ["b"])
        XCTAssertEqual(plan.repaintRows, [])
        XCTAssertEqual(plan.draw, [])
    }

    func testAnOverlayErasesPicturesUnderItAndTheyComeBackWhenItCloses() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        let wanted = [place("a", 0, 1), place("b", 60, 1), place("c", 0, 8)]
        _ = ledger.plan(wanted: wanted, overlays: [], screen: screen)
        let panel = CellRect(x: 40, y: 1, width: 40, height: 22)
        let open = ledger.plan(wanted: wanted, overlays: [panel], screen: screen)
        XCTAssertEqual(open.erase.map(\.key), ["b"])
        XCTAssertEqual(open.repaintRows, [1, 2, 3, 4, 5])
        // a shares b's rows: repainting them wipes it, so it is drawn again; c is untouched.
        XCTAssertEqual(open.draw.map(\.key), ["a"])
        XCTAssertFalse(ledger.placed.contains { $0.key == "b" })
        let closed = ledger.plan(wanted: wanted, overlays: [], screen: screen)
        XCTAssertEqual(closed.draw.map(\.key), ["b"])
        XCTAssertEqual(closed.erase, [])
    }

    func testNeverDrawsIntoTheLastRowOrAcrossTheRightEdge() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        let plan = ledger.plan(wanted: [place("lastRow", 0, 19, 10, 5), place("wraps", 75, 1, 10, 5),
                                        place("fits", 0, 18, 10, 5)], overlays: [], screen: screen)
        XCTAssertEqual(plan.draw.map(\.key), ["fits"])
    }

    func testResizeOrClearDrawsEverythingAgainWithoutRepaint() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        let wanted = [place("a", 0, 1)]
        _ = ledger.plan(wanted: wanted, overlays: [], screen: screen)
        ledger.screenCleared()
        let plan = ledger.plan(wanted: wanted, overlays: [], screen: screen)
        XCTAssertEqual(plan.draw, wanted)
        XCTAssertEqual(plan.repaintRows, [])
    }

    func testSmallerScreenErasesPicturesThatNoLongerFit() {
        var ledger = ImagePlacementLedger<String>(erasure: .deleteByID)
        _ = ledger.plan(wanted: [place("a", 0, 1), place("b", 0, 15)], overlays: [], screen: screen)
        let plan = ledger.plan(wanted: [place("a", 0, 1), place("b", 0, 15)], overlays: [],
                               screen: TerminalSize(columns: 80, rows: 12))
        XCTAssertEqual(plan.erase.map(\.key), ["b"])
        XCTAssertEqual(plan.draw, [])
    }

    func testTextRewrittenOnAPictureRowRedrawsIt_sixelOnly() {
        var sixel = ImagePlacementLedger<String>(erasure: .repaintCells)
        var kitty = ImagePlacementLedger<String>(erasure: .deleteByID)
        let wanted = [place("a", 0, 1), place("b", 12, 1), place("c", 0, 8)]
        _ = sixel.plan(wanted: wanted, overlays: [], screen: screen)
        _ = kitty.plan(wanted: wanted, overlays: [], screen: screen)
        XCTAssertEqual(sixel.occupiedRows, Set(1...5).union(8...12))
        let plan = sixel.plan(wanted: wanted, overlays: [], screen: screen, rewrittenRows: [3])
        XCTAssertEqual(plan.draw.map(\.key), ["a", "b"])
        XCTAssertEqual(plan.erase, [])
        XCTAssertTrue(kitty.plan(wanted: wanted, overlays: [], screen: screen, rewrittenRows: [3]).isEmpty)
    }
}

/// Sixel/iTerm2: a grid that scrolls makes the writer stop curses from scrolling the region (the terminal
/// would move the old pixels with the text, leaving pictures where the writer knows of none).
final class ImagePlacementLedgerScrollTests: XCTestCase {
    let screen = TerminalSize(columns: 80, rows: 24)

    func place(_ key: String, _ y: Int) -> ImagePlacement<String> {
        ImagePlacement(key: key, rect: CellRect(x: 0, y: y, width: 10, height: 5))
    }

    func testAScrollReplacesPicturesButAnIdleFrameANewPictureOrAMovieFrameDoNot() {
        var sixel = ImagePlacementLedger<String>(erasure: .repaintCells)
        _ = sixel.plan(wanted: [place("a", 1), place("b", 7)], overlays: [], screen: screen)
        XCTAssertFalse(sixel.replacesPictures([place("a", 1), place("b", 7)]), "idle")
        XCTAssertFalse(sixel.replacesPictures([place("a", 1), place("b", 7), place("c", 13)]), "a picture arrives")
        XCTAssertTrue(sixel.replacesPictures([place("b", 1), place("c", 7)]), "the grid scrolled by one row")
        let movie = { (key: String) in key.hasPrefix("frame") }
        _ = sixel.plan(wanted: [place("frame1", 1)], overlays: [], screen: screen)
        XCTAssertFalse(sixel.replacesPictures([place("frame2", 1)], isReplaceable: movie), "a movie's next frame")
        XCTAssertFalse(sixel.replacesPictures([place("a", 1)], isReplaceable: movie), "the key photo after the movie")

        var kitty = ImagePlacementLedger<String>(erasure: .deleteByID)
        _ = kitty.plan(wanted: [place("a", 1)], overlays: [], screen: screen)
        XCTAssertFalse(kitty.replacesPictures([place("b", 1)]), "kitty images live on their own layer")
    }
}
