import XCTest
import TestSupport
@testable import MediaFormats

final class JPEGProbeTests: XCTestCase {
    func probe(_ path: String) throws -> MediaInfo {
        try MediaProbe.probe(path: path)
    }

    func assertTrain(_ info: MediaInfo, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(info.format, .jpeg, file: file, line: line)
        XCTAssertEqual(info.contentIdentifier, "E905E6C6-C747-4805-942F-9904A0281F02", file: file, line: line)
        XCTAssertEqual(info.contentIdentifierSource, "apple-makernote", file: file, line: line)
        XCTAssertEqual(info.livePhotoVideoIndex, 0, file: file, line: line)
        XCTAssertEqual(info.pixelWidth, 4032, file: file, line: line)
        XCTAssertEqual(info.pixelHeight, 3024, file: file, line: line)
        XCTAssertEqual(info.orientation, 1, file: file, line: line)
        XCTAssertEqual(info.cameraMake, "Apple", file: file, line: line)
        XCTAssertEqual(info.cameraModel, "iPhone 6s", file: file, line: line)
        XCTAssertEqual(info.captureDate, "2021:04:10 11:44:00", file: file, line: line)
        XCTAssertTrue(info.hasGPS, file: file, line: line)
        XCTAssertFalse(info.hasXMP, file: file, line: line)
        XCTAssertEqual(info.exifThumbnail, ByteRange(offset: 2340, length: 8612), file: file, line: line)
        XCTAssertNil(info.embeddedMovie, file: file, line: line)
        XCTAssertEqual(info.problems, [], file: file, line: line)
    }

    func assertMotionPhotoV1(_ info: MediaInfo, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(info.pixelWidth, 1024, file: file, line: line)
        XCTAssertEqual(info.pixelHeight, 768, file: file, line: line)
        XCTAssertTrue(info.hasXMP, file: file, line: line)
        XCTAssertNil(info.contentIdentifier, file: file, line: line)
        XCTAssertEqual(info.exifThumbnail, ByteRange(offset: 340, length: 4258), file: file, line: line)
        XCTAssertEqual(info.embeddedMovie, EmbeddedMovie(kind: .googleMotionPhoto,
            range: ByteRange(offset: 30821, length: 122562), presentationTimestampUs: 500000), file: file, line: line)
        XCTAssertEqual(info.problems, [], file: file, line: line)
    }

    func testTrainCommitted() throws { assertTrain(try probe(Fixtures.committed("train.jpg"))) }
    func testTrainShared() throws { assertTrain(try probe(try Fixtures.shared("train.jpg"))) }

    func testTrainReadsOnlyTheHeader() throws {
        let counter = ReadCounter()
        _ = try MediaProbe.probe(path: Fixtures.committed("train.jpg"), counter: counter)
        // Sniff (16 B), the 256 KiB header read, the 8-byte trailer footer, the 64-byte end-of-image check.
        XCTAssertLessThanOrEqual(counter.reads, 4)
        XCTAssertLessThanOrEqual(counter.bytes, UInt64(ParseLimits.default.headerProbeBytes + 64 + 64))
    }

    func testMotionPhotoV1Committed() throws { assertMotionPhotoV1(try probe(Fixtures.committed("motion-photo-v1.jpeg"))) }
    func testMotionPhotoV1Shared() throws { assertMotionPhotoV1(try probe(try Fixtures.shared("motion-photo-v1.jpeg"))) }

    func testMicroVideo() throws {
        let path = try Fixtures.shared("microvideo-v1.jpeg")
        let info = try probe(path)
        let size = try FileByteSource(path: path).size
        XCTAssertEqual(info.pixelWidth, 4032)
        XCTAssertEqual(info.pixelHeight, 3024)
        XCTAssertEqual(info.cameraMake, "samsung")
        XCTAssertEqual(info.cameraModel, "SM-G965W")
        XCTAssertEqual(info.embeddedMovie, EmbeddedMovie(kind: .microVideo,
            range: ByteRange(offset: size - 122562, length: 122562), presentationTimestampUs: 10))
        XCTAssertEqual(info.exifThumbnail, ByteRange(offset: 1082, length: 7724))
        XCTAssertEqual(info.problems, [])
    }

    func testAppleWithoutIdentifier() throws {
        let info = try probe(try Fixtures.shared("apple-no-identifier.jpg"))
        XCTAssertEqual(info.cameraMake, "Apple")
        XCTAssertEqual(info.cameraModel, "iPhone 7")
        XCTAssertNil(info.contentIdentifier)
        XCTAssertNil(info.livePhotoVideoIndex)
        XCTAssertEqual(info.pixelWidth, 8)  // the SOF wins over Exif's 4032
        XCTAssertEqual(info.pixelHeight, 8)
        XCTAssertEqual(info.exifThumbnail, ByteRange(offset: 2078, length: 28))
        XCTAssertNil(info.embeddedMovie)
    }

