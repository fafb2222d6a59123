import Foundation
@testable import MediaFormats
import TestSupport
import XCTest

final class MotionPhotoWriterTests: XCTestCase {
    func scanData(_ bytes: [UInt8]) throws -> ArraySlice<UInt8> {
        let list = try JPEGSegmentList(MemoryByteSource(bytes))
        let end = try MotionPhotoWriter.primaryImageEnd(MemoryByteSource(bytes))
        return bytes[Int(list.scanStart)..<Int(end)]
    }

    func testGeneratedMotionPhotoRoundTrip() throws {
        let movie = JPEGBuilder.fakeMP4
        let input = JPEGBuilder.jpeg(segments: [JPEGBuilder.xmp(JPEGBuilder.motionPhotoXMP(length: movie.count))]) + movie
        XCTAssertNotNil(MediaProbe.probe(MemoryByteSource(input)).embeddedMovie)

        let stillSource = MemoryByteSource(input)
        let still = try MediaWriting.stillWithoutMotion(stillSource).materialize(from: stillSource)
        let info = MediaProbe.probe(MemoryByteSource(still))
        XCTAssertNil(info.embeddedMovie)
        XCTAssertEqual(still.last, 0xD9, "ends at EOI")
        XCTAssertNil(still.firstIndex(of: Array("MotionPhoto".utf8)))
        XCTAssertNil(still.firstIndex(of: Array("Container:Directory".utf8)))
        XCTAssertEqual(try scanData(still), try scanData(input))

        let movieSource = MemoryByteSource(movie)
        let again = try MediaWriting.motionPhoto(still: still, movie: movieSource, presentationTimestampUs: 123_000).materialize(from: movieSource)
        let embedded = try XCTUnwrap(MediaProbe.probe(MemoryByteSource(again)).embeddedMovie)
        XCTAssertEqual(embedded.presentationTimestampUs, 123_000)
        XCTAssertEqual(Array(again[Int(embedded.range.offset)...]), movie)
        XCTAssertEqual(try scanData(again), try scanData(input))
    }

    func testStillWithoutXMPGetsANewPacket() throws {
        let still = JPEGBuilder.jpeg(segments: [])
        let movieSource = MemoryByteSource(JPEGBuilder.fakeMP4)
        let out = try MediaWriting.motionPhoto(still: still, movie: movieSource, presentationTimestampUs: -1).materialize(from: movieSource)
        let info = MediaProbe.probe(MemoryByteSource(out))
        XCTAssertEqual(info.embeddedMovie?.range.length, UInt64(JPEGBuilder.fakeMP4.count))
    }

    func testTruncatedScanIsAnError() {
        let bytes = Array(JPEGBuilder.jpeg(segments: []).dropLast(2))
        XCTAssertThrowsError(try MediaWriting.stillWithoutMotion(MemoryByteSource(bytes)))
    }

    func testRealMotionPhotosLoseTheirMovie() throws {
        for name in ["motion-photo-v1.jpeg", "microvideo-v1.jpeg"] {
            let path = try Fixtures.shared(name)
            let source = try FileByteSource(path: path)
            let bytes = try MediaWriting.stillWithoutMotion(source).materialize(from: source)
            let info = MediaProbe.probe(MemoryByteSource(bytes))
            XCTAssertNil(info.embeddedMovie, name)
            XCTAssertEqual(info.format, .jpeg)
            XCTAssertLessThan(UInt64(bytes.count), source.size - 100_000, name)
            let dir = try Fixtures.makeTemporaryDirectory("writer-motion")
            defer { try? FileManager.default.removeItem(at: dir) }
            let out = dir.appendingPathComponent("still.jpg").path
            try Data(bytes).write(to: URL(fileURLWithPath: out))
            let tags = try WriterTools.run("exiftool", ["-a", "-G1", "-s", "-MotionPhoto", "-MicroVideo", "-DirectoryItemMime", "-Warning", out])
            XCTAssertFalse(tags.contains("MotionPhoto"), tags)
            XCTAssertFalse(tags.contains("MicroVideo"), tags)
            XCTAssertFalse(tags.contains("DirectoryItem"), tags)
        }
    }

    func testSamsungTrailerIsRemovedAndTheMovieConvertsToLive() throws {
        let still = JPEGBuilder.jpeg(segments: [])
        let input = still + MotionPhotoLocatorTests.samsungTrailer(movie: ISOBoxBuilder.movie(moovLast: false))
        let source = MemoryByteSource(input)
        let embedded = try XCTUnwrap(MediaProbe.probe(source).embeddedMovie)
        XCTAssertEqual(embedded.kind, .samsungTrailer)
        let stripped = try MediaWriting.stillWithoutMotion(source).materialize(from: source)
        XCTAssertEqual(stripped, still, "cut at EOI: the SEF trailer and the movie are gone")
        let movie = SliceByteSource(base: source, range: embedded.range)
        let live = try MediaWriting.makeLivePhotoMovie(movie, identifier: "5EED5EED-0000-4000-8000-000000000001").materialize(from: movie)
        XCTAssertEqual(MediaProbe.probe(MemoryByteSource(live)).contentIdentifier, "5EED5EED-0000-4000-8000-000000000001")
    }
}
