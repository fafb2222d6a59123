@testable import MediaFormats
import XCTest

/// Issue 17 item 4: camera, lens and codec names live in one shared box per distinct set, and a MediaInfo that
/// knows only its format shares a blank box; values still behave as independent values.
final class MediaInfoSharedNamesTests: XCTestCase {
    func testNamesReadBackAndCopiesStayIndependent() {
        var a = MediaInfo(format: .jpeg)
        a.cameraMake = "Apple"
        a.cameraModel = "iPhone 12 Pro"
        a.lensModel = "iPhone 12 Pro back dual wide camera 4.2mm f/1.6"
        a.videoCodec = "hvc1"
        a.audioCodec = "aac"
        a.contentIdentifierSource = "apple-makernote"
        a.captureTimeZone = "+01:00"
        a.lensMake = "Apple"
        var b = a
        b.lensModel = "another lens"
        XCTAssertEqual(a.lensModel, "iPhone 12 Pro back dual wide camera 4.2mm f/1.6")
        XCTAssertEqual(b.lensModel, "another lens")
        XCTAssertEqual(b.cameraModel, "iPhone 12 Pro")
        XCTAssertNotEqual(a, b)
        b.lensModel = a.lensModel
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        b.cameraMake = nil
        XCTAssertNil(b.cameraMake)
        XCTAssertEqual(a.cameraMake, "Apple")
    }

    func testEqualNameSetsShareOneBox() {
        var a = MediaInfo(format: .heif), b = MediaInfo(format: .jpeg)
        for info in [\MediaInfo.cameraMake, \MediaInfo.lensModel] {
            a[keyPath: info] = "a name long enough to live on the heap"
            b[keyPath: info] = "a name long enough to live on the heap"
        }
        XCTAssertTrue(a.names === b.names)
        XCTAssertTrue(a.compacted().names === b.names, "the compact form keeps the shared box")
    }

    func testBlankInfosAreIndependentValues() throws {
        var a = MediaInfo(format: .jpeg)
        let b = MediaInfo(format: .jpeg)
        XCTAssertEqual(a, b)
        a.pixelWidth = 4032
        a.cameraModel = "Pixel 7"
        XCTAssertNil(b.pixelWidth)
        XCTAssertNil(b.cameraModel)
        XCTAssertEqual(MediaInfo(format: .jpeg).pixelWidth, nil)
        // The JSON shape is the one of the stored fields (the index and `scan --json` read it).
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(a)) as? [String: Any]
        XCTAssertEqual(json?["cameraModel"] as? String, "Pixel 7")
        XCTAssertEqual(try JSONDecoder().decode(MediaInfo.self, from: JSONEncoder().encode(a)), a)
    }
}
