import Foundation
import TestSupport
import XCTest
@testable import MediaFormats

/// The library's compact form of a file's facts (`MediaInfo.compacted()`, issue 17 item 4) reads back every
/// value of the full form, compares and hashes like it, and turns back into the full form on a change.
final class MediaInfoCompactTests: XCTestCase {
    /// Every public fact, read through the accessors (a compact value and a full one must agree on each).
    private func facts(_ i: MediaInfo) -> [String] {
        [
            "\(i.format)", "\(String(describing: i.pixelWidth))", "\(String(describing: i.pixelHeight))",
            "\(String(describing: i.orientation))", "\(String(describing: i.rotation))", "\(String(describing: i.mirrored))",
            "\(String(describing: i.contentIdentifier))", "\(String(describing: i.contentIdentifierSource))",
            "\(String(describing: i.livePhotoVideoIndex))", "\(String(describing: i.cameraMake))",
            "\(String(describing: i.cameraModel))", "\(String(describing: i.captureDate))",
            "\(String(describing: i.captureTimeZone))", "\(i.hasGPS)", "\(String(describing: i.lensMake))",
            "\(String(describing: i.lensModel))", "\(String(describing: i.exposureTime))", "\(String(describing: i.fNumber))",
            "\(String(describing: i.iso))", "\(String(describing: i.focalLength))", "\(String(describing: i.focalLengthIn35mm))",
            "\(String(describing: i.duration?.bitPattern))", "\(String(describing: i.videoCodec))",
            "\(String(describing: i.audioCodec))", "\(String(describing: i.frameCount))",
            "\(String(describing: i.frameRate?.bitPattern))", "\(String(describing: i.stillImageTime?.bitPattern))",
            "\(String(describing: i.vitalityScore?.bitPattern))", "\(String(describing: i.exifThumbnail))",
            "\(String(describing: i.thumbnailWidth))", "\(String(describing: i.thumbnailHeight))",
            "\(String(describing: i.embeddedMovie))", "\(i.hasXMP)", "\(i.problems)", "\(i.hasCaptureDate)",
            "\(String(describing: i.exifCaptureDateFields))", "\(i.hasContentIdentifier)",
        ]
    }

    private func assertCompactAgrees(_ info: MediaInfo, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let compact = info.compacted()
        XCTAssertTrue(compact.isCompact, label, file: file, line: line)
        XCTAssertEqual(facts(compact), facts(info), label, file: file, line: line)
        XCTAssertEqual(compact, info, label, file: file, line: line)
        XCTAssertEqual(info, compact, label, file: file, line: line)
        XCTAssertEqual(compact.hashValue, info.hashValue, "equal values hash alike: \(label)", file: file, line: line)
        XCTAssertEqual(info.compacted(), compact, "compacting twice gives equal facts: \(label)", file: file, line: line)
        let identifierBytes = compact.withContentIdentifierUTF8 { Array($0) }
        XCTAssertEqual(identifierBytes, info.contentIdentifier.map { Array($0.utf8) }, label, file: file, line: line)
        if let identifier = info.contentIdentifier {
            XCTAssertTrue(compact.contentIdentifierIs(identifier), label, file: file, line: line)
            XCTAssertFalse(compact.contentIdentifierIs(identifier + "0"), label, file: file, line: line)
        }
    }

    /// A value with every fact set, at edge values.
    private func everything() -> MediaInfo {
        var info = MediaInfo(format: .heif)
        info.pixelWidth = 4032
        info.pixelHeight = Int(Int32.max) + 10
        info.orientation = 6
        info.rotation = -90
        info.mirrored = false
        info.contentIdentifier = "6F4D8B2C-1A3E-4C5B-9D7E-0123456789AB"
        info.contentIdentifierSource = "apple-makernote"
        info.livePhotoVideoIndex = .max
        info.cameraMake = "Apple"
        info.cameraModel = "iPhone 15 Pro"
        info.captureDate = "2023:07:14 10:22:33"
        info.captureTimeZone = "+02:00"
        info.hasGPS = true
        info.lensMake = "Apple"
        info.lensModel = "iPhone 15 Pro back triple camera 6.86mm f/1.78"
        info.exposureTime = ExifRational(1, 801)
        info.fNumber = ExifRational(.max, 0)
        info.iso = 0
        info.focalLength = ExifRational(0, .max)
        info.focalLengthIn35mm = 24
        info.duration = 0
        info.videoCodec = "hvc1"
        info.audioCodec = "aac"
        info.frameCount = -1
        info.frameRate = .nan
        info.stillImageTime = -1.5
        info.vitalityScore = .infinity
        info.exifThumbnail = ByteRange(offset: .max, length: 0)
        info.thumbnailWidth = 320
        info.thumbnailHeight = 240
        info.embeddedMovie = EmbeddedMovie(kind: .heifMpvd, range: ByteRange(offset: 100, length: 200), presentationTimestampUs: -1)
        info.hasXMP = true
        info.problems = [ParseProblem(.warning, "Exif", "an odd tag")]
        return info
    }

