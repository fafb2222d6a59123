import BrowserCore
import LivePairing
import XCTest

final class ItemDescriptionTests: XCTestCase {
    func testInfoShowsThePairAndNeverGPS() {
        var item = TestItems.live("IMG_0001")
        item.still?.info.cameraMake = "Apple"
        item.still?.info.cameraModel = "iPhone 12"
        item.still?.info.captureDate = "2021:05:02 12:34:56"
        item.still?.info.hasGPS = true
        item.movie?.info.stillImageTime = 1.5
        item.warnings = ["movie is 3 s longer than usual"]
        let lines = ItemDescription.infoLines(for: item)
        let text = lines.map { "\($0.label): \($0.value)" }.joined(separator: "\n")
        XCTAssertTrue(text.contains("Camera: Apple iPhone 12"), text)
        XCTAssertTrue(text.contains("Identifier: ABCD-1234"), text)
        XCTAssertTrue(text.contains("Still time: 1.500s"), text)
        XCTAssertTrue(text.contains("Size: 4032×3024"), text)
        XCTAssertEqual(lines.filter { $0.label == "File" }.count, 2)
        XCTAssertTrue(text.contains("Warning: movie is 3 s longer"), text)
        XCTAssertFalse(text.lowercased().contains("gps"), text)
        XCTAssertFalse(text.lowercased().contains("latitude"), text)
    }

    func testByteCounts() {
        XCTAssertEqual(ItemDescription.byteCount(10), "10 B")
        XCTAssertEqual(ItemDescription.byteCount(3_500_000), "3.3 MiB")
    }
}
