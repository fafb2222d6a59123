import Foundation
@testable import MediaFormats
import TestSupport
import XCTest

/// Builds small HEIF files whose items are arbitrary bytes: enough for the meta editor (no decoder involved).
enum SyntheticHEIF {
    typealias B = ISOBoxBuilder

    struct Item {
        var id: UInt32
        var type: String
        var contentType: String? = nil
        /// Construction method 1 puts the bytes in idat; 0 in the mdat after meta.
        var inIdat = false
        /// Split into this many extents.
        var extents = 1
        var bytes: [UInt8]
    }

    /// ftyp, meta (iloc version `ilocVersion` with base offsets in a 4-byte field), `extra` top-level boxes
    /// (before the mdat), mdat. Method-0 items are stored one after another in the mdat.
    static func file(items: [Item], primary: UInt32 = 1, ilocVersion: UInt8 = 1, withIref: Bool = false,
                     extraBoxes: [[UInt8]] = [], trailingBoxes: [[UInt8]] = []) -> [UInt8] {
        let ftyp = B.box("ftyp", B.fourCC("heic") + B.u32(0) + B.fourCC("mif1") + B.fourCC("heic"))
        let hdlr = B.fullBox("hdlr", B.u32(0) + B.fourCC("pict") + Array(repeating: 0, count: 12) + [0])
        let pitm = B.fullBox("pitm", B.u16(UInt16(primary)))
        let infes = items.map { item in
            B.fullBox("infe", version: 2, flags: item.type == "hvc1" ? 0 : 1,
                      B.u16(UInt16(item.id)) + B.u16(0) + B.fourCC(item.type) + [0] + (item.contentType.map { B.cString($0) } ?? []))
        }
        let iinf = B.fullBox("iinf", B.u16(UInt16(items.count)) + infes.flatMap { $0 })
        let iref = withIref ? [B.fullBox("iref", B.box("thmb", B.u16(UInt16(items.last?.id ?? 0)) + B.u16(1) + B.u16(UInt16(primary))))] : []
        var idatBytes: [UInt8] = []
        var mdatBytes: [UInt8] = []

        // iloc: offsets depend on where mdat lands, which depends on iloc's size: build twice.
        func iloc(mdatPayloadOffset: UInt64) -> [UInt8] {
            var body = B.u16(0x4440) // offset 4, length 4, base 4, index 0
            body += ilocVersion < 2 ? B.u16(UInt16(items.count)) : B.u32(UInt32(items.count))
            var mdatPosition: UInt64 = 0, idatPosition: UInt64 = 0
            for item in items {
                body += ilocVersion < 2 ? B.u16(UInt16(item.id)) : B.u32(item.id)
                if ilocVersion >= 1 { body += B.u16(item.inIdat ? 1 : 0) }
                body += B.u16(0)
                let base = item.inIdat ? idatPosition : mdatPayloadOffset + mdatPosition
                body += B.u32(UInt32(base))
                body += B.u16(UInt16(item.extents))
                let chunk = (item.bytes.count + item.extents - 1) / item.extents
                var within = 0
                for index in 0..<item.extents {
                    let length = index == item.extents - 1 ? item.bytes.count - within : chunk
                    body += B.u32(UInt32(within)) + B.u32(UInt32(length))
                    within += length
                }
                if item.inIdat { idatPosition += UInt64(item.bytes.count) } else { mdatPosition += UInt64(item.bytes.count) }
            }
            return B.fullBox("iloc", version: ilocVersion, body)
        }
        for item in items { if item.inIdat { idatBytes += item.bytes } else { mdatBytes += item.bytes } }
        let idat = idatBytes.isEmpty ? [] : B.box("idat", idatBytes)
        func meta(_ mdatPayloadOffset: UInt64) -> [UInt8] {
            B.fullBox("meta", hdlr + pitm + iloc(mdatPayloadOffset: mdatPayloadOffset) + iinf + iref.flatMap { $0 } + idat)
        }
        let extra = extraBoxes.flatMap { $0 }
        let offset = UInt64(ftyp.count + meta(0).count + extra.count + 8)
        return ftyp + meta(offset) + extra + B.box("mdat", mdatBytes) + trailingBoxes.flatMap { $0 }
    }

    static let image = Item(id: 1, type: "hvc1", bytes: (0..<200).map { UInt8($0 & 0xFF) })
    static let secondImage = Item(id: 2, type: "hvc1", extents: 3, bytes: (0..<90).map { UInt8(($0 * 7) & 0xFF) })
    static let idatItem = Item(id: 3, type: "grid", inIdat: true, bytes: [0, 0, 0, 0, 0, 64, 0, 48])
}

