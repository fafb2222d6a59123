import XCTest
@testable import MediaFormats

final class JPEGExtendedXMPTests: XCTestCase {
    static func chunk(guid: String, full: Int, offset: Int, _ data: ArraySlice<UInt8>) -> [UInt8] {
        JPEGBuilder.segment(0xE1, JPEGExtendedXMP.signature + Array(guid.utf8)
            + TIFFWriter.u32(UInt32(full), .bigEndian) + TIFFWriter.u32(UInt32(offset), .bigEndian) + data)
    }

    static let guid = "0123456789ABCDEF0123456789ABCDEF"
    static let main = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmpNote:HasExtendedXMP="\(guid)"/></rdf:RDF></x:xmpmeta>
        """

    func testExtendedXMPInTwoChunksCarriesTheMotionPhoto() {
        let movie = JPEGBuilder.fakeMP4
        let extended = Array(JPEGBuilder.motionPhotoXMP(length: movie.count, timestamp: 77).utf8)
        let half = extended.count / 2
        // Second chunk first: readers must place chunks by offset, not by order.
        let jpeg = JPEGBuilder.jpeg(segments: [
            JPEGBuilder.xmp(Self.main),
            Self.chunk(guid: Self.guid, full: extended.count, offset: half, extended[half...]),
            Self.chunk(guid: "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", full: 10, offset: 0, [1, 2, 3][...]),
            Self.chunk(guid: Self.guid, full: extended.count, offset: 0, extended[..<half]),
        ]) + movie
        let info = MediaProbe.probe(MemoryByteSource(jpeg))
        XCTAssertEqual(info.embeddedMovie, EmbeddedMovie(kind: .googleMotionPhoto,
            range: ByteRange(offset: UInt64(jpeg.count - movie.count), length: UInt64(movie.count)), presentationTimestampUs: 77))
        XCTAssertEqual(info.problems, [])
    }

    func testMissingChunkIsAProblem() {
        let extended = Array(JPEGBuilder.motionPhotoXMP(length: 10).utf8)
        let jpeg = JPEGBuilder.jpeg(segments: [
            JPEGBuilder.xmp(Self.main),
            Self.chunk(guid: Self.guid, full: extended.count, offset: 0, extended[..<100]),
        ])
        let info = MediaProbe.probe(MemoryByteSource(jpeg))
        XCTAssertNil(info.embeddedMovie)
        XCTAssertTrue(info.problems.contains { $0.message.contains("incomplete") })
    }

    func testLyingFullLengthIsRefused() {
        let jpeg = JPEGBuilder.jpeg(segments: [
            JPEGBuilder.xmp(Self.main),
            Self.chunk(guid: Self.guid, full: Int(UInt32.max), offset: 0, [1, 2, 3][...]),
            Self.chunk(guid: Self.guid, full: 4, offset: 0xFFFF_FFF0, [1, 2, 3][...]),
        ])
        let info = MediaProbe.probe(MemoryByteSource(jpeg))
        XCTAssertTrue(info.problems.contains { $0.message.contains("out of bounds") })
    }
}
