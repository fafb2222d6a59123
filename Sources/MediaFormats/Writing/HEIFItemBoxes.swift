/// `iinf` decoded just enough to append entries: the `infe` boxes stay as their original bytes.
struct HEIFItemInfoBox {
    var version: UInt8
    var flags: UInt32
    /// Every `infe` box, header included, in order.
    var entries: [[UInt8]]
    /// Item ids of the entries (all infe versions carry one).
    var itemIDs: [UInt32]

    init(payload: [UInt8], limits: ParseLimits) throws(MediaError) {
        var r = ByteReader(payload)
        version = try r.readU8()
        flags = UInt32(try r.readU8()) << 16 | UInt32(try r.readU16())
        let count = version == 0 ? UInt64(try r.readU16()) : UInt64(try r.readU32())
        try r.requireEntries(count, of: 14, limit: limits.maxEntries, what: "iinf")
        entries = []
        itemIDs = []
        while r.remaining >= 8 {
            let start = r.position
            let size = Int(try r.readU32())
            let type = try r.readFourCC()
            guard size >= 14, size <= r.remaining + 8 else { throw MediaError.invalid("iinf: a '\(type)' box of size \(size) does not fit") }
            let entryVersion = try r.readU8()
            try r.skip(3)
            if type == "infe" {
                itemIDs.append(entryVersion >= 3 ? try r.readU32() : UInt32(try r.readU16()))
            }
            try r.seek(to: start)
            entries.append(try r.readBytes(size))
        }
        guard UInt64(entries.count) == count else {
            throw MediaError.invalid("iinf declares \(count) entries but holds \(entries.count)")
        }
    }

    /// A version 2 `infe` (version 3 for ids above 65535), hidden as the camera's metadata items are.
    static func entry(itemID: UInt32, type: String, contentType: String?, hidden: Bool = true) -> [UInt8] {
        let wide = itemID > 0xFFFF
        var payload: [UInt8] = [wide ? 3 : 2, 0, 0, hidden ? 1 : 0]
        payload += wide ? BigEndian.u32(itemID) : BigEndian.u16(UInt16(itemID))
        payload += BigEndian.u16(0) + Array(type.utf8.prefix(4)) + [0] // protection index, type, empty name
        if let contentType { payload += Array(contentType.utf8) + [0] }
        return BigEndian.u32(UInt32(8 + payload.count)) + Array("infe".utf8) + payload
    }

    mutating func append(_ entry: [UInt8], itemID: UInt32) {
        entries.append(entry)
        itemIDs.append(itemID)
    }

    func encodedPayload() -> [UInt8] {
        let wide = version > 0 || entries.count > 0xFFFF
        var out: [UInt8] = [wide ? max(version, 1) : 0] + Array(BigEndian.u32(flags).dropFirst())
        out += wide ? BigEndian.u32(UInt32(entries.count)) : BigEndian.u16(UInt16(entries.count))
        for entry in entries { out += entry }
        return out
    }
}

/// `iref` decoded into references; encoded back with 16-bit ids (version 0) unless an id needs 32 bits.
struct HEIFItemReferenceBox {
    var version: UInt8
    var flags: UInt32
    var references: [HEIFMeta.Reference]

    init() {
        version = 0
        flags = 0
        references = []
    }

    init(payload: [UInt8], limits: ParseLimits) throws(MediaError) {
        var r = ByteReader(payload)
        version = try r.readU8()
        flags = UInt32(try r.readU8()) << 16 | UInt32(try r.readU16())
        guard version <= 1 else { throw MediaError.unsupported("iref version \(version)") }
        let idSize = version == 0 ? 2 : 4
        references = []
        while r.remaining >= 8 {
            guard references.count < limits.maxEntries else { throw MediaError.limitExceeded("iref with more than \(limits.maxEntries) references") }
            let size = Int(try r.readU32())
            let type = try r.readFourCC()
            guard size >= 8 + idSize + 2, size - 8 <= r.remaining else { throw MediaError.invalid("iref: '\(type)' of size \(size) does not fit") }
            var body = ByteReader(try r.readBytes(size - 8))
            let from = UInt32(try body.readUInt(size: idSize))
            let count = UInt64(try body.readU16())
            try body.requireEntries(count, of: idSize, limit: limits.maxEntries, what: "iref \(type)")
            var to: [UInt32] = []
            for _ in 0..<count { to.append(UInt32(try body.readUInt(size: idSize))) }
            guard body.remaining == 0 else { throw MediaError.invalid("iref: '\(type)' has \(body.remaining) stray byte(s)") }
            references.append(HEIFMeta.Reference(type: type, from: from, to: to))
        }
        guard r.remaining == 0 else { throw MediaError.invalid("iref: \(r.remaining) stray byte(s)") }
    }

    func encodedPayload() -> [UInt8] {
        let ids = references.flatMap { [$0.from] + $0.to }
        let wide = version == 1 || ids.contains { $0 > 0xFFFF }
        var out: [UInt8] = [wide ? 1 : 0] + Array(BigEndian.u32(flags).dropFirst())
        func id(_ value: UInt32) -> [UInt8] { wide ? BigEndian.u32(value) : BigEndian.u16(UInt16(value)) }
        for reference in references {
            let body = id(reference.from) + BigEndian.u16(UInt16(reference.to.count)) + reference.to.flatMap(id)
            out += BigEndian.u32(UInt32(8 + body.count)) + Array(reference.type.utf8.prefix(4)) + body
        }
        return out
    }
}
