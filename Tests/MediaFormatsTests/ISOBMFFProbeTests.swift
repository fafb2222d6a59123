import XCTest
import TestSupport
@testable import MediaFormats

/// Generated ISO BMFF inputs, so a fresh clone tests the readers without the shared fixtures.
final class ISOBMFFProbeTests: XCTestCase {
    typealias B = ISOBoxBuilder

    private func assertMovie(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
        let info = MediaProbe.probe(MemoryByteSource(bytes))
        XCTAssertEqual(info.format, .quickTime, file: file, line: line)
        XCTAssertEqual(info.problems, [], file: file, line: line)
        XCTAssertEqual(info.contentIdentifier, "0BADF00D-0000-4000-8000-000000000001", file: file, line: line)
        XCTAssertEqual(info.vitalityScore ?? 0, 0.75, accuracy: 1e-6, file: file, line: line)
        XCTAssertEqual(info.duration, 2, file: file, line: line)
        XCTAssertEqual(info.pixelWidth, 640, file: file, line: line)
        XCTAssertEqual(info.pixelHeight, 480, file: file, line: line)
        XCTAssertEqual(info.frameCount, 2, file: file, line: line)
        XCTAssertEqual(info.frameRate, 1, file: file, line: line)
        XCTAssertEqual(info.rotation, 0, file: file, line: line)
        // The sample table locates the second sample in mdat.
        let source = MemoryByteSource(bytes)
        let top = ISOBMFFTopLevel.scan(source, limits: .default)
        var problems: [ParseProblem] = []
        let moov = try ISOBMFFTopLevel.load(try XCTUnwrap(top.first("moov")), from: source, limits: .default, problems: &problems)
        let movie = QuickTimeMovie.parse(moov, limits: .default)
        let range = try XCTUnwrap(movie.mainVideoTrack?.sampleTable).location(ofSample: 1)
        XCTAssertEqual(try source.readExactly(at: range.offset, count: Int(range.length)), Array(repeating: 0xCD, count: 20),
                       file: file, line: line)
    }

    func testMoovAfterMdatAtTheEnd() throws { try assertMovie(B.movie(moovLast: true)) }
    func testMoovBeforeMdat() throws { try assertMovie(B.movie(moovLast: false)) }
    func testLargesizeMoov() throws { try assertMovie(B.movie(largeMoov: true)) }
    func testSizeZeroLastMoov() throws { try assertMovie(B.movie(moovLast: true, openEndedLast: true)) }
    func testSizeZeroLastMdat() throws { try assertMovie(B.movie(moovLast: false, openEndedLast: true)) }

    func testDisplayMatrixRotations() {
        let one: Int32 = 0x10000, w: Int32 = 0x4000_0000
        let cases: [([Int32], Int, Bool)] = [
            ([0, one, 0, -one, 0, 0, 0, 0, w], 90, false),
            ([-one, 0, 0, 0, -one, 0, 0, 0, w], 180, false),
            ([0, -one, 0, one, 0, 0, 0, 0, w], 270, false),
            ([-one, 0, 0, 0, one, 0, 0, 0, w], 0, true),
            ([0, -one, 0, -one, 0, 0, 0, 0, w], 90, true),
        ]
        for (matrix, degrees, mirrored) in cases {
            let info = MediaProbe.probe(MemoryByteSource(B.movie(matrix: matrix)))
            XCTAssertEqual(info.rotation, degrees, "\(matrix)")
            XCTAssertEqual(info.mirrored, mirrored, "\(matrix)")
        }
    }

    func testBoxSmallerThanItsHeaderStopsTheWalk() {
        let bytes = B.box("ftyp", B.fourCC("qt  ") + B.u32(0)) + B.u32(4) + B.fourCC("moov") + Array(repeating: 0, count: 32)
        let info = MediaProbe.probe(MemoryByteSource(bytes))
        XCTAssertTrue(info.problems.contains { $0.message.contains("smaller than its 8-byte header") }, "\(info.problems)")
    }

    func testBoxPastTheEndIsAProblem() {
        let bytes = B.box("ftyp", B.fourCC("qt  ") + B.u32(0)) + B.u32(1000) + B.fourCC("moov") + Array(repeating: 0, count: 32)
        let info = MediaProbe.probe(MemoryByteSource(bytes))
        XCTAssertTrue(info.problems.contains { $0.message.contains("only 40 byte(s) remain") }, "\(info.problems)")
    }

    func testHugeSampleCountInATinyBoxIsRejectedWithoutAllocating() throws {
        var bytes = B.movie()
        // Patch the stsz sample count (the second u32 after version/flags) to 2^32 - 1.
        let stsz = try XCTUnwrap(bytes.firstIndex(of: B.fourCC("stsz")))
        bytes.replaceSubrange(stsz + 8..<stsz + 12, with: B.u32(.max))
        let stts = try XCTUnwrap(bytes.firstIndex(of: B.fourCC("stts")))
        bytes.replaceSubrange(stts + 8..<stts + 12, with: B.u32(.max))
        let info = MediaProbe.probe(MemoryByteSource(bytes))
        XCTAssertEqual(info.contentIdentifier, "0BADF00D-0000-4000-8000-000000000001")
        XCTAssertTrue(info.problems.contains { $0.context.hasSuffix("/stbl") && $0.message.contains("4294967295") }, "\(info.problems)")
        XCTAssertNil(info.frameCount)
    }

