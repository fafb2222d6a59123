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

    func testWrapBreaksPathsAndIdentifiersWithoutLosingText() {
        let path = "/home/user/Pictures/2024/Holiday in Lisbon/IMG_0001.HEIC"
        let lines = DisplayWidth.wrap(path, width: 20)
        XCTAssertTrue(lines.allSatisfy { DisplayWidth.of($0) <= 20 }, "\(lines)")
        XCTAssertEqual(lines.first, "/home/user/Pictures/")
        XCTAssertEqual(lines.joined(separator: " ").replacingOccurrences(of: "/ ", with: "/"), path)

        let uuid = "1F8D7CC6-D6C0-4C8C-A5A4-9B0E65F3E0A2"
        XCTAssertEqual(DisplayWidth.wrap(uuid, width: 24), ["1F8D7CC6-D6C0-4C8C-A5A4-", "9B0E65F3E0A2"])
        XCTAssertEqual(DisplayWidth.wrap("abcdefghij", width: 4), ["abcd", "efgh", "ij"])
        XCTAssertEqual(DisplayWidth.wrap("abcdefghij", width: 4, maxLines: 2), ["abcd", "efg…"])
        XCTAssertEqual(DisplayWidth.wrap("short", width: 10), ["short"])
        XCTAssertEqual(DisplayWidth.wrap("", width: 10), [])
        XCTAssertEqual(DisplayWidth.wrap("写真写真", width: 3), ["写", "真", "写", "真"])
        XCTAssertEqual(DisplayWidth.wrap("a\u{1B}b", width: 10), ["a?b"])
    }
}
