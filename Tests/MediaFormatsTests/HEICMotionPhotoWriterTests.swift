import Foundation
@testable import MediaFormats
import TestSupport
import XCTest

final class HEICMotionPhotoWriterTests: XCTestCase {
    let identifier = "ABCDEF01-2345-4678-89AB-CDEF01234567"
    var dir: URL!

    override func setUpWithError() throws { dir = try Fixtures.makeTemporaryDirectory("heic-motion") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// The image items (everything but Exif and XMP) read the same bytes in both files.
    func assertImageItemsEqual(_ a: any ByteSource, _ b: any ByteSource, file: StaticString = #filePath, line: UInt = #line) throws {
        let ma = try HEIFMetaEditorTests.parsedMeta(a), mb = try HEIFMetaEditorTests.parsedMeta(b)
        let images = ma.items.filter { $0.type != "Exif" && $0.type != "mime" }
        XCTAssertFalse(images.isEmpty, file: file, line: line)
        for item in images {
            XCTAssertEqual(try ma.data(of: item.id, from: a, limits: .default).bytes, try mb.data(of: item.id, from: b, limits: .default).bytes,
                           "item \(item.id)", file: file, line: line)
        }
        XCTAssertEqual(ma.properties, mb.properties, file: file, line: line)
        XCTAssertEqual(ma.associations, mb.associations, file: file, line: line)
    }

    func xmp(of source: any ByteSource) throws -> XMPSummary? {
        let meta = try HEIFMetaEditorTests.parsedMeta(source)
        guard let item = meta.items.first(where: { $0.type == "mime" && $0.contentType == "application/rdf+xml" }) else { return nil }
        return XMPReader.parse(try meta.data(of: item.id, from: source, limits: .default).bytes)
    }

    /// Live (HEIC still + movie) → Motion Photo → Live, checked at every step.
    func roundTrip(stillPath: String) throws {
        let original = try FileByteSource(path: stillPath)
        let liveStillSource = MemoryByteSource(try MediaWriting.setContentIdentifier(still: original, identifier: identifier).materialize(from: original))
        let moviePath = try WriterTools.generatedMovie(in: dir)
        let movieSource = try FileByteSource(path: moviePath)
        let liveMovie = MemoryByteSource(try MediaWriting.makeLivePhotoMovie(movieSource, identifier: identifier, stillTime: 0.5).materialize(from: movieSource))

        // Live → Motion: the movie, byte for byte, in the final mpvd box; the XMP points at the same bytes.
        let motion = MemoryByteSource(try MediaWriting.motionPhoto(still: liveStillSource.bytes, movie: liveMovie, presentationTimestampUs: 500_000)
            .materialize(from: liveMovie))
        let info = MediaProbe.probe(motion)
        XCTAssertEqual(info.format, .heif)
        XCTAssertEqual(info.contentIdentifier, identifier)
        let embedded = try XCTUnwrap(info.embeddedMovie, "\(info.problems)")
        XCTAssertEqual(embedded.kind, .heifMpvd)
        XCTAssertEqual(embedded.presentationTimestampUs, 500_000)
        XCTAssertEqual(embedded.range, ByteRange(offset: motion.size - liveMovie.size, length: liveMovie.size))
        XCTAssertEqual(try motion.readExactly(at: embedded.range.offset, count: Int(embedded.range.length)), liveMovie.bytes)
        let summary = try XCTUnwrap(try xmp(of: motion))
        XCTAssertTrue(summary.motionPhoto)
        XCTAssertEqual(MotionPhotoLocator.googleMotionPhoto(summary, fileSize: motion.size)?.range, embedded.range,
                       "Container:Directory locates the movie inside mpvd")
        XCTAssertEqual(summary.directory.first?.mime, "image/heic")
        XCTAssertEqual(try TopLevelBox.list(motion, limits: .default).last?.type, "mpvd")
        try assertImageItemsEqual(liveStillSource, motion)

        // Motion → Live: no mpvd, no Motion Photo XMP; image items and identifier kept.
        let still = MemoryByteSource(try MediaWriting.stillWithoutMotion(motion).materialize(from: motion))
        let stillInfo = MediaProbe.probe(still)
        XCTAssertNil(stillInfo.embeddedMovie)
        XCTAssertEqual(stillInfo.contentIdentifier, identifier)
        XCTAssertFalse(try TopLevelBox.list(still, limits: .default).contains { $0.type == "mpvd" })
        XCTAssertEqual(try xmp(of: still)?.motionPhoto ?? false, false)
        XCTAssertEqual(try xmp(of: still)?.directory.count ?? 0, 0)
        try assertImageItemsEqual(liveStillSource, still)
        try assertImageItemsEqual(original, still)
        let movieBack = SliceByteSource(base: motion, range: embedded.range)
        let liveAgain = try MediaWriting.makeLivePhotoMovie(movieBack, identifier: identifier, stillTime: 0.5)
        let a = dir.appendingPathComponent("first.mov").path, b = dir.appendingPathComponent("again.mov").path
        try Data(liveMovie.bytes).write(to: URL(fileURLWithPath: a))
        try WriterTools.write(liveAgain, from: movieBack, to: b)
        XCTAssertEqual(try WriterTools.packetHash(a, stream: "v"), try WriterTools.packetHash(b, stream: "v"))

        // libheif reads both.
        try GeneratedHEIC.assertDecodes(motion, like: stillPath, in: dir)
        try GeneratedHEIC.assertDecodes(still, like: stillPath, in: dir)
    }

    func testRoundTripWithAnIPhoneStill() throws { try roundTrip(stillPath: try Fixtures.shared("iphone-se-still.heic")) }
    func testRoundTripWithAGeneratedHEIC() throws { try roundTrip(stillPath: try GeneratedHEIC.make(in: dir)) }

    func testSyntheticHEICGetsAnXMPItemAndAnMpvdBox() throws {
        let still = SyntheticHEIF.file(items: [SyntheticHEIF.image])
        let movie = MemoryByteSource(JPEGBuilder.fakeMP4 + Array(repeating: 7, count: 100))
        let motion = MemoryByteSource(try MediaWriting.motionPhoto(still: still, movie: movie, presentationTimestampUs: -1).materialize(from: movie))
        let info = MediaProbe.probe(motion)
        XCTAssertEqual(info.embeddedMovie?.range, ByteRange(offset: motion.size - movie.size, length: movie.size))
        let summary = try XCTUnwrap(try xmp(of: motion))
        XCTAssertEqual(summary.directory.last?.mime, "video/mp4")
        XCTAssertEqual(summary.directory.first?.padding, 16)
        // Made into a Motion Photo twice: one mpvd, the new movie.
        let other = MemoryByteSource(JPEGBuilder.fakeMP4 + Array(repeating: 9, count: 50))
        let twice = MemoryByteSource(try MediaWriting.motionPhoto(still: motion.bytes, movie: other, presentationTimestampUs: 0).materialize(from: other))
        XCTAssertEqual(try TopLevelBox.list(twice, limits: .default).filter { $0.type == "mpvd" }.count, 1)
        XCTAssertEqual(MediaProbe.probe(twice).embeddedMovie?.range.length, other.size)
        XCTAssertEqual(try HEIFMetaEditorTests.parsedMeta(twice).items.filter { $0.type == "mime" }.count, 1)
    }

    func testGoogleSampleLosesItsMovie() throws {
        let path = try Fixtures.shared("motion-photo.heic")
        let source = try FileByteSource(path: path)
        let still = MemoryByteSource(try MediaWriting.stillWithoutMotion(source).materialize(from: source))
        XCTAssertNil(MediaProbe.probe(still).embeddedMovie)
        XCTAssertLessThan(still.size, source.size - 1_500_000)
        XCTAssertEqual(try xmp(of: still)?.motionPhoto, false)
        try assertImageItemsEqual(source, still)
        try GeneratedHEIC.assertDecodes(still, like: path, in: dir)
    }

    func testBadInputsAreRefused() throws {
        let still = SyntheticHEIF.file(items: [SyntheticHEIF.image])
        let notAMovie = MemoryByteSource(Array(repeating: 1, count: 64))
        XCTAssertThrowsError(try MediaWriting.motionPhoto(still: still, movie: notAMovie, presentationTimestampUs: 0))
        let movie = MemoryByteSource(JPEGBuilder.fakeMP4)
        XCTAssertThrowsError(try MediaWriting.motionPhoto(still: Array(still.prefix(50)), movie: movie, presentationTimestampUs: 0))
        XCTAssertThrowsError(try MediaWriting.stillWithoutMotion(MemoryByteSource(Array(still.prefix(50)))))
    }
}
