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

    func testTruncatedHEICIsRefused() throws {
        let path = try Fixtures.shared("iphone-se-still.heic")
        let bytes = try FileByteSource(path: path).readExactly(at: 0, count: 3000)
        XCTAssertThrowsError(try MediaWriting.setContentIdentifier(still: MemoryByteSource(bytes), identifier: identifier))
    }
}
