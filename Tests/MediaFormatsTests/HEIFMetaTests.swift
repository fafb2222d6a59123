import XCTest
@testable import MediaFormats

/// The less common box versions of HEIF `meta`: iloc 0/2 with base offsets, index sizes and several
/// extents, idat items, 32-bit iref ids, wide ipma indices, infe version 3.
final class HEIFMetaTests: XCTestCase {
    typealias B = ISOBoxBuilder

    private func parse(_ meta: [UInt8], baseOffset: UInt64 = 0) throws -> HEIFMeta {
        var problems: [ParseProblem] = []
        let structure = try ISOStructure.parse(ByteReader(meta, baseOffset: baseOffset), limits: .default, context: "meta",
                                               problems: &problems)
        XCTAssertEqual(problems, [])
        return HEIFMeta.parse(structure, limits: .default)
    }

    private func meta(_ children: [[UInt8]]) -> [UInt8] {
        B.fullBox("meta", B.fullBox("hdlr", B.u32(0) + B.fourCC("pict") + Array(repeating: 0, count: 13)) + children.flatMap { $0 })
    }

    func testILocVersion0WithBaseOffsetAndTwoExtentsIsConcatenated() throws {
        // offset_size 4, length_size 2, base_offset_size 4 (version 0 has no index size).
        let iloc = B.fullBox("iloc", version: 0, [0x42, 0x40] + B.u16(1)
                                 + B.u16(7) + B.u16(0) + B.u32(100) + B.u16(2) + B.u32(0) + B.u16(3) + B.u32(10) + B.u16(2))
        let parsed = try parse(meta([iloc]))
        XCTAssertEqual(parsed.locations[7]?.extents, [ByteRange(offset: 100, length: 3), ByteRange(offset: 110, length: 2)])
        var file = Array(repeating: UInt8(0), count: 120)
        file.replaceSubrange(100..<103, with: [1, 2, 3])
        file.replaceSubrange(110..<112, with: [4, 5])
        let (bytes, offset) = try parsed.data(of: 7, from: MemoryByteSource(file), limits: .default)
        XCTAssertEqual(bytes, [1, 2, 3, 4, 5])
        XCTAssertEqual(offset, 100)
    }

    func testILocVersion2With32BitIDsIndexSizeAnd64BitOffsets() throws {
        // offset_size 8, length_size 4, base_offset_size 0, index_size 4.
        let iloc = B.fullBox("iloc", version: 2, [0x84, 0x04] + B.u32(1)
                                 + B.u32(70_000) + B.u16(0) + B.u16(0) + B.u16(1) + B.u32(9) + B.u64(1 << 33) + B.u32(16))
        let parsed = try parse(meta([iloc]))
        XCTAssertEqual(parsed.locations[70_000]?.extents, [ByteRange(offset: 1 << 33, length: 16)])
        XCTAssertThrowsError(try parsed.fileExtents(of: 70_000, fileSize: 1000)) { error in
            XCTAssertTrue("\(error)".contains("outside the file"))
        }
    }

    func testIdatItemAndLengthZeroExtent() throws {
        // Construction method 1: offsets relative to the idat payload; length 0 = to its end.
        let iloc = B.fullBox("iloc", version: 1, [0x44, 0x00] + B.u16(1)
                                 + B.u16(3) + B.u16(1) + B.u16(0) + B.u16(1) + B.u32(2) + B.u32(0))
        let idat = B.box("idat", [9, 9, 0, 1, 0x0F, 0xC0, 0x0B, 0xD0])
        let bytes = meta([iloc, idat])
        let parsed = try parse(bytes, baseOffset: 50)
        let (data, offset) = try parsed.data(of: 3, from: MemoryByteSource(Array(repeating: 0, count: 50) + bytes), limits: .default)
        XCTAssertEqual(data, [0, 1, 0x0F, 0xC0, 0x0B, 0xD0])
        XCTAssertEqual(offset, 50 + UInt64(bytes.count) - 6)
    }

    func testIrefVersion1WideIpmaAndInfeVersion3() throws {
        let infe = B.fullBox("infe", version: 3, B.u32(100_000) + B.u16(0) + B.fourCC("hvc1") + B.cString("big"))
        let mime = B.fullBox("infe", version: 2, B.u16(5) + B.u16(0) + B.fourCC("mime") + B.cString("XMP")
                                 + B.cString("application/rdf+xml"))
        let iinf = B.fullBox("iinf", version: 1, B.u32(2) + infe + mime)
        let iref = B.fullBox("iref", version: 1, B.box("thmb", B.u32(200_000) + B.u16(1) + B.u32(100_000)))
        let pitm = B.fullBox("pitm", version: 1, B.u32(100_000))
        // 130 properties so that index 130 needs the 15-bit form.
        var properties = Array(repeating: B.box("free", []), count: 129)
        properties.append(B.ispe(4000, 3000))
        let ipco = B.container("ipco", properties)
        let ipma = B.fullBox("ipma", version: 1, flags: 1, B.u32(1) + B.u32(100_000) + B.u8(1) + B.u16(0x8000 | 130))
        let parsed = try parse(meta([pitm, iinf, iref, B.container("iprp", [ipco, ipma])]))
        XCTAssertEqual(parsed.primaryItemID, 100_000)
        XCTAssertEqual(parsed.item(100_000)?.type, "hvc1")
        XCTAssertEqual(parsed.item(5)?.contentType, "application/rdf+xml")
        XCTAssertEqual(parsed.items(referring: "thmb", to: 100_000), [200_000])
        XCTAssertEqual(parsed.associations[100_000], [HEIFMeta.Association(propertyIndex: 130, essential: true)])
        XCTAssertEqual(parsed.spatialExtent(of: 100_000)?.width, 4000)
        XCTAssertEqual(parsed.problems, [])
    }
}
