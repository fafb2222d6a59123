import TerminalProtocol
import XCTest

/// The scroll-region writers (DECSTBM, SU, SD) the cell writer scrolls the screen with: exact bytes.
final class TerminalSequencesTests: XCTestCase {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testScrollRegionIsOneBasedAndInclusive() {
        XCTAssertEqual(text(TerminalSequences.scrollRegion(rows: 1...38)), "\u{1B}[2;39r")
        XCTAssertEqual(text(TerminalSequences.resetScrollRegion), "\u{1B}[r")
    }

    func testScrollUpDownAndNotAtAll() {
        XCTAssertEqual(text(TerminalSequences.scroll(by: 3)), "\u{1B}[3S")
        XCTAssertEqual(text(TerminalSequences.scroll(by: -2)), "\u{1B}[2T")
        XCTAssertEqual(TerminalSequences.scroll(by: 0), [], "CSI 0 S would scroll one row")
        XCTAssertEqual(text(TerminalSequences.cursorHome), "\u{1B}[H")
    }
}