    func testSamsungStill() throws {
        let info = try probe(try Fixtures.shared("samsung-still.jpeg"))
        XCTAssertEqual(info.cameraMake, "samsung")
        XCTAssertEqual(info.cameraModel, "SM-G960F")
        XCTAssertEqual(info.pixelWidth, 4032)
        XCTAssertEqual(info.pixelHeight, 3024)
        XCTAssertEqual(info.captureDate, "2020:08:09 14:11:33")
        XCTAssertTrue(info.hasXMP)
        XCTAssertNil(info.contentIdentifier)
        XCTAssertNil(info.embeddedMovie)
        XCTAssertFalse(info.problems.contains { $0.severity == .error })
    }

    func testKeyPhotoHasNoIdentifier() throws {
        let info = try probe(try Fixtures.shared("limitpoint/keyPhoto.jpg"))
        XCTAssertEqual(info.pixelWidth, 1296)
        XCTAssertEqual(info.pixelHeight, 1618)
        XCTAssertEqual(info.orientation, 1)
        XCTAssertTrue(info.hasXMP)
        XCTAssertNil(info.contentIdentifier)
        XCTAssertNil(info.embeddedMovie)
        XCTAssertFalse(info.problems.contains { $0.severity == .error })
    }

    // MARK: generated

    func testGeneratedJPEGWithLittleEndianExifAndXMPFallbackIdentifier() {
        let tiff = ExifReaderTests.littleEndianTIFFWithBigEndianMakerNote()
        let jpeg = JPEGBuilder.jpeg(segments: [JPEGBuilder.exif(tiff)], width: 300, height: 200)
        let info = MediaProbe.probe(MemoryByteSource(jpeg))
        XCTAssertEqual(info.pixelWidth, 300)
        XCTAssertEqual(info.pixelHeight, 200)
        XCTAssertEqual(info.orientation, 6)
        XCTAssertEqual(info.contentIdentifier, "E905E6C6-C747-4805-942F-9904A0281F02")
        XCTAssertEqual(info.livePhotoVideoIndex, 7)

        let xmp = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:apple-fi="http://ns.apple.com/faceinfo/1.0/" apple-fi:ContentIdentifier="7a7d4193-1d91-4907-98f8-3b7e41d991d7"
          xmlns:tiff="http://ns.adobe.com/tiff/1.0/"><tiff:Orientation>8</tiff:Orientation></rdf:Description></rdf:RDF></x:xmpmeta>
        """
        let fallback = MediaProbe.probe(MemoryByteSource(JPEGBuilder.jpeg(segments: [JPEGBuilder.xmp(xmp)])))
        XCTAssertEqual(fallback.contentIdentifier, "7A7D4193-1D91-4907-98F8-3B7E41D991D7")
        XCTAssertEqual(fallback.contentIdentifierSource, "xmp")
        XCTAssertEqual(fallback.orientation, 8)
        XCTAssertTrue(fallback.hasXMP)
    }

    func testFillBytesStrayBytesAndStandaloneMarkers() {
        var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xFF, 0xFF]  // fill bytes before APP0
        jpeg += Array(JPEGBuilder.segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]).dropFirst())
        jpeg += [0x00, 0x00, 0xFF, 0xD0]  // stray bytes, then a standalone RST0
        jpeg += Array(JPEGBuilder.jpeg(segments: [], width: 10, height: 20).dropFirst(2))
        let info = MediaProbe.probe(MemoryByteSource(jpeg))
        XCTAssertEqual(info.pixelWidth, 10)
        XCTAssertEqual(info.pixelHeight, 20)
        XCTAssertTrue(info.problems.contains { $0.message.contains("stray") })
    }

    func testSegmentsBeyondTheHeaderProbeAreStillRead() {
        var limits = ParseLimits()
        limits.headerProbeBytes = 64
        let big = JPEGBuilder.segment(0xE2, [UInt8](repeating: 7, count: 60_000))
        let tiff = ExifReaderTests.littleEndianTIFFWithBigEndianMakerNote()
        let jpeg = JPEGBuilder.jpeg(segments: [big, big, JPEGBuilder.exif(tiff)], width: 33, height: 44)
        let info = JPEGProbeTests.probeMemory(jpeg, limits: limits)
        XCTAssertEqual(info.pixelWidth, 33)
        XCTAssertEqual(info.contentIdentifier, "E905E6C6-C747-4805-942F-9904A0281F02")
    }

    static func probeMemory(_ bytes: [UInt8], limits: ParseLimits = .default) -> MediaInfo {
        MediaProbe.probe(MemoryByteSource(bytes), limits: limits)
    }

    func testNoSOFIsAWarningNotACrash() {
        let info = MediaProbe.probe(MemoryByteSource([0xFF, 0xD8, 0xFF, 0xD9]))
        XCTAssertEqual(info.format, .jpeg)
        XCTAssertNil(info.pixelWidth)
        XCTAssertFalse(info.problems.isEmpty)
    }
}
