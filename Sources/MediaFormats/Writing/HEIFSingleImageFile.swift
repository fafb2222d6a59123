/// A HEIF file holding one image item of another HEIF file, as its primary image: its coded bytes and its
/// own property boxes (`hvcC`, `ispe`, `irot`, `colr`...) copied byte for byte, nothing else (issue 28.1).
///
/// What it is for: a remote HEIC's thumbnail item lies in the head range already fetched (an iPhone's
/// 320x240 thumbnail ends some 30 KB into the file), and this file is that thumbnail as a picture of its own,
/// drawn by the ordinary HEIF decoder and probed like any still, while the rest of the file (megabytes of
/// tiles) is never fetched for a grid cell.
///
/// The layout is the smallest a HEIF reader takes (ISO/IEC 23008-12): `ftyp`, then `meta` with `hdlr`
/// (`pict`), `pitm`, `iinf` with one `infe`, `iprp` (`ipco` + `ipma`) and `iloc` with one extent into the
/// `mdat` that follows.
public enum HEIFSingleImageFile {
    /// The file of `itemID` of `meta`, its data and property boxes read from `source` (a missing byte throws,
    /// as the source's reads do). Only `hvc1` items: a grid's tiles would be items of their own.
    public static func make(itemID: UInt32, of meta: HEIFMeta, source: any ByteSource,
                            limits: ParseLimits = .default) throws(MediaError) -> [UInt8] {
        guard let item = meta.item(itemID), item.type == "hvc1" else {
            throw MediaError.unsupported("item \(itemID) is not a single HEVC image")
        }
        guard let propertyBoxes = meta.box?.child("iprp")?.child("ipco")?.children else {
            throw MediaError.invalid("meta has no ipco")
        }
        var properties: [(box: [UInt8], essential: Bool)] = []
        for association in meta.associations[itemID] ?? [] {
            // 0 is "no property"; an index past ipco would be a broken file, which the reader refused already.
            guard association.propertyIndex >= 1, association.propertyIndex <= propertyBoxes.count else { continue }
            let box = propertyBoxes[association.propertyIndex - 1]
            guard box.range.length <= UInt64(limits.maxStructureBytes) else {
                throw MediaError.limitExceeded("property box of \(box.range.length) bytes")
            }
            properties.append((try source.readExactly(at: box.range.offset, count: Int(box.range.length)), association.essential))
        }
        guard properties.count <= 127 else { throw MediaError.unsupported("item \(itemID) has \(properties.count) properties") }
        let coded = try meta.data(of: itemID, from: source, limits: limits).bytes
        return assemble(properties: properties, coded: coded)
    }

    /// The file's bytes: `properties` are whole boxes (header included), associated in this order.
    static func assemble(properties: [(box: [UInt8], essential: Bool)], coded: [UInt8]) -> [UInt8] {
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let hdlr = fullBox("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 12) + [0])
        let pitm = fullBox("pitm", uint16(1))
        let infe = fullBox("infe", version: 2, uint16(1) + uint16(0) + Array("hvc1".utf8) + [0])
        let iinf = fullBox("iinf", uint16(1) + infe)
        let ipco = box("ipco", properties.flatMap(\.box))
        let ipma = fullBox("ipma", uint32(1) + uint16(1) + [UInt8(properties.count)]
                           + properties.enumerated().map { UInt8($0.offset + 1) | ($0.element.essential ? 0x80 : 0) })
        let iprp = box("iprp", ipco + ipma)
        // iloc version 0, 4-byte offsets and lengths, no base offset; its size does not depend on the offset.
        func iloc(dataOffset: UInt32) -> [UInt8] {
            fullBox("iloc", [0x44, 0x00] + uint16(1) + uint16(1) + uint16(0) + uint16(1)
                    + uint32(dataOffset) + uint32(UInt32(coded.count)))
        }
        let metaSize = 12 + hdlr.count + pitm.count + iinf.count + iprp.count + iloc(dataOffset: 0).count
        let dataOffset = UInt32(ftyp.count + metaSize + 8)
        let meta = fullBox("meta", hdlr + pitm + iinf + iprp + iloc(dataOffset: dataOffset))
        return ftyp + meta + box("mdat", coded)
    }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        uint32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    private static func fullBox(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, 0] + payload)
    }

    private static func uint16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
