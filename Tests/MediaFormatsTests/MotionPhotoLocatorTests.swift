import XCTest
@testable import MediaFormats

final class MotionPhotoLocatorTests: XCTestCase {
    func testGoogleMotionPhotoWhoseLengthPointsAtNonMP4IsAVisibleProblem() {
        let notMovie = [UInt8](repeating: 0x41, count: 64)
        let jpeg = JPEGBuilder.jpeg(segments: [JPEGBuilder.xmp(JPEGBuilder.motionPhotoXMP(length: notMovie.count))]) + notMovie
        let info = MediaProbe.probe(MemoryByteSource(jpeg))
        XCTAssertNil(info.embeddedMovie)
        let problem = info.problems.first { $0.message.hasPrefix("broken motion photo") }
        XCTAssertEqual(problem?.severity, .error)
    }

    func testGoogleMotionPhotoLengthLargerThanFile() {
        let jpeg = JPEGBuilder.jpeg(segments: [JPEGBuilder.xmp(JPEGBuilder.motionPhotoXMP(length: 1 << 40))])
        let info = MediaProbe.probe(MemoryByteSource(jpeg))
        XCTAssertNil(info.embeddedMovie)
        XCTAssertTrue(info.problems.contains { $0.severity == .error && $0.message.hasPrefix("broken motion photo") })
    }

    func testGoogleMotionPhotoWithPaddingAndTrailingItem() {
        var xmp = XMPSummary()
        xmp.motionPhoto = true
        xmp.directory = [XMPContainerItem(mime: "image/jpeg", semantic: "Primary", length: 0, padding: 0),
                         XMPContainerItem(mime: "video/mp4", semantic: "MotionPhoto", length: 100, padding: 4),
                         XMPContainerItem(mime: "image/jpeg", semantic: "GainMap", length: 50, padding: 0)]
        let claim = MotionPhotoLocator.googleMotionPhoto(xmp, fileSize: 1000)
        XCTAssertEqual(claim?.range, ByteRange(offset: 846, length: 100))
    }

    static func samsungTrailer(movie: [UInt8], extraEntry: Bool = true) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { TIFFWriter.u16(v, .littleEndian) }
        func le32(_ v: UInt32) -> [UInt8] { TIFFWriter.u32(v, .littleEndian) }
        var blocks: [(marker: UInt16, bytes: [UInt8])] = []
        if extraEntry {
            let name = Array("Image_UTC_Data".utf8)
            blocks.append((0x0A01, [0, 0] + le16(0x0A01) + le32(UInt32(name.count)) + name + Array("1596000000000".utf8)))
        }
        let name = Array(SamsungTrailer.motionPhotoName.utf8)
        blocks.append((SamsungTrailer.motionPhotoMarker, [0, 0] + le16(SamsungTrailer.motionPhotoMarker) + le32(UInt32(name.count)) + name + movie))
        var data: [UInt8] = []
        var starts: [Int] = []
        for b in blocks { starts.append(data.count); data += b.bytes }
        var directory = Array("SEFH".utf8) + le32(101) + le32(UInt32(blocks.count))
        for (i, b) in blocks.enumerated() {
            directory += [0, 0] + le16(b.marker) + le32(UInt32(data.count - starts[i])) + le32(UInt32(b.bytes.count))
        }
        return data + directory + le32(UInt32(directory.count)) + Array("SEFT".utf8)
    }

    func testSamsungTrailerWithMotionPhotoData() {
        let still = JPEGBuilder.jpeg(segments: [])
        let jpeg = still + Self.samsungTrailer(movie: JPEGBuilder.fakeMP4)
        let info = MediaProbe.probe(MemoryByteSource(jpeg))
        let expectedStart = UInt64(still.count + 8 + 14 + 13 + 8 + SamsungTrailer.motionPhotoName.utf8.count)
        XCTAssertEqual(info.embeddedMovie, EmbeddedMovie(kind: .samsungTrailer,
            range: ByteRange(offset: expectedStart, length: UInt64(JPEGBuilder.fakeMP4.count))))
        XCTAssertEqual(info.problems, [])
    }

    func testSamsungTrailerWhosePayloadIsNotAnMP4() {
        let jpeg = JPEGBuilder.jpeg(segments: []) + Self.samsungTrailer(movie: [UInt8](repeating: 9, count: 40), extraEntry: false)
        let info = MediaProbe.probe(MemoryByteSource(jpeg))
        XCTAssertNil(info.embeddedMovie)
        XCTAssertTrue(info.problems.contains { $0.severity == .error && $0.message.hasPrefix("broken motion photo") })
    }

    func testSamsungTrailerWithLyingOffsets() {
        var jpeg = JPEGBuilder.jpeg(segments: [])
        jpeg += Array("SEFH".utf8) + TIFFWriter.u32(101, .littleEndian) + TIFFWriter.u32(1, .littleEndian)
        jpeg += [0, 0, 0x30, 0x0A] + TIFFWriter.u32(0xFFFF_FFFF, .littleEndian) + TIFFWriter.u32(0xFFFF_FFFF, .littleEndian)
        jpeg += TIFFWriter.u32(24, .littleEndian) + Array("SEFT".utf8)
        let info = MediaProbe.probe(MemoryByteSource(jpeg))
        XCTAssertNil(info.embeddedMovie)
        XCTAssertTrue(info.problems.contains { $0.message.contains("outside") })
    }

    func testMicroVideoOffsetLargerThanFile() {
        var xmp = XMPSummary()
        xmp.microVideo = true
        xmp.microVideoOffset = 5000
        XCTAssertNil(MotionPhotoLocator.microVideo(xmp, fileSize: 100)?.range)
    }
}