final class HEIFMetaEditorTests: XCTestCase {
    static func parsedMeta(_ source: any ByteSource) throws -> HEIFMeta {
        let top = ISOBMFFTopLevel.scan(source, limits: .default)
        var problems: [ParseProblem] = []
        let structure = try XCTUnwrap(top.loadStructure("meta", from: source, limits: .default, context: "test", problems: &problems))
        let meta = HEIFMeta.parse(structure, limits: .default)
        XCTAssertEqual(meta.problems, [], "\(meta.problems)")
        return meta
    }

    /// Every item of `before` reads the same bytes in `after` (through the new iloc).
    static func assertItemsKept(_ before: any ByteSource, _ after: any ByteSource, file: StaticString = #filePath, line: UInt = #line) throws {
        let a = try parsedMeta(before), b = try parsedMeta(after)
        for item in a.items {
            let old = try a.data(of: item.id, from: before, limits: .default).bytes
            let new = try b.data(of: item.id, from: after, limits: .default).bytes
            XCTAssertEqual(old, new, "item \(item.id) (\(item.type))", file: file, line: line)
        }
        XCTAssertEqual(a.properties, b.properties, file: file, line: line)
        XCTAssertEqual(a.associations, b.associations, file: file, line: line)
        XCTAssertEqual(a.primaryItemID, b.primaryItemID, file: file, line: line)
    }

    func added(to bytes: [UInt8], payload: [UInt8] = Array("hello xmp".utf8), edit: (inout HEIFMetaEditor) throws -> Void = { _ in })
        throws -> (output: MemoryByteSource, id: UInt32) {
        let source = MemoryByteSource(bytes)
        var editor = try HEIFMetaEditor(source)
        let id = try editor.addItem(type: "mime", contentType: "application/rdf+xml", bytes: payload, describing: editor.primaryItemID)
        try edit(&editor)
        let output = MemoryByteSource(try editor.assembly().materialize(from: source))
        try Self.assertItemsKept(source, output)
        let meta = try Self.parsedMeta(output)
        XCTAssertEqual(try meta.data(of: id, from: output, limits: .default).bytes, payload)
        XCTAssertEqual(meta.item(id)?.contentType, "application/rdf+xml")
        XCTAssertEqual(meta.item(id)?.hidden, true)
        XCTAssertEqual(meta.items(referring: "cdsc", to: meta.primaryItemID ?? 0).last, id)
        return (output, id)
    }

    func testAddingAnItemShiftsEveryFileOffsetAfterMeta() throws {
        let input = SyntheticHEIF.file(items: [SyntheticHEIF.image, SyntheticHEIF.secondImage, SyntheticHEIF.idatItem])
        let (output, id) = try added(to: input)
        XCTAssertEqual(id, 4)
        XCTAssertGreaterThan(output.size, UInt64(input.count) + 8 + 9, "meta grew")
        // The file still walks box by box and ends with the new mdat.
        let boxes = try TopLevelBox.list(output, limits: .default).map(\.type)
        XCTAssertEqual(boxes, ["ftyp", "meta", "mdat", "mdat"])
    }

    func testNewDataGoesBeforeATrailingMotionPhotoBox() throws {
        let mpvd = ISOBoxBuilder.box("mpvd", JPEGBuilder.fakeMP4)
        let input = SyntheticHEIF.file(items: [SyntheticHEIF.image], trailingBoxes: [mpvd])
        let (output, _) = try added(to: input)
        XCTAssertEqual(try TopLevelBox.list(output, limits: .default).map(\.type), ["ftyp", "meta", "mdat", "mdat", "mpvd"])
        XCTAssertEqual(Array(output.bytes.suffix(mpvd.count)), mpvd)
    }

    func testIrefIsCreatedWhenAbsentAndExtendedWhenPresent() throws {
        let without = SyntheticHEIF.file(items: [SyntheticHEIF.image])
        XCTAssertNil(try Self.parsedMeta(MemoryByteSource(without)).references.first)
        _ = try added(to: without)
        var thumbnail = SyntheticHEIF.secondImage
        thumbnail.extents = 1
        let with = SyntheticHEIF.file(items: [SyntheticHEIF.image, thumbnail], withIref: true)
        let (output, _) = try added(to: with)
        let meta = try Self.parsedMeta(output)
        XCTAssertEqual(meta.items(referring: "thmb", to: 1), [2])
    }

