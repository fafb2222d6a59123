import XCTest
import TestSupport
@testable import MediaFormats

final class HEIFProbeTests: XCTestCase {
    func testIMG2927GridSizeRotationAndExifLocation() throws {
        let path = try Fixtures.shared("IMG_2927.HEIC")
        let info = try MediaProbe.probe(path: path)
        XCTAssertEqual(info.format, .heif)
        XCTAssertEqual(info.pixelWidth, 3024)
        XCTAssertEqual(info.pixelHeight, 4032)
        XCTAssertEqual(info.problems.filter { $0.severity >= .warning }, [])

        let source = try FileByteSource(path: path)
        let meta = try loadMeta(source)
        let primary = try XCTUnwrap(meta.primaryItemID)
        XCTAssertEqual(meta.item(primary)?.type, "grid")
        XCTAssertEqual(meta.references(of: "dimg", from: primary).count, 48)
        let exif = try XCTUnwrap(meta.items.first { $0.type == "Exif" })
        XCTAssertEqual(exif.id, 50)
        XCTAssertEqual(try meta.fileExtents(of: exif.id, fileSize: source.size).first?.offset, 3319)
        let data = try meta.data(of: exif.id, from: source, limits: .default).bytes
        XCTAssertEqual(Array(data.prefix(12)), [0, 0, 0, 6] + Array("Exif".utf8) + [0, 0] + Array("MM".utf8))
        // irot angle 0, and no thmb reference in this file (only dimg and cdsc).
        XCTAssertEqual(info.rotation, 0)
        XCTAssertNil(info.thumbnailWidth)
    }

    func testReadsOnlyMetaAndItemBytes() throws {
        let counter = ReadCounter()
        _ = try MediaProbe.probe(path: try Fixtures.shared("IMG_2927.HEIC"), counter: counter)
        // 721 KB file: the meta box and the Exif item lie inside the one prefetched head read.
        XCTAssertEqual(counter.reads, 1, "\(counter.reads) reads, \(counter.bytes) bytes")
        XCTAssertLessThanOrEqual(counter.bytes, UInt64(ParseLimits.default.headerProbeBytes))
        print("IMG_2927.HEIC probe: \(counter.reads) reads, \(counter.bytes) bytes")
    }

    func testIMG2927Identifier() throws {
        let info = try MediaProbe.probe(path: try Fixtures.shared("IMG_2927.HEIC"))
        XCTAssertEqual(info.contentIdentifier, "1745E022-9712-43C7-B024-F308EC6413CB")
        XCTAssertEqual(info.contentIdentifierSource, "apple-makernote")
    }

    func testIPhoneSEStillHasXMPAndNoIdentifier() throws {
        let info = try MediaProbe.probe(path: try Fixtures.shared("iphone-se-still.heic"))
        XCTAssertEqual(info.format, .heif)
        XCTAssertTrue(info.hasXMP)
        XCTAssertNil(info.contentIdentifier)
        XCTAssertNotNil(info.pixelWidth)
        XCTAssertEqual(info.problems.filter { $0.severity >= .warning }, [])
        XCTAssertEqual(info.pixelWidth, 4032)
        XCTAssertEqual(info.pixelHeight, 3024)
        XCTAssertEqual(info.thumbnailWidth, 320)
    }

    func testMotionPhotoHEICMpvd() throws {
        let path = try Fixtures.shared("motion-photo.heic")
        let info = try MediaProbe.probe(path: path)
        XCTAssertEqual(info.pixelWidth, 3024)
        XCTAssertEqual(info.pixelHeight, 4032)
        let source = try FileByteSource(path: path)
        let movie = try XCTUnwrap(info.embeddedMovie)
        XCTAssertEqual(movie.kind, .heifMpvd)
        XCTAssertEqual(movie.presentationTimestampUs, 0, "from the XMP")
        XCTAssertTrue(info.hasXMP)
        // The mpvd box at 1582857 uses a 64-bit largesize: a 16-byte header.
        XCTAssertEqual(movie.range, ByteRange(offset: 1_582_857 + 16, length: 1_544_217 - 16))
        XCTAssertEqual(movie.range.end, source.size)
        let slice = SliceByteSource(base: source, range: movie.range)
        XCTAssertEqual(try slice.readExactly(at: 4, count: 8), Array("ftypmp42".utf8))
        let mp4 = MediaProbe.probe(slice)
        XCTAssertEqual(mp4.format, .mp4)
        XCTAssertEqual(mp4.pixelWidth, 1024)
        XCTAssertEqual(mp4.pixelHeight, 768)
        XCTAssertEqual(mp4.videoCodec, "h264")
        // ffprobe reports "rotation -90" (its counter-clockwise display-matrix angle): 90 degrees clockwise here.
        XCTAssertEqual(mp4.rotation, 90)
        XCTAssertEqual(mp4.mirrored, false)
        XCTAssertEqual(mp4.duration ?? 0, 0.93, accuracy: 0.02)
    }

    private func loadMeta(_ source: any ByteSource) throws -> HEIFMeta {
        let top = ISOBMFFTopLevel.scan(source, limits: .default)
        var problems: [ParseProblem] = []
        let meta = try ISOBMFFTopLevel.load(try XCTUnwrap(top.first("meta")), from: source, limits: .default, problems: &problems)
        return HEIFMeta.parse(meta, limits: .default)
    }

    func testIrotAndImirCompose() {
        typealias P = HEIFMeta.Property
        XCTAssertNil(HEIFProbe.displayTransform([.spatialExtent(width: 1, height: 1)]))
        XCTAssertEqual(HEIFProbe.displayTransform([P.rotation(counterClockwiseQuarterTurns: 0)])?.rotation, 0)
        XCTAssertEqual(HEIFProbe.displayTransform([P.rotation(counterClockwiseQuarterTurns: 3)])?.rotation, 90)
        // Rotate 90 clockwise, then flip left-right = flip, then rotate 270 clockwise.
        let rotateThenFlip = HEIFProbe.displayTransform([P.rotation(counterClockwiseQuarterTurns: 3), P.mirror(axis: 0)])
        XCTAssertEqual(rotateThenFlip?.rotation, 270)
        XCTAssertEqual(rotateThenFlip?.mirrored, true)
        // A top-bottom flip alone = flip left-right, then 180.
        let topBottom = HEIFProbe.displayTransform([P.mirror(axis: 1)])
        XCTAssertEqual(topBottom?.rotation, 180)
        XCTAssertEqual(topBottom?.mirrored, true)
    }
}
