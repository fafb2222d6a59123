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
        XCTAssertTrue(ledger.plan(wanted: wanted, overlays: [], screen: screen).isEmpty)
    }

    func testScrollErasesOldPicturesAndDrawsTheMovedOnes_sixel() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        _ = ledger.plan(wanted: [place("a", 0, 1), place("b", 12, 1), place("c", 0, 8), place("d", 12, 8)],
                        overlays: [], screen: screen)
        let plan = ledger.plan(wanted: [place("c", 0, 1), place("d", 12, 1), place("e", 0, 8)],
                               overlays: [], screen: screen)
        XCTAssertEqual(Set(plan.erase.map(\.key)), ["a", "b", "c", "d"])
        XCTAssertEqual(Set(plan.draw.map(\.key)), ["c", "d", "e"])
    }

    /// 28.2: a picture replaced by another of a different size leaves its neighbour on the same rows alone
    /// (curses writes only the cells the old one held; the whole row used to be repainted and re-sent).
    func testReplacingAPictureLeavesItsRowNeighbourAlone_sixel() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        _ = ledger.plan(wanted: [place("a", 0, 1), place("b", 12, 1), place("c", 0, 8)], overlays: [], screen: screen)
        let plan = ledger.plan(wanted: [place("a", 0, 1), place("b2", 12, 1, 10, 3), place("c", 0, 8)],
                               overlays: [], screen: screen)
        XCTAssertEqual(plan.erase.map(\.key), ["b"])
        XCTAssertEqual(plan.draw.map(\.key), ["b2"])
    }

    /// A movie's frames (and the key photo after it) replace each other over the same cells.
    func testAPictureReplacedOverTheSameCellsIsDrawnAloneAndNeighboursStay_sixel() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        _ = ledger.plan(wanted: [place("photo", 0, 1), place("b", 12, 1)], overlays: [], screen: screen)
        let frame1 = ledger.plan(wanted: [place("frame1", 0, 1), place("b", 12, 1)], overlays: [], screen: screen)
        XCTAssertEqual(frame1.erase.map(\.key), ["photo"])
        XCTAssertEqual(frame1.draw.map(\.key), ["frame1"], "b stays as it is")
        let frame2 = ledger.plan(wanted: [place("frame2", 0, 1), place("b", 12, 1)], overlays: [], screen: screen)
        XCTAssertEqual(frame2.draw.map(\.key), ["frame2"])
        let back = ledger.plan(wanted: [place("photo", 0, 1), place("b", 12, 1)], overlays: [], screen: screen)
        XCTAssertEqual(back.draw.map(\.key), ["photo"])
    }

    func testKittyDeletesByIDAndLeavesNeighboursAlone() {
        var ledger = ImagePlacementLedger<String>(erasure: .deleteByID)
        _ = ledger.plan(wanted: [place("a", 0, 1), place("b", 12, 1)], overlays: [], screen: screen)
        let plan = ledger.plan(wanted: [place("a", 0, 1)], overlays: [], screen: screen)
        XCTAssertEqual(plan.erase.map(\.key), ["b"])
        XCTAssertEqual(plan.draw, [])
    }

    func testAnOverlayErasesPicturesUnderItAndTheyComeBackWhenItCloses() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        let wanted = [place("a", 0, 1), place("b", 60, 1), place("c", 0, 8)]
        _ = ledger.plan(wanted: wanted, overlays: [], screen: screen)
        let panel = CellRect(x: 40, y: 1, width: 40, height: 22)
        let open = ledger.plan(wanted: wanted, overlays: [panel], screen: screen)
        XCTAssertEqual(open.erase.map(\.key), ["b"])
        XCTAssertEqual(open.draw, [], "a shares b's rows but keeps its cells: it stays")
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

    func testResizeOrClearDrawsEverythingAgain() {
        var ledger = ImagePlacementLedger<String>(erasure: .repaintCells)
        let wanted = [place("a", 0, 1)]
        _ = ledger.plan(wanted: wanted, overlays: [], screen: screen)
        ledger.screenCleared()
        let plan = ledger.plan(wanted: wanted, overlays: [], screen: screen)
        XCTAssertEqual(plan.draw, wanted)
    }

    func testSmallerScreenErasesPicturesThatNoLongerFit() {
        var ledger = ImagePlacementLedger<String>(erasure: .deleteByID)
        _ = ledger.plan(wanted: [place("a", 0, 1), place("b", 0, 15)], overlays: [], screen: screen)
        let plan = ledger.plan(wanted: [place("a", 0, 1), place("b", 0, 15)], overlays: [],
                               screen: TerminalSize(columns: 80, rows: 12))
        XCTAssertEqual(plan.erase.map(\.key), ["b"])
        XCTAssertEqual(plan.draw, [])
    }

    func testAPictureWhoseCellsCursesWritesIsDrawnAgain_sixelOnly() {
        var sixel = ImagePlacementLedger<String>(erasure: .repaintCells)
        var kitty = ImagePlacementLedger<String>(erasure: .deleteByID)
        let wanted = [place("a", 0, 1), place("b", 12, 1), place("c", 0, 8)]
        _ = sixel.plan(wanted: wanted, overlays: [], screen: screen)
        _ = kitty.plan(wanted: wanted, overlays: [], screen: screen)
        let overwritten = { (rect: CellRect) in rect.x == 12 && rect.y == 1 }
        let plan = sixel.plan(wanted: wanted, overlays: [], screen: screen, overwritten: overwritten)
        XCTAssertEqual(plan.draw.map(\.key), ["b"])
        XCTAssertEqual(plan.erase, [])
        XCTAssertTrue(kitty.plan(wanted: wanted, overlays: [], screen: screen, overwritten: overwritten).isEmpty)
    }
}

/// Which cells curses' update writes: a change inside a picture, or changes close on both sides of it.
final class CursesRowChangesTests: XCTestCase {
    let rect = CellRect(x: 10, y: 2, width: 30, height: 4)

    func testAChangeBesideAPictureLeavesItButOneInsideOrAShortRunAcrossItDoesNot() {
        XCTAssertFalse(CursesRowChanges.overwrites(rect, changed: [2: [0, 1, 2, 8, 9]]), "a placeholder to its left")
        XCTAssertFalse(CursesRowChanges.overwrites(rect, changed: [2: [40, 41, 60]]), "a label to its right")
        XCTAssertFalse(CursesRowChanges.overwrites(rect, changed: [1: Array(0..<80), 6: Array(0..<80)]), "rows above and below")
        XCTAssertTrue(CursesRowChanges.overwrites(rect, changed: [5: [39]]), "its last cell")
        XCTAssertFalse(CursesRowChanges.overwrites(rect, changed: [3: [9, 40]]), "30 unchanged cells between: curses moves the cursor")
        let narrow = CellRect(x: 10, y: 2, width: 6, height: 2)
        XCTAssertTrue(CursesRowChanges.overwrites(narrow, changed: [3: [8, 17]]), "a run of 8: curses may rewrite it")
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