    func testEveryFactReadsBackFromTheCompactForm() {
        assertCompactAgrees(everything(), "every fact")
        for format in ContainerFormat.allCases { assertCompactAgrees(MediaInfo(format: format), "blank \(format)") }
        var someMissing = everything()
        someMissing.pixelWidth = nil
        someMissing.exifThumbnail = nil
        someMissing.mirrored = nil
        someMissing.problems = []
        someMissing.embeddedMovie = nil
        assertCompactAgrees(someMissing, "some facts missing (slots shift)")
        var mirrored = someMissing
        mirrored.mirrored = true
        assertCompactAgrees(mirrored, "mirrored")
        XCTAssertNotEqual(mirrored.compacted(), someMissing.compacted())
    }

    func testIdentifiersOfEveryShapeReadBackExactly() {
        let identifiers = ["6F4D8B2C-1A3E-4C5B-9D7E-0123456789AB", "00000000-0000-0000-0000-000000000000",
                           "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "6f4d8b2c-1a3e-4c5b-9d7e-0123456789ab",
                           "6F4D8B2C1A3E4C5B9D7E0123456789AB", "{6F4D8B2C-1A3E-4C5B-9D7E-0123456789AB}",
                           "6F4D8B2C-1A3E-4C5B-9D7E-0123456789AG", "6F4D8B2C-1A3E-4C5B-9D7E_0123456789AB", "", "x",
                           "6F4D8B2C-1A3E-4C5B-9D7E-0123456789Ä", "6F4D8B2C-1A3E-4C5B-9D7E-0123456789AB "]
        for identifier in identifiers {
            var info = MediaInfo(format: .quickTime)
            info.contentIdentifier = identifier
            assertCompactAgrees(info, "identifier \(identifier)")
            XCTAssertEqual(info.compacted().contentIdentifier, identifier)
        }
        var a = MediaInfo(format: .jpeg), b = MediaInfo(format: .jpeg)
        a.contentIdentifier = "6F4D8B2C-1A3E-4C5B-9D7E-0123456789AB"
        b.contentIdentifier = "6F4D8B2C-1A3E-4C5B-9D7E-0123456789AC"
        XCTAssertNotEqual(a.compacted(), b.compacted())
        XCTAssertFalse(a.compacted().contentIdentifierIs("6f4d8b2c-1a3e-4c5b-9d7e-0123456789ab"), "case counts")
    }

    func testDatesOfEveryShapeReadBackExactly() {
        let dates = ["2023:07:14 10:22:33", "0000:00:00 00:00:00", "9999:99:99 99:99:99", "2023-07-14T10:22:33+0200",
                     "2023-07-14T10:22:33-0930", "2023-07-14T10:22:33+02:00", "2023-07-14T10:22:33Z", "2023-07-14T10:22:33",
                     "2023:07:14 10:22:33+01:00", "0001-01-01T00:00:00-0000", "2023-07-14T10:22:33.123+0200",
                     "2023:07:14 10:22:3", "2023:07:14 10:22:33\u{0}", "２023:07:14 10:22:33", "", "    :  :     :  :  "]
        for date in dates {
            var info = MediaInfo(format: .quickTime)
            info.captureDate = date
            assertCompactAgrees(info, "date \(date)")
            XCTAssertEqual(info.compacted().captureDate, date)
        }
        var exif = MediaInfo(format: .jpeg)
        exif.captureDate = "2023:07:14 10:22:33"
        XCTAssertEqual(exif.compacted().exifCaptureDateFields,
                       ExifDateFields(year: 2023, month: 7, day: 14, hour: 10, minute: 22, second: 33))
        var iso = MediaInfo(format: .quickTime)
        iso.captureDate = "2023-07-14T10:22:33+0200"
        XCTAssertNil(iso.compacted().exifCaptureDateFields, "only an Exif-shaped date has Exif fields")
        XCTAssertTrue(iso.compacted().hasCaptureDate)
    }

    func testAChangeToACompactValueLeavesOtherCopiesAlone() {
        let compact = everything().compacted()
        var changed = compact
        changed.iso = 400
        changed.cameraModel = "Pixel 8"
        XCTAssertFalse(changed.isCompact, "a change goes through the full form")
        XCTAssertEqual(changed.iso, 400)
        XCTAssertEqual(changed.cameraModel, "Pixel 8")
        XCTAssertEqual(compact.iso, 0)
        XCTAssertEqual(compact.cameraModel, "iPhone 15 Pro")
        XCTAssertEqual(changed.lensModel, compact.lensModel, "the other facts came along")
        XCTAssertEqual(changed.contentIdentifier, compact.contentIdentifier)
        XCTAssertNotEqual(changed, compact)
    }

    func testJSONOfTheCompactFormIsTheFullForms() throws {
        var info = everything()
        info.frameRate = 30   // JSON has no NaN or infinity
        info.vitalityScore = 0.5
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        XCTAssertEqual(try encoder.encode(info.compacted()), try encoder.encode(info))
        let decoded = try JSONDecoder().decode(MediaInfo.self, from: try encoder.encode(info.compacted()))
        XCTAssertEqual(decoded, info)
    }

    /// Real files: what the probe says, compacted, reads back the same.
    func testProbedFilesReadBackFromTheCompactForm() throws {
        var probed = 0
        for path in Fixtures.mediaSamples {
            guard let info = try? MediaProbe.probe(path: path) else { continue }
            assertCompactAgrees(info, path)
            probed += 1
        }
        XCTAssertGreaterThanOrEqual(probed, 3, "the committed fixtures probe")
    }
}