    func testHugeChildCountsAreBounded() {
        // iinf claiming 2^32 - 1 entries in a 20-byte box; ipma claiming as many associations.
        let meta = B.fullBox("meta", [
            B.fullBox("hdlr", B.u32(0) + B.fourCC("pict") + Array(repeating: 0, count: 13)),
            B.fullBox("pitm", B.u16(1)),
            B.fullBox("iinf", version: 1, B.u32(.max)),
            B.container("iprp", [B.box("ipco", B.ispe(8, 8)), B.fullBox("ipma", B.u32(.max))]),
        ].flatMap { $0 })
        let bytes = B.box("ftyp", B.fourCC("heic") + B.u32(0) + B.fourCC("mif1")) + meta
        let info = MediaProbe.probe(MemoryByteSource(bytes))
        XCTAssertEqual(info.format, .heif)
        XCTAssertTrue(info.problems.contains { $0.context == "heif/iinf" && $0.message.contains("4294967295") }, "\(info.problems)")
        XCTAssertTrue(info.problems.contains { $0.context == "heif/iprp" }, "\(info.problems)")
    }

    func testTooManyChildrenStopAtTheLimit() {
        var limits = ParseLimits()
        limits.maxEntries = 10
        let moov = B.box("moov", Array(repeating: B.box("free", []), count: 50).flatMap { $0 })
        let bytes = B.box("ftyp", B.fourCC("qt  ") + B.u32(0)) + moov
        let info = MediaProbe.probe(MemoryByteSource(bytes), limits: limits)
        XCTAssertTrue(info.problems.contains { $0.message.contains("more than 10 boxes") }, "\(info.problems)")
    }

    func testNestingDeeperThanTheLimit() {
        var inner = B.box("free", [])
        for _ in 0..<40 { inner = B.box("udta", inner) }
        let bytes = B.box("ftyp", B.fourCC("qt  ") + B.u32(0)) + B.box("moov", inner)
        let info = MediaProbe.probe(MemoryByteSource(bytes))
        XCTAssertTrue(info.problems.contains { $0.message.contains("nest deeper than 16") }, "\(info.problems)")
    }

    // MARK: HEIF

    /// A HEIC whose Exif item lives in a second `mdat` at the end of the file.
    private func heic(exifPastEOF: Bool = false, xmp: String? = nil) -> (bytes: [UInt8], tiffOffset: Int) {
        let ftyp = B.box("ftyp", B.fourCC("heic") + B.u32(0) + B.fourCC("mif1") + B.fourCC("heic"))
        let image: [UInt8] = Array(repeating: 0x11, count: 64)
        let exif = B.u32(6) + B.fourCC("Exif") + [0, 0] + B.tinyTIFF()
        let packet = Array((xmp ?? "").utf8)
        func meta(imageOffset: Int, exifOffset: Int) -> [UInt8] {
            let xmpItem: [B.HEIFItemSpec] = xmp == nil ? [] : [
                .init(id: 4, type: "mime", contentType: "application/rdf+xml", offset: UInt32(exifOffset + exif.count + 8),
                      length: UInt32(packet.count)),
            ]
            return B.heifMeta(primary: 1, items: xmpItem + [
                .init(id: 1, type: "hvc1", offset: UInt32(imageOffset), length: UInt32(image.count)),
                .init(id: 2, type: "hvc1", offset: UInt32(imageOffset), length: 16),
                .init(id: 3, type: "Exif", offset: UInt32(exifOffset), length: UInt32(exif.count + (exifPastEOF ? 100 : 0))),
            ], references: [("thmb", 2, [1]), ("cdsc", 3, [1])],
            properties: [B.ispe(640, 480), B.ispe(160, 120), B.box("irot", [1]), B.box("imir", [0])],
            associations: [(1, [0x81, 3, 4]), (2, [0x82])])
        }
        let metaSize = meta(imageOffset: 0, exifOffset: 0).count
        let imageOffset = ftyp.count + metaSize + 8
        let exifOffset = imageOffset + image.count + 8
        var bytes = ftyp + meta(imageOffset: imageOffset, exifOffset: exifOffset) + B.box("mdat", image) + B.box("mdat", exif)
        if xmp != nil { bytes += B.box("mdat", packet) }
        return (bytes, exifOffset + 10)
    }

