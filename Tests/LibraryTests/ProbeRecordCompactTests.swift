import Foundation
import LibraryIndex
import MediaFormats
import TestSupport
import XCTest

/// A stored probe decodes straight into the library's compact form (`MediaInfo.CompactBuilder`, issue 17
/// items 3 and 4): the same facts as the probe that was stored, of every shape, and damage never half-read.
final class ProbeRecordCompactTests: XCTestCase {
    private func json(_ info: MediaInfo) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(info), as: UTF8.self)
    }

    private func roundTrip(_ info: MediaInfo, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = ProbeRecord.encode(info)
        var memo = SharedNamesMemo()
        let decoded = try XCTUnwrap(bytes.withUnsafeBytes { ProbeRecord.decode($0, memo: &memo) }, label, file: file, line: line)
        XCTAssertTrue(decoded.isCompact, label, file: file, line: line)
        XCTAssertEqual(decoded, info, label, file: file, line: line)
        XCTAssertEqual(decoded, info.compacted(), label, file: file, line: line)
        XCTAssertEqual(decoded.hashValue, info.hashValue, label, file: file, line: line)
        XCTAssertEqual(try json(decoded), try json(info), label, file: file, line: line)
        XCTAssertEqual(decoded.contentIdentifier, info.contentIdentifier, label, file: file, line: line)
        XCTAssertEqual(decoded.captureDate, info.captureDate, label, file: file, line: line)
        XCTAssertEqual(decoded.exifCaptureDateFields, info.exifCaptureDateFields, label, file: file, line: line)
        XCTAssertEqual(ProbeRecord.encode(decoded), bytes, "stored again, the same record: \(label)", file: file, line: line)
    }

    private func full() -> MediaInfo {
        var info = MediaInfo(format: .heif)
        info.pixelWidth = 4032
        info.pixelHeight = 3024
        info.orientation = 6
        info.rotation = 270
        info.mirrored = true
        info.contentIdentifier = "6F4D8B2C-1A3E-4C5B-9D7E-0123456789AB"
        info.contentIdentifierSource = "apple-makernote"
        info.livePhotoVideoIndex = 1_112_539_136
        info.cameraMake = "Apple"
        info.cameraModel = "iPhone 15 Pro"
        info.captureDate = "2023:07:14 10:22:33"
        info.captureTimeZone = "+02:00"
        info.hasGPS = true
        info.lensModel = "iPhone 15 Pro back triple camera 6.86mm f/1.78"
        info.exposureTime = ExifRational(1, 801)
        info.fNumber = ExifRational(178, 100)
        info.iso = 64
        info.focalLength = ExifRational(686, 100)
        info.focalLengthIn35mm = 24
        info.exifThumbnail = ByteRange(offset: 2_000, length: 9_000)
        info.thumbnailWidth = 320
        info.thumbnailHeight = 240
        info.embeddedMovie = EmbeddedMovie(kind: .googleMotionPhoto, range: ByteRange(offset: 10, length: 20),
                                           presentationTimestampUs: 1_500_000)
        info.hasXMP = true
        info.problems = [ParseProblem(.warning, "Exif", "an odd tag"), ParseProblem(.error, "XMP", "cut short")]
        return info
    }

    func testEveryShapeOfFactsComesBackCompact() throws {
        try roundTrip(full(), "every still fact")
        var movie = MediaInfo(format: .quickTime)
        movie.pixelWidth = 1920
        movie.pixelHeight = 1440
        movie.rotation = 90
        movie.contentIdentifier = "6F4D8B2C-1A3E-4C5B-9D7E-0123456789AB"
        movie.captureDate = "2023-07-14T10:22:33+0200"
        movie.duration = 2.9
        movie.frameCount = 87
        movie.frameRate = 30
        movie.stillImageTime = 1.43
        movie.vitalityScore = 0.93
        movie.videoCodec = "hvc1"
        try roundTrip(movie, "a Live Photo movie")
        for format in ContainerFormat.allCases { try roundTrip(MediaInfo(format: format), "blank \(format)") }
        for identifier in ["6f4d8b2c-1a3e-4c5b-9d7e-0123456789ab", "not a uuid", "", "Ä-identifier"] {
            var odd = movie
            odd.contentIdentifier = identifier
            try roundTrip(odd, "identifier \(identifier)")
        }
        for date in ["2023-07-14T10:22:33.120+0200", "2023:07:14", "", "2023-07-14T10:22:33Z", "0000:00:00 00:00:00"] {
            var odd = movie
            odd.captureDate = date
            try roundTrip(odd, "date \(date)")
        }
    }

    func testProbedFilesComeBackCompact() throws {
        var probed = 0
        for path in Fixtures.mediaSamples {
            guard let info = try? MediaProbe.probe(path: path) else { continue }
            try roundTrip(info, path)
            probed += 1
        }
        XCTAssertGreaterThanOrEqual(probed, 3)
    }

    /// A cut record is never half-read: nil, or (cut at a field boundary) the facts before the cut, which are
    /// stored and read again unchanged.
    func testACutRecordIsNeverHalfRead() {
        let bytes = ProbeRecord.encode(full())
        var memo = SharedNamesMemo()
        var whole = 0
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[..<cut])
            guard let decoded = prefix.withUnsafeBytes({ ProbeRecord.decode($0, memo: &memo) }) else { continue }
            let again = ProbeRecord.encode(decoded).withUnsafeBytes { ProbeRecord.decode($0, memo: &memo) }
            XCTAssertEqual(again, decoded, "cut at \(cut)")
            XCTAssertNotEqual(decoded, full(), "cut at \(cut): not the whole record")
            whole += 1
        }
        XCTAssertLessThan(whole, bytes.count / 4, "most cuts fall inside a field and are refused")
    }
}
