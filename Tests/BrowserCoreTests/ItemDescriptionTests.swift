import BrowserCore
import LivePairing
import MediaFormats
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
        XCTAssertTrue(text.contains("Pixels: 4032×3024 · 12.2 MP"), text)
        XCTAssertTrue(text.contains("Location: yes (hidden · L shows)"), text)
        XCTAssertEqual(lines.filter { $0.label == "File" }.count, 2)
        XCTAssertTrue(text.contains("Warning: movie is 3 s longer"), text)
        XCTAssertFalse(text.lowercased().contains("gps"), text)
        XCTAssertFalse(text.lowercased().contains("latitude"), text)
    }

    /// Issue 19.5: what a photographer looks for, in their words.
    func testPhotographersFacts() {
        var item = TestItems.live("IMG_0002")
        item.still?.info.cameraMake = "Apple"
        item.still?.info.cameraModel = "iPhone 6s"
        item.still?.info.lensMake = "Apple"
        item.still?.info.lensModel = "iPhone 6s back camera 4.15mm f/2.2"
        item.still?.info.captureDate = "2021:04:10 11:44:00"
        item.still?.info.captureTimeZone = "+01:00"
        item.still?.info.exposureTime = ExifRational(1, 801)
        item.still?.info.fNumber = ExifRational(11, 5)
        item.still?.info.iso = 25
        item.still?.info.focalLength = ExifRational(21, 5)
        item.still?.info.focalLengthIn35mm = 29
        item.movie?.info.duration = 1.23
        item.movie?.info.videoCodec = "hevc"
        item.movie?.info.frameRate = 17.9
        let lines = Dictionary(ItemDescription.infoLines(for: item).map { ($0.label, $0.value) }) { first, _ in first }
        XCTAssertEqual(lines["Taken"], "10 Apr 2021 11:44:00 UTC+01:00")
        XCTAssertEqual(lines["Camera"], "Apple iPhone 6s")
        XCTAssertEqual(lines["Lens"], "iPhone 6s back camera 4.15mm f/2.2", "the lens model as written")
        XCTAssertEqual(lines["Exposure"], "1/801 s · f/2.2 · ISO 25 · 4.2 mm (29 mm equiv.)")
        XCTAssertEqual(lines["Location"], "none")
        XCTAssertEqual(lines["Total"], "2.0 KiB")
        XCTAssertEqual(lines["Codec"], "hevc")
        XCTAssertEqual(lines["Identifier"], "ABCD-1234")
        XCTAssertEqual(ItemDescription.readableDate("2021-04-10T11:43:59+0100", zone: nil), "10 Apr 2021 11:43:59 UTC+01:00")
        XCTAssertEqual(ItemDescription.readableDate("2021:04:10 11:44:00", zone: nil), "10 Apr 2021 11:44:00 (time zone unknown)")
        XCTAssertEqual(ItemDescription.readableDate("garbage", zone: nil), "garbage")
        let shown = ItemDescription.infoLines(for: item, location: .shown("52.20970° N, 0.89550° W"))
        XCTAssertEqual(shown.first { $0.label == "Location" }?.value, "none", "no position: nothing to show")
    }

    func testByteCounts() {
        XCTAssertEqual(ItemDescription.byteCount(10), "10 B")
        XCTAssertEqual(ItemDescription.byteCount(3_500_000), "3.3 MiB")
    }
}
