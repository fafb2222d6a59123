import Foundation
@testable import MediaFormats
import TestSupport
import XCTest

final class HEICExifWriterTests: XCTestCase {
    let identifier = "ABCDEF01-2345-4678-89AB-CDEF01234567"

    func meta(_ source: any ByteSource) throws -> HEIFMeta {
        let top = ISOBMFFTopLevel.scan(source, limits: .default)
        var problems: [ParseProblem] = []
        let structure = try XCTUnwrap(top.loadStructure("meta", from: source, limits: .default, context: "test", problems: &problems))
        return HEIFMeta.parse(structure, limits: .default)
    }

    func check(_ fixture: String) throws {
        let path = try Fixtures.shared(fixture)
        let source = try FileByteSource(path: path)
        let assembly = try MediaWriting.setContentIdentifier(still: source, identifier: identifier)
        let output = MemoryByteSource(try assembly.materialize(from: source))
        let info = MediaProbe.probe(output)
        XCTAssertEqual(info.contentIdentifier, identifier)
        XCTAssertEqual(info.format, .heif)
        let before = MediaProbe.probe(source)
        XCTAssertEqual(info.pixelWidth, before.pixelWidth)
        XCTAssertEqual(info.orientation, before.orientation)
        XCTAssertEqual(info.cameraModel, before.cameraModel)
        // Every item but Exif keeps its bytes where they were; the original bytes are a prefix apart from iloc.
        let a = try meta(source), b = try meta(output)
        let exif = Set(a.items.filter { $0.type == "Exif" }.map(\.id))
        for (id, location) in a.locations where !exif.contains(id) {
            XCTAssertEqual(b.locations[id], location, "item \(id)")
        }
        XCTAssertEqual(output.size, source.size + 8 + (b.locations[exif.first ?? 0]?.extents.first?.length ?? 0))

        let dir = try Fixtures.makeTemporaryDirectory("writer-heic")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out.heic").path
        try Data(output.bytes).write(to: URL(fileURLWithPath: file))
        let tags = try WriterTools.run("exiftool", ["-a", "-G1", "-s", "-MediaGroupUUID", "-ContentIdentifier", "-Warning", "-Error", file])
        XCTAssertTrue(tags.contains(identifier), tags)
        XCTAssertFalse(tags.contains("Warning") || tags.contains("Error"), tags)
    }

    func testIPhoneLivePhotoStillGetsANewIdentifier() throws { try check("IMG_2927.HEIC") }
    func testExifItemWithoutMakerNote() throws { try check("iphone-se-still.heic") }

    /// Writes `source` with the identifier and checks it with our reader, exiftool and libheif.
    @discardableResult
    func checkAdded(_ source: any ByteSource, name: String, original: String? = nil) throws -> MemoryByteSource {
        let output = MemoryByteSource(try MediaWriting.setContentIdentifier(still: source, identifier: identifier).materialize(from: source))
        XCTAssertEqual(MediaProbe.probe(output).contentIdentifier, identifier, name)
        try HEIFMetaEditorTests.assertItemsKept(source, output)
        let dir = try Fixtures.makeTemporaryDirectory("writer-heic-add")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out.heic").path
        try Data(output.bytes).write(to: URL(fileURLWithPath: file))
        let tags = try WriterTools.run("exiftool", ["-a", "-G1", "-s", "-MediaGroupUUID", "-ContentIdentifier", "-ExifVersion", "-Warning", "-Error", file])
        XCTAssertTrue(tags.contains(identifier), tags)
        XCTAssertTrue(tags.contains("ExifVersion"), tags)
        XCTAssertFalse(tags.contains("Warning") || tags.contains("Error"), tags)
        if let original { try GeneratedHEIC.assertDecodes(output, like: original, in: dir) }
        return output
    }

