import BrowserCore
import TerminalUI
import XCTest

/// Issue 31.6: text folded to ASCII column for column, for a locale that is not UTF-8.
final class AsciiTextTests: XCTestCase {
    func testSymbolsAccentsAndWideCharactersKeepTheirColumns() {
        let samples = ["┌──┐ ◎ LIVE", "Café – été…", "写真 01.jpg", "a\u{301}b", "plain.jpg", "★★★☆☆ ⚑"]
        for text in samples {
            let folded = AsciiText.fold(text)
            XCTAssertTrue(folded.utf8.allSatisfy { $0 < 0x80 }, "\(text) -> \(folded)")
            XCTAssertEqual(DisplayWidth.of(folded), DisplayWidth.of(text), "\(text) -> \(folded)")
        }
        XCTAssertEqual(AsciiText.fold("┌──┐ ◎ LIVE"), "+--+ @ LIVE")
        XCTAssertEqual(AsciiText.fold("Café"), "Cafe")
        XCTAssertEqual(AsciiText.fold("写真.jpg"), "????.jpg")
        XCTAssertEqual(AsciiText.fold("plain.jpg"), "plain.jpg")
    }
}
