/// QuickTime `mdta` metadata: `moov/meta` with hdlr `mdta`, a `keys` table and an `ilst` whose item
/// types are 1-based indices into it.
public struct QuickTimeMetadata: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case string(String)
        case float(Double)
        case integer(Int64)
        case data(type: UInt32, bytes: [UInt8])

        /// The text of a `.string` value.
        public var string: String? {
            if case .string(let s) = self { return s }
            return nil
        }

        /// A number, or text that reads as one.
        public var number: Double? {
            switch self {
            case .float(let v): return v
            case .integer(let v): return Double(v)
            case .string(let s): return Double(s)
            default: return nil
            }
        }
    }

    /// Key (e.g. `com.apple.quicktime.content.identifier`) → first value.
    public var values: [String: Value] = [:]
    /// Keys in table order (index 1 first), for a future writer.
    public var keys: [String] = []

    public func string(_ key: String) -> String? { values[key]?.string }

    public func number(_ key: String) -> Double? { values[key]?.number }

    static func parse(_ meta: ISOBox, in structure: ISOStructure, limits: ParseLimits,
                      problems: inout [ParseProblem]) throws(MediaError) -> QuickTimeMetadata {
        var result = QuickTimeMetadata()
        guard let keysBox = meta.child("keys"), let ilst = meta.child("ilst") else { return result }
        // iTunes-style `mdir` metadata types its ilst items by four-character codes, not key indices.
        if let hdlr = meta.child("hdlr") {
            var h = try structure.fullBoxPayload(of: hdlr).reader
            try h.skip(4)
            let handler = try h.readFourCC()
            guard handler == "mdta" else { return result }
        }
        var r = try structure.fullBoxPayload(of: keysBox).reader
        let count = UInt64(try r.readU32())
        try r.requireEntries(count, of: 8, limit: limits.maxEntries, what: "keys")
        for _ in 0..<count {
            let size = Int(try r.readU32())
            guard size >= 8 else { throw MediaError.invalid("keys entry of \(size) bytes") }
            var entry = try r.subReader(size - 4)
            _ = try entry.readFourCC() // namespace, `mdta`
            result.keys.append(String(decoding: try entry.readBytes(entry.remaining), as: UTF8.self))
        }
        for item in ilst.children {
            // The item's type is the big-endian key index.
            let index = item.typeCode
            guard index >= 1, index <= UInt32(result.keys.count) else {
                problems.append(ParseProblem(.warning, "quicktime/meta/ilst", "item refers to no key"))
                continue
            }
            var body = try structure.payload(of: item)
            let dataBoxes = ISOBox.parseSequence(&body, depth: 5, limits: limits, context: "quicktime/meta/ilst", problems: &problems)
            guard let data = dataBoxes.first(where: { $0.type == "data" }) else { continue }
            let key = result.keys[Int(index) - 1]
            if result.values[key] == nil {
                result.values[key] = try parseDataValue(data, in: structure)
            }
        }
        return result
    }

    /// A `data` atom: type indicator (type set byte + 24-bit well-known type), locale, value.
    static func parseDataValue(_ box: ISOBox, in structure: ISOStructure) throws(MediaError) -> Value {
        try parseDataValue(payload: structure.payload(of: box))
    }

    /// A `data` atom's value from its payload.
    static func parseDataValue(payload: ByteReader) throws(MediaError) -> Value {
        var r = payload
        let type = try r.readU32() & 0xFF_FFFF
        _ = try r.readU32() // locale
        let bytes = try r.readBytes(r.remaining)
        var v = ByteReader(bytes)
        switch (type, bytes.count) {
        case (1, _): return .string(String(decoding: bytes, as: UTF8.self))
        case (23, 4): return .float(Double(Float(bitPattern: try v.readU32())))
        case (24, 8): return .float(Double(bitPattern: try v.readU64()))
        case (21, 1): return .integer(Int64(Int8(bitPattern: try v.readU8())))
        case (21, 2): return .integer(Int64(try v.readI16()))
        case (21, 4): return .integer(Int64(try v.readI32()))
        case (21, 8): return .integer(try v.readI64())
        case (22, 1): return .integer(Int64(try v.readU8()))
        case (22, 2): return .integer(Int64(try v.readU16()))
        case (22, 4): return .integer(Int64(try v.readU32()))
        default: return .data(type: type, bytes: bytes)
        }
    }
}
