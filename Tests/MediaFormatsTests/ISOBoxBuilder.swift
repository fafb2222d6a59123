/// Builds ISO BMFF bytes for generated test inputs (big-endian, as the format is).
enum ISOBoxBuilder {
    static func u8(_ v: UInt8) -> [UInt8] { [v] }
    static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func u32(_ v: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
    static func i32(_ v: Int32) -> [UInt8] { u32(UInt32(bitPattern: v)) }
    static func u64(_ v: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
    static func fourCC(_ s: String) -> [UInt8] { Array(s.utf8) }
    static func cString(_ s: String) -> [UInt8] { Array(s.utf8) + [0] }

    /// A box with a 32-bit size.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(UInt32(8 + payload.count)) + fourCC(type) + payload
    }
    static func container(_ type: String, _ children: [[UInt8]]) -> [UInt8] { box(type, children.flatMap { $0 }) }
    /// A box with size 1 and a 64-bit largesize.
    static func largeBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(1) + fourCC(type) + u64(UInt64(16 + payload.count)) + payload
    }
    /// A box with size 0: it extends to the end of the file.
    static func openEndedBox(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32(0) + fourCC(type) + payload }
    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(u32(flags).dropFirst()) + payload)
    }

    // MARK: movies

    /// A one-video-track QuickTime movie with mdta metadata; `moovLast` puts moov after mdat.
    static func movie(identifier: String = "0BADF00D-0000-4000-8000-000000000001", moovLast: Bool = true,
                      matrix: [Int32] = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000],
                      largeMoov: Bool = false, openEndedLast: Bool = false, compositionOffset: UInt32? = nil) -> [UInt8] {
        let ftyp = box("ftyp", fourCC("qt  ") + u32(0) + fourCC("qt  "))
        let sampleData: [UInt8] = Array(repeating: 0xAB, count: 10) + Array(repeating: 0xCD, count: 20)
        let mdatHeader = 8
        // Sample offsets depend on where mdat lands.
        func build(mdatOffset: Int) -> [UInt8] {
            moovBox(identifier: identifier, matrix: matrix, chunkOffset: UInt32(mdatOffset + mdatHeader), large: largeMoov,
                    compositionOffset: compositionOffset)
        }
        if moovLast {
            let mdatOffset = ftyp.count
            let mdat = box("mdat", sampleData)
            let moov = build(mdatOffset: mdatOffset)
            if openEndedLast {
                return ftyp + mdat + openEndedBox("moov", Array(moov.dropFirst(largeMoov ? 16 : 8)))
            }
            return ftyp + mdat + moov
        }
        let moovSize = build(mdatOffset: 0).count
        let moov = build(mdatOffset: ftyp.count + moovSize)
        let mdat = openEndedLast ? openEndedBox("mdat", sampleData) : box("mdat", sampleData)
        return ftyp + moov + mdat
    }

    static func moovBox(identifier: String, matrix: [Int32], chunkOffset: UInt32, large: Bool,
                        compositionOffset: UInt32? = nil) -> [UInt8] {
        let mvhd = fullBox("mvhd", u32(0) + u32(0) + u32(600) + u32(1200) + Array(repeating: 0, count: 80))
        let tkhd = fullBox("tkhd", flags: 1, u32(0) + u32(0) + u32(1) + u32(0) + u32(1200) + Array(repeating: 0, count: 16)
                               + matrix.flatMap(i32) + u32(640 << 16) + u32(480 << 16))
        let mdhd = fullBox("mdhd", u32(0) + u32(0) + u32(600) + u32(1200) + u32(0))
        let hdlr = fullBox("hdlr", u32(0) + fourCC("vide") + Array(repeating: 0, count: 13))
        let avc1 = box("avc1", Array(repeating: 0, count: 6) + u16(1) + Array(repeating: 0, count: 16) + u16(640) + u16(480)
                           + Array(repeating: 0, count: 50))
        let stsd = fullBox("stsd", u32(1) + avc1)
        let stts = fullBox("stts", u32(1) + u32(2) + u32(600))
        let stsc = fullBox("stsc", u32(1) + u32(1) + u32(2) + u32(1))
        let stsz = fullBox("stsz", u32(0) + u32(2) + u32(10) + u32(20))
        let stco = fullBox("stco", u32(1) + u32(chunkOffset))
        let ctts = compositionOffset.map { fullBox("ctts", u32(1) + u32(2) + u32($0)) } ?? []
        let stbl = container("stbl", [stsd, stts, ctts, stsc, stsz, stco])
        let trak = container("trak", [tkhd, container("mdia", [mdhd, hdlr, container("minf", [stbl])])])
        let keys = ["com.apple.quicktime.content.identifier", "com.apple.quicktime.live-photo.vitality-score"]
        let keysBox = fullBox("keys", u32(UInt32(keys.count)) + keys.flatMap { u32(UInt32(8 + $0.utf8.count)) + fourCC("mdta") + Array($0.utf8) })
        let idData = box("data", u32(1) + u32(0) + Array(identifier.utf8))
        let scoreData = box("data", u32(23) + u32(0) + u32(Float(0.75).bitPattern))
        let ilst = container("ilst", [box(String(decoding: u32(1), as: UTF8.self), idData), box(String(decoding: u32(2), as: UTF8.self), scoreData)])
        let meta = container("meta", [box("hdlr", u32(0) + u32(0) + fourCC("mdta") + Array(repeating: 0, count: 12)), keysBox, ilst])
        let payload = [mvhd, trak, meta].flatMap { $0 }
        return large ? largeBox("moov", payload) : box("moov", payload)
    }

    // MARK: HEIF

    struct HEIFItemSpec {
        var id: UInt16
        var type: String
        var contentType: String? = nil
        /// File offset and length of its single extent (construction method 0).
        var offset: UInt32 = 0
        var length: UInt32 = 0
    }

    /// A HEIF `meta` box. The iloc uses version 1 with 4-byte offsets and lengths.
    static func heifMeta(primary: UInt16, items: [HEIFItemSpec], references: [(String, UInt16, [UInt16])],
                         properties: [[UInt8]], associations: [(UInt16, [UInt8])]) -> [UInt8] {
        let hdlr = fullBox("hdlr", u32(0) + fourCC("pict") + Array(repeating: 0, count: 13))
        let pitm = fullBox("pitm", u16(primary))
        let infes: [[UInt8]] = items.map { item in
            let head: [UInt8] = u16(item.id) + u16(0) + fourCC(item.type) + cString("")
            let tail: [UInt8] = item.contentType.map(cString) ?? []
            return fullBox("infe", version: 2, head + tail)
        }
        let iinf = fullBox("iinf", u16(UInt16(items.count)) + infes.flatMap { $0 })
        let locations: [UInt8] = items.flatMap { (item: HEIFItemSpec) -> [UInt8] in
            let head: [UInt8] = u16(item.id) + u16(0) + u16(0) + u16(1)
            return head + u32(item.offset) + u32(item.length)
        }
        let iloc = fullBox("iloc", version: 1, u8(0x44) + u8(0x00) + u16(UInt16(items.count)) + locations)
        let refs: [UInt8] = references.flatMap { (ref: (String, UInt16, [UInt16])) -> [UInt8] in
            let ids: [UInt8] = ref.2.flatMap(u16)
            return box(ref.0, u16(ref.1) + u16(UInt16(ref.2.count)) + ids)
        }
        let iref = fullBox("iref", refs)
        let ipco = container("ipco", properties)
        let entries: [UInt8] = associations.flatMap { (a: (UInt16, [UInt8])) -> [UInt8] in u16(a.0) + u8(UInt8(a.1.count)) + a.1 }
        let ipma = fullBox("ipma", u32(UInt32(associations.count)) + entries)
        return fullBox("meta", [hdlr, pitm, iinf, iloc, iref, container("iprp", [ipco, ipma])].flatMap { $0 })
    }

    static func ispe(_ w: UInt32, _ h: UInt32) -> [UInt8] { fullBox("ispe", u32(w) + u32(h)) }

    /// A minimal big-endian TIFF with one IFD0 entry: Make = "Test".
    static func tinyTIFF() -> [UInt8] {
        fourCC("MM") + u16(42) + u32(8) + u16(1) + u16(0x010F) + u16(2) + u32(5) + u32(26) + u32(0) + cString("Test")
    }
}
