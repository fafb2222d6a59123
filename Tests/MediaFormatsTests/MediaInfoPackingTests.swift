import Foundation
@testable import MediaFormats
import XCTest

/// MediaInfo's packed box (issue 17 item 4): every value reads back as written, nil stays nil, and the
/// Codable form is the old one (absent keys for nil).
final class MediaInfoPackingTests: XCTestCase {
    func testValuesNilAndEdgeNumbersRoundTrip() throws {
        var info = MediaInfo(format: .quickTime)
        XCTAssertNil(info.pixelWidth)
        XCTAssertNil(info.duration)
        info.pixelWidth = 4032
        info.rotation = -90
        info.frameCount = Int(Int32.max) + 10
        info.duration = 0
        info.frameRate = .nan
        info.stillImageTime = -1.5
        XCTAssertEqual(info.pixelWidth, 4032)
        XCTAssertEqual(info.rotation, -90)
        XCTAssertEqual(info.frameCount, Int(Int32.max) + 10, "no narrowing")
        XCTAssertEqual(info.duration, 0, "zero is a value, not nil")
        XCTAssertTrue(info.frameRate?.isNaN == true, "a NaN read from a file stays a (NaN) value")
        XCTAssertEqual(info.stillImageTime, -1.5)
        XCTAssertEqual(info, info, "a stored NaN compares equal to itself")
        info.pixelWidth = nil
        XCTAssertNil(info.pixelWidth)

        var withoutNaN = info   // JSON has no NaN (as before the packing)
        withoutNaN.frameRate = 25
        let json = String(decoding: try JSONEncoder().encode(withoutNaN), as: UTF8.self)
        XCTAssertFalse(json.contains("pixelWidth"), "nil is an absent key, as before: \(json)")
        XCTAssertTrue(json.contains("\"rotation\":-90"), json)
        let decoded = try JSONDecoder().decode(MediaInfo.self, from: try JSONEncoder().encode(withoutNaN))
        XCTAssertEqual(decoded, withoutNaN)
        XCTAssertLessThan(MemoryLayout<MediaInfo.Packed>.size, MemoryLayout<MediaInfo.Fields>.size)
    }

    func testCopiesAreIndependent() {
        var a = MediaInfo(format: .jpeg)
        a.iso = 100
        var b = a
        b.iso = 200
        XCTAssertEqual(a.iso, 100)
        XCTAssertEqual(b.iso, 200)
        XCTAssertNotEqual(a, b)
    }
}

extension MediaInfoPackingTests {
    /// An Exif capture date is kept as its digits (no heap string per photo); every text reads back exactly.
    func testCaptureDatesReadBackExactly() throws {
        let dates: [String?] = [nil, "2023:07:14 10:22:33", "0000:00:00 00:00:00", "9999:99:99 99:99:99", "2023:07:14 10:22:3",
                                "2023:07:14 10:22:334", "2023-07-14T10:22:33+0200", "2023:07:14T10:22:33", "    :  :     :  :  ",
                                "2023:07:14 10:22:3x", "２023:07:14 10:22:33", "", "2023:07:14 10:22:33\u{0}"]
        for date in dates {
            var info = MediaInfo(format: .jpeg)
            info.captureDate = date
            XCTAssertEqual(info.captureDate, date)
            XCTAssertEqual(MediaInfo.PackedDate(date).value, date)
            let decoded = try JSONDecoder().decode(MediaInfo.self, from: try JSONEncoder().encode(info))
            XCTAssertEqual(decoded.captureDate, date)
            XCTAssertEqual(decoded, info)
        }
        var a = MediaInfo(format: .jpeg), b = MediaInfo(format: .jpeg)
        a.captureDate = "2023:07:14 10:22:33"
        b.captureDate = "2023:07:14 10:22:34"
        XCTAssertNotEqual(a, b)
        XCTAssertLessThanOrEqual(MemoryLayout<MediaInfo.PackedDate>.size, 17, "no bigger than the String? it replaces")
    }
}
