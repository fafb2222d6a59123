/// A HEIF `iloc` box decoded into values a writer can change and encode again (ISO/IEC 14496-12 8.11.3).
///
/// The parser's `HEIFMeta.Location` resolves base offsets away; a writer must keep them (and the field
/// widths) so that an unchanged table encodes to the very bytes it was read from.
struct HEIFItemLocationTable: Equatable {
    struct Extent: Equatable {
        var index: UInt64 = 0
        var offset: UInt64
        var length: UInt64
    }
    struct Entry: Equatable {
        var itemID: UInt32
        var constructionMethod: UInt16 = 0
        var dataReferenceIndex: UInt16 = 0
        var baseOffset: UInt64 = 0
        var extents: [Extent]
    }

    var version: UInt8
    var flags: UInt32
    /// Field widths in bytes (0, 4 or 8).
    var offsetSize: Int
    var lengthSize: Int
    var baseOffsetSize: Int
    var indexSize: Int
    var entries: [Entry]

    /// Decodes an iloc payload (everything after the box header).
    init(payload: [UInt8], limits: ParseLimits) throws(MediaError) {
        var r = ByteReader(payload)
        version = try r.readU8()
        flags = UInt32(try r.readU8()) << 16 | UInt32(try r.readU16())
        guard version <= 2 else { throw MediaError.unsupported("iloc version \(version)") }
        let sizes = try r.readU16()
        offsetSize = Int(sizes >> 12)
        lengthSize = Int(sizes >> 8 & 0xF)
        baseOffsetSize = Int(sizes >> 4 & 0xF)
        indexSize = version >= 1 ? Int(sizes & 0xF) : 0
        for size in [offsetSize, lengthSize, baseOffsetSize, indexSize] where ![0, 4, 8].contains(size) {
            throw MediaError.invalid("iloc field size \(size) (must be 0, 4 or 8)")
        }
        let count = version < 2 ? UInt64(try r.readU16()) : UInt64(try r.readU32())
        try r.requireEntries(count, of: 6, limit: limits.maxEntries, what: "iloc items")
        entries = []
        for _ in 0..<count {
            var entry = Entry(itemID: version < 2 ? UInt32(try r.readU16()) : try r.readU32(), extents: [])
            if version >= 1 { entry.constructionMethod = try r.readU16() }
            entry.dataReferenceIndex = try r.readU16()
            entry.baseOffset = try r.readUInt(size: baseOffsetSize)
            let extentCount = UInt64(try r.readU16())
            try r.requireEntries(extentCount, of: indexSize + offsetSize + lengthSize, limit: limits.maxEntries,
                                 what: "iloc extents of item \(entry.itemID)")
            for _ in 0..<extentCount {
                let index = try r.readUInt(size: indexSize)
                entry.extents.append(Extent(index: index, offset: try r.readUInt(size: offsetSize), length: try r.readUInt(size: lengthSize)))
            }
            entries.append(entry)
        }
    }

    /// Widens fields (to 4, then 8 bytes) and the version (to 2 for 32-bit ids) until every value fits.
    mutating func widenToFit() throws(MediaError) {
        func width(_ current: Int, for values: [UInt64]) -> Int {
            let needed = values.contains { $0 > UInt64(UInt32.max) } ? 8 : values.contains { $0 != 0 } ? 4 : 0
            return max(current, needed)
        }
        offsetSize = width(offsetSize, for: entries.flatMap { $0.extents.map(\.offset) })
        lengthSize = width(lengthSize, for: entries.flatMap { $0.extents.map(\.length) })
        baseOffsetSize = width(baseOffsetSize, for: entries.map(\.baseOffset))
        let indexes = entries.flatMap { $0.extents.map(\.index) }
        if version == 0 && (indexes.contains { $0 != 0 } || entries.contains { $0.constructionMethod != 0 }) { version = 1 }
        if version >= 1 { indexSize = width(indexSize, for: indexes) }
        if entries.contains(where: { $0.itemID > 0xFFFF }) || entries.count > 0xFFFF { version = 2 }
        guard entries.allSatisfy({ $0.extents.count <= 0xFFFF }) else { throw MediaError.limitExceeded("an iloc item with more than 65535 extents") }
    }

    /// The payload (without box header); values must fit their fields (see `widenToFit`).
    func encodedPayload() -> [UInt8] {
        var out: [UInt8] = [version] + Array(BigEndian.u32(flags).dropFirst())
        out += BigEndian.u16(UInt16(offsetSize << 12 | lengthSize << 8 | baseOffsetSize << 4 | (version >= 1 ? indexSize : 0)))
        out += version < 2 ? BigEndian.u16(UInt16(entries.count)) : BigEndian.u32(UInt32(entries.count))
        func field(_ value: UInt64, _ size: Int) -> [UInt8] {
            size == 8 ? BigEndian.u64(value) : size == 4 ? BigEndian.u32(UInt32(truncatingIfNeeded: value)) : []
        }
        for entry in entries {
            out += version < 2 ? BigEndian.u16(UInt16(truncatingIfNeeded: entry.itemID)) : BigEndian.u32(entry.itemID)
            if version >= 1 { out += BigEndian.u16(entry.constructionMethod) }
            out += BigEndian.u16(entry.dataReferenceIndex) + field(entry.baseOffset, baseOffsetSize)
            out += BigEndian.u16(UInt16(entry.extents.count))
            for extent in entry.extents {
                if version >= 1 { out += field(extent.index, indexSize) }
                out += field(extent.offset, offsetSize) + field(extent.length, lengthSize)
            }
        }
        return out
    }

    /// True for an entry whose extents are offsets in this file (construction method 0, no data reference).
    static func pointsIntoFile(_ entry: Entry) -> Bool { entry.constructionMethod & 0xF == 0 && entry.dataReferenceIndex == 0 }
}
