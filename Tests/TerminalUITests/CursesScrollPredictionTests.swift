@testable import TerminalUI
import XCTest

/// Whether curses' scroll optimisation could move lines (then directly written picture cells are written
/// again): only a run of 3+ lines identical at one shift, anchored on a line unique in both screens.
final class CursesScrollPredictionTests: XCTestCase {
    func testARunOfThreeMovedLinesIsAMove() {
        XCTAssertTrue(CursesScrollPrediction.mightMoveLines(old: [1, 2, 3, 4, 5, 6], new: [9, 9, 1, 2, 3, 8]))
    }

    func testASingleMovedLineOrRepeatedLinesAreNot() {
        // Caption line 7 moved from row 4 to row 1, alone: curses drops hunks under 3 lines.
        XCTAssertFalse(CursesScrollPrediction.mightMoveLines(old: [1, 100, 101, 102, 7, 103], new: [1, 7, 200, 201, 202, 203]))
        // Blank lines repeat: never an anchor.
        XCTAssertFalse(CursesScrollPrediction.mightMoveLines(old: [0, 0, 0, 0], new: [0, 0, 0, 0]))
        // Unchanged lines stay where they are.
        XCTAssertFalse(CursesScrollPrediction.mightMoveLines(old: [1, 2, 3], new: [1, 2, 3]))
    }

    func testMarkersDifferFromRowToRow() {
        XCTAssertNotEqual(DirectCellOutput.markerCharacter(row: 3), DirectCellOutput.markerCharacter(row: 4))
        XCTAssertEqual(DirectCellOutput.markerCharacter(row: 0), 0x2800)
    }
}