    func testILocVersion0And2() throws {
        for version: UInt8 in [0, 2] {
            let input = SyntheticHEIF.file(items: [SyntheticHEIF.image, SyntheticHEIF.secondImage], ilocVersion: version)
            let (output, _) = try added(to: input)
            let table = try ilocTable(output)
            XCTAssertEqual(table.version, version)
        }
    }

    func ilocTable(_ source: any ByteSource) throws -> HEIFItemLocationTable {
        let meta = try Self.parsedMeta(source)
        let iloc = try XCTUnwrap(meta.box?.child("iloc"))
        let bytes = try source.readExactly(at: iloc.payloadRange.offset, count: Int(iloc.payloadRange.length))
        return try HEIFItemLocationTable(payload: bytes, limits: .default)
    }

    func testAnUnchangedTableEncodesToItsOwnBytes() throws {
        let input = MemoryByteSource(SyntheticHEIF.file(items: [SyntheticHEIF.image, SyntheticHEIF.secondImage, SyntheticHEIF.idatItem]))
        let meta = try Self.parsedMeta(input)
        let iloc = try XCTUnwrap(meta.box?.child("iloc"))
        let bytes = try input.readExactly(at: iloc.payloadRange.offset, count: Int(iloc.payloadRange.length))
        var table = try HEIFItemLocationTable(payload: bytes, limits: .default)
        XCTAssertEqual(table.encodedPayload(), bytes)
        try table.widenToFit()
        XCTAssertEqual(table.encodedPayload(), bytes, "nothing to widen")
    }

    func testFieldsTooNarrowAreWidened() throws {
        let input = MemoryByteSource(SyntheticHEIF.file(items: [SyntheticHEIF.image]))
        var table = try ilocTable(input)
        table.entries[0].extents[0].offset = UInt64(UInt32.max) + 10
        table.entries.append(.init(itemID: 70000, extents: [.init(offset: 1, length: 2)]))
        try table.widenToFit()
        XCTAssertEqual(table.offsetSize, 8)
        XCTAssertEqual(table.lengthSize, 4)
        XCTAssertEqual(table.version, 2, "a 32-bit item id needs iloc version 2")
        let again = try HEIFItemLocationTable(payload: table.encodedPayload(), limits: .default)
        XCTAssertEqual(again, table)
    }

    func testNewIdsStayWithin16BitsWhenTheyCan() throws {
        var high = SyntheticHEIF.secondImage
        high.id = 65535
        let (_, id) = try added(to: SyntheticHEIF.file(items: [SyntheticHEIF.image, high]))
        XCTAssertEqual(id, 2)
    }

    func testReplacingDataOfAnIdatItemAndOfAMultiExtentItem() throws {
        let input = MemoryByteSource(SyntheticHEIF.file(items: [SyntheticHEIF.image, SyntheticHEIF.secondImage, SyntheticHEIF.idatItem]))
        var editor = try HEIFMetaEditor(input)
        XCTAssertEqual(try editor.data(of: 2), SyntheticHEIF.secondImage.bytes)
        try editor.replaceData(of: 2, with: [1, 2, 3])
        try editor.replaceData(of: 3, with: [9, 9])
        let output = MemoryByteSource(try editor.assembly().materialize(from: input))
        let meta = try Self.parsedMeta(output)
        XCTAssertEqual(try meta.data(of: 1, from: output, limits: .default).bytes, SyntheticHEIF.image.bytes)
        XCTAssertEqual(try meta.data(of: 2, from: output, limits: .default).bytes, [1, 2, 3])
        XCTAssertEqual(try meta.data(of: 3, from: output, limits: .default).bytes, [9, 9])
        XCTAssertEqual(meta.locations[3]?.constructionMethod, 0, "moved out of idat")
        // Item 2 went from three extents to one (16 bytes less iloc); the new mdat holds 5 bytes.
        XCTAssertEqual(output.size, input.size - 16 + 8 + 5)
    }

    func testDroppingABoxInTheMiddleMovesTheBoxesAfterItBack() throws {
        let free = ISOBoxBuilder.box("free", Array(repeating: 0xEE, count: 40))
        let input = MemoryByteSource(SyntheticHEIF.file(items: [SyntheticHEIF.image, SyntheticHEIF.secondImage], extraBoxes: [free]))
        var editor = try HEIFMetaEditor(input)
        try editor.dropTopLevelBoxes("free")
        let output = MemoryByteSource(try editor.assembly().materialize(from: input))
        XCTAssertEqual(output.size, input.size - 48)
        try Self.assertItemsKept(input, output)
    }