    func testHEICPropertiesAndExifInASecondMdatAtTheEnd() throws {
        let (bytes, tiffOffset) = heic()
        let info = MediaProbe.probe(MemoryByteSource(bytes))
        XCTAssertEqual(info.format, .heif)
        XCTAssertEqual(info.problems, [])
        XCTAssertEqual(info.pixelWidth, 640)
        XCTAssertEqual(info.pixelHeight, 480)
        // irot 1 (90 counter-clockwise = 270 clockwise), then imir axis 0 (left-right flip):
        // the same as flipping first, then rotating 90 clockwise.
        XCTAssertEqual(info.rotation, 90)
        XCTAssertEqual(info.mirrored, true)
        XCTAssertEqual(info.thumbnailWidth, 160)
        XCTAssertEqual(info.thumbnailHeight, 120)

        let source = MemoryByteSource(bytes)
        var problems: [ParseProblem] = []
        let meta = HEIFMeta.parse(try ISOBMFFTopLevel.load(try XCTUnwrap(ISOBMFFTopLevel.scan(source, limits: .default).first("meta")),
                                                           from: source, limits: .default, problems: &problems), limits: .default)
        let (data, offset) = try meta.data(of: 3, from: source, limits: .default)
        XCTAssertEqual(Int(offset) + 10, tiffOffset)
        XCTAssertEqual(Array(data[10...]), B.tinyTIFF())
        XCTAssertEqual(bytes.count - tiffOffset, B.tinyTIFF().count, "the TIFF ends the file")
        XCTAssertEqual(info.cameraMake, "Test")
    }

    func testILocExtentPastEOFIsAProblem() {
        let info = MediaProbe.probe(MemoryByteSource(heic(exifPastEOF: true).bytes))
        XCTAssertEqual(info.pixelWidth, 640, "a broken Exif item never hides the photo")
        XCTAssertTrue(info.problems.contains { $0.context == "heif/Exif" && $0.message.contains("outside the file") }, "\(info.problems)")
    }

    func testMpvdThatIsNotAnMP4IsABrokenMotionPhoto() {
        let bytes = heic().bytes + B.box("mpvd", Array("definitely not a movie".utf8))
        let info = MediaProbe.probe(MemoryByteSource(bytes))
        XCTAssertNil(info.embeddedMovie)
        XCTAssertTrue(info.problems.contains { $0.severity == .error && $0.message.contains("broken motion photo") }, "\(info.problems)")
    }

    func testMpvdHoldingAnMP4IsTheEmbeddedMovie() {
        let still = heic().bytes
        let movie = B.movie()
        let info = MediaProbe.probe(MemoryByteSource(still + B.box("mpvd", movie)))
        XCTAssertEqual(info.embeddedMovie?.kind, .heifMpvd)
        XCTAssertEqual(info.embeddedMovie?.range, ByteRange(offset: UInt64(still.count + 8), length: UInt64(movie.count)))
    }

    func testXMPMotionPhotoInHEIC() {
        let movie = B.movie()
        let still = heic(xmp: JPEGBuilder.motionPhotoXMP(length: movie.count, timestamp: 500_000)).bytes
        let info = MediaProbe.probe(MemoryByteSource(still + movie))
        XCTAssertTrue(info.hasXMP)
        XCTAssertEqual(info.problems, [])
        XCTAssertEqual(info.embeddedMovie, EmbeddedMovie(kind: .googleMotionPhoto,
                                                         range: ByteRange(offset: UInt64(still.count), length: UInt64(movie.count)),
                                                         presentationTimestampUs: 500_000))
    }

    func testXMPMotionPhotoInHEICPointingAtNonMP4Bytes() {
        let still = heic(xmp: JPEGBuilder.motionPhotoXMP(length: 40)).bytes
        let info = MediaProbe.probe(MemoryByteSource(still + Array(repeating: 0x55, count: 40)))
        XCTAssertNil(info.embeddedMovie)
        XCTAssertTrue(info.problems.contains { $0.severity == .error && $0.message.contains("broken motion photo") }, "\(info.problems)")
    }

    func testUnknownBrandWithAMetaIsReadAsHEIF() {
        var bytes = heic().bytes
        bytes.replaceSubrange(8..<12, with: B.fourCC("MiHE"))
        let info = MediaProbe.probe(MemoryByteSource(bytes))
        XCTAssertEqual(info.format, .heif)
        XCTAssertEqual(info.pixelWidth, 640)
    }

    func testCompositionOffsetShiftsTheFirstSample() throws {
        let source = MemoryByteSource(B.movie(compositionOffset: 300))
        let top = ISOBMFFTopLevel.scan(source, limits: .default)
        var problems: [ParseProblem] = []
        let moov = try ISOBMFFTopLevel.load(try XCTUnwrap(top.first("moov")), from: source, limits: .default, problems: &problems)
        let track = try XCTUnwrap(QuickTimeMovie.parse(moov, limits: .default).mainVideoTrack)
        XCTAssertEqual(track.sampleTable?.firstCompositionOffset, 300)
        XCTAssertEqual(track.presentationTime(ofSample: 0, movieTimescale: 600), 0.5)
        XCTAssertEqual(MediaProbe.probe(source).problems, [])
    }
}