    func testMotionPhotoHEICWithoutExifGetsAnExifItem() throws {
        let path = try Fixtures.shared("motion-photo.heic")
        let source = try FileByteSource(path: path)
        XCTAssertNil(try HEIFMetaEditor(source).exifItemID)
        let output = try checkAdded(source, name: "motion-photo.heic", original: path)
        // The mpvd movie is still there, last, where the XMP's Container:Directory (counted from the end) says.
        let embedded = try XCTUnwrap(MediaProbe.probe(output).embeddedMovie)
        XCTAssertEqual(embedded.kind, .heifMpvd)
        XCTAssertEqual(try TopLevelBox.list(output, limits: .default).map(\.type), ["ftyp", "meta", "mdat", "mdat", "mpvd"])
        let meta = try HEIFMetaEditorTests.parsedMeta(output)
        let xmpItem = try XCTUnwrap(meta.items.first { $0.type == "mime" })
        let xmp = XMPReader.parse(try meta.data(of: xmpItem.id, from: output, limits: .default).bytes)
        XCTAssertEqual(MotionPhotoLocator.googleMotionPhoto(xmp, fileSize: output.size)?.range, embedded.range)
    }

    func testGeneratedHEICWithoutExifGetsAnExifItem() throws {
        let dir = try Fixtures.makeTemporaryDirectory("writer-heic-gen")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try GeneratedHEIC.make(in: dir)
        let source = try FileByteSource(path: path)
        XCTAssertNil(try HEIFMetaEditor(source).exifItemID)
        try checkAdded(source, name: "generated", original: path)
    }

    /// A minimal Exif item (offset 6, `Exif\0\0`, big-endian TIFF with IFD0 holding Make).
    static let exifItem: [UInt8] = {
        var tiff = TIFFWriter(order: .bigEndian)
        let ifd0 = tiff.appendIFD([tiff.ascii(0x010F, "Synthetic")])
        tiff.setIFD0(ifd0)
        return HEICExifWriter.newItemPrefix + tiff.bytes
    }()

    func testExifInSeveralExtentsAndInIdatIsRewritten() throws {
        for (extents, inIdat) in [(3, false), (1, true), (2, true)] {
            let exif = SyntheticHEIF.Item(id: 2, type: "Exif", inIdat: inIdat, extents: extents, bytes: Self.exifItem)
            let source = MemoryByteSource(SyntheticHEIF.file(items: [SyntheticHEIF.image, exif]))
            let output = MemoryByteSource(try MediaWriting.setContentIdentifier(still: source, identifier: identifier).materialize(from: source))
            let info = MediaProbe.probe(output)
            XCTAssertEqual(info.contentIdentifier, identifier, "\(extents) extents, idat \(inIdat)")
            XCTAssertEqual(info.cameraMake, "Synthetic")
            XCTAssertEqual(try HEIFMetaEditorTests.parsedMeta(output).items.filter { $0.type == "Exif" }.count, 1)
        }
    }

    func testSyntheticHEICWithoutExifGetsOneDescribingThePrimary() throws {
        let source = MemoryByteSource(SyntheticHEIF.file(items: [SyntheticHEIF.image]))
        let output = MemoryByteSource(try MediaWriting.setContentIdentifier(still: source, identifier: identifier).materialize(from: source))
        XCTAssertEqual(MediaProbe.probe(output).contentIdentifier, identifier)
        let meta = try HEIFMetaEditorTests.parsedMeta(output)
        let exif = try XCTUnwrap(meta.items.first { $0.type == "Exif" })
        XCTAssertEqual(meta.items(referring: "cdsc", to: 1), [exif.id])
        // Twice: the second run edits the item the first one added (no second Exif item).
        let again = MemoryByteSource(try MediaWriting.setContentIdentifier(still: output, identifier: "11111111-2222-4333-8444-555555555555").materialize(from: output))
        XCTAssertEqual(MediaProbe.probe(again).contentIdentifier, "11111111-2222-4333-8444-555555555555")
        XCTAssertEqual(try HEIFMetaEditorTests.parsedMeta(again).items.filter { $0.type == "Exif" }.count, 1)
    }

    func testTruncatedHEICIsRefused() throws {
        let path = try Fixtures.shared("iphone-se-still.heic")
        let bytes = try FileByteSource(path: path).readExactly(at: 0, count: 3000)
        XCTAssertThrowsError(try MediaWriting.setContentIdentifier(still: MemoryByteSource(bytes), identifier: identifier))
    }
}