    func testItemDataInADroppedBoxIsRefused() throws {
        let input = MemoryByteSource(SyntheticHEIF.file(items: [SyntheticHEIF.image]))
        var editor = try HEIFMetaEditor(input)
        try editor.dropTopLevelBoxes("mdat")
        XCTAssertThrowsError(try editor.assembly())
        XCTAssertThrowsError(try editor.dropTopLevelBoxes("meta"))
    }

    func testBrokenInputsAreRefused() throws {
        let good = SyntheticHEIF.file(items: [SyntheticHEIF.image])
        XCTAssertThrowsError(try HEIFMetaEditor(MemoryByteSource(Array(good.prefix(60)))), "truncated")
        XCTAssertThrowsError(try HEIFMetaEditor(MemoryByteSource(ISOBoxBuilder.box("ftyp", ISOBoxBuilder.fourCC("heic") + [0, 0, 0, 0]))), "no meta")
        // iinf claiming 2^32-1 entries must fail fast, not allocate.
        var huge = good
        if let at = huge.firstIndex(of: Array("iinf".utf8)) { huge[at + 8] = 0xFF; huge[at + 9] = 0xFF }
        XCTAssertThrowsError(try HEIFMetaEditor(MemoryByteSource(huge)))
        // An open-ended last box cannot be appended to.
        var open = good
        if let at = open.firstIndex(of: Array("mdat".utf8)) { open.replaceSubrange(at - 4..<at, with: [0, 0, 0, 0]) }
        var editor = try HEIFMetaEditor(MemoryByteSource(open))
        try editor.addItem(type: "Exif", bytes: [1], describing: 1)
        XCTAssertThrowsError(try editor.assembly())
    }

    // MARK: real files

    func heicFixtures() throws -> [String] {
        let paths = ["IMG_2927.HEIC", "iphone-se-still.heic", "motion-photo.heic"].compactMap { try? Fixtures.shared($0) }
        guard !paths.isEmpty else { throw XCTSkip("no HEIC fixtures (../shared absent)") }
        return paths
    }

    func testEveryFixtureKeepsItsItemsAndStillDecodes() throws {
        let dir = try Fixtures.makeTemporaryDirectory("heif-meta-editor")
        defer { try? FileManager.default.removeItem(at: dir) }
        for path in try heicFixtures() + [try GeneratedHEIC.make(in: dir)] {
            let source = try FileByteSource(path: path)
            let (output, _) = try added(to: try source.readExactly(at: 0, count: Int(source.size)), payload: Array(repeating: 0x41, count: 300))
            try GeneratedHEIC.assertDecodes(output, like: path, in: dir)
        }
    }
}

/// A real HEIC made by libheif's `heif-enc` (x265) from an ffmpeg test picture; skips when either is missing.
enum GeneratedHEIC {
    static func make(in dir: URL, name: String = "generated.heic", exifFrom jpeg: Bool = false) throws -> String {
        let picture = dir.appendingPathComponent(jpeg ? "picture.jpg" : "picture.png").path
        _ = try ExternalTool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=96x64:rate=1", "-frames:v", "1", "-y", picture])
        let path = dir.appendingPathComponent(name).path
        _ = try ExternalTool.run("heif-enc", ["-q", "50", picture, "-o", path])
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("heif-enc made no file") }
        return path
    }

    /// libheif decodes `output` to the same size as `original` (heif-convert; skips when it is missing).
    static func assertDecodes(_ output: MemoryByteSource, like original: String, in dir: URL,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let written = dir.appendingPathComponent("edited-\(UUID().uuidString.prefix(6)).heic").path
        try Data(output.bytes).write(to: URL(fileURLWithPath: written))
        let before = try ExternalTool.run("heif-info", [original])
        let after = try ExternalTool.run("heif-info", [written])
        let sizeLine = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix("image:") }.map(String.init) }
        XCTAssertNotNil(sizeLine(after), after, file: file, line: line)
        XCTAssertEqual(sizeLine(before), sizeLine(after), file: file, line: line)
        let png = written + ".jpg"
        let converted = try ExternalTool.runProgram(try XCTUnwrap(ExternalTool.path("heif-convert")), [written, png])
        XCTAssertEqual(converted.status, 0, converted.err, file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: png), file: file, line: line)
    }
}
