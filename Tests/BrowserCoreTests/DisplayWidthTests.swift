import BrowserCore
import XCTest

final class DisplayWidthTests: XCTestCase {
    func testFitCutsByColumnsAndNeutralisesControls() {
        XCTAssertEqual(DisplayWidth.fit("IMG_0001.JPG", width: 8), "IMG_000…")
        XCTAssertEqual(DisplayWidth.fit("short", width: 8), "short")
        XCTAssertEqual(DisplayWidth.of("写真写真.jpg"), 12)
        XCTAssertLessThanOrEqual(DisplayWidth.of(DisplayWidth.fit("写真写真.jpg", width: 5)), 5)
        XCTAssertEqual(DisplayWidth.fit("a\u{1B}[2Jb", width: 20), "a?[2Jb")
        XCTAssertEqual(DisplayWidth.pad("ab", width: 4), "ab  ")
        XCTAssertEqual(DisplayWidth.fit("abc", width: 0), "")
    }
}
