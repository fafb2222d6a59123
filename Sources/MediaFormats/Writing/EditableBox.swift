/// An ISO BMFF / QuickTime box held in memory so a writer can change it and serialise it again.
///
/// Writer-side only, and deliberately minimal: the parsers (formats-isobmff) describe what a file *is*;
/// this model only keeps the bytes needed to write a moov back out. Containers the writers descend into
/// are split into children; every other box keeps its payload verbatim.
struct EditableBox: Sendable {
    var type: String
    /// Leaf: everything after the header. Container: bytes before the first child (a full box's
    /// version/flags, e.g. an ISO `meta`); empty for plain containers.
    var payload: [UInt8]
    var children: [EditableBox]?

    init(_ type: String, payload: [UInt8] = [], children: [EditableBox]? = nil) {
        self.type = type
        self.payload = payload
        self.children = children
    }

    /// Boxes whose children the writers need to reach (moov/trak/mdia/minf/stbl/edts, meta, tref).
    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "tref", "meta"]

    var size: Int {
        let body = payload.count + (children?.reduce(0) { $0 + $1.size } ?? 0)
        return body + 8 > Int(UInt32.max) ? body + 16 : body + 8
    }

    func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(size)
        append(to: &out)
        return out
    }

    func append(to out: inout [UInt8]) {
        let total = size
        if total > Int(UInt32.max) {
            out += BigEndian.u32(1) + Array(type.utf8.prefix(4)) + BigEndian.u64(UInt64(total))
        } else {
            out += BigEndian.u32(UInt32(total)) + Array(type.utf8.prefix(4))
        }
        out += payload
        for child in children ?? [] { child.append(to: &out) }
    }

    // MARK: navigation

    func child(_ type: String) -> EditableBox? { children?.first { $0.type == type } }

    /// The first descendant along `path` ("mdia/minf/stbl").
    func descendant(_ path: String) -> EditableBox? {
        var box: EditableBox? = self
        for part in path.split(separator: "/") { box = box?.child(String(part)) }
        return box
    }

    /// Replaces (or, with `create`, adds) the descendant at `path`; returns false when a parent is missing.
    @discardableResult
    mutating func modify(_ path: String, _ body: (inout EditableBox) throws(MediaError) -> Void) throws(MediaError) -> Bool {
        let parts = path.split(separator: "/").map(String.init)
        guard let first = parts.first else { try body(&self); return true }
        guard var kids = children, let index = kids.firstIndex(where: { $0.type == first }) else { return false }
        let found = try kids[index].modify(parts.dropFirst().joined(separator: "/"), body)
        children = kids
        return found
    }

    // MARK: parsing

    /// Parses the boxes filling `bytes` (a container's body). `depth` bounds recursion.
    static func parseList(_ bytes: ArraySlice<UInt8>, depth: Int, limits: ParseLimits, context: String) throws(MediaError) -> [EditableBox] {
        guard depth <= limits.maxDepth else { throw MediaError.limitExceeded("\(context): boxes nested deeper than \(limits.maxDepth)") }
        var boxes: [EditableBox] = []
        var reader = ByteReader(Array(bytes))
        while reader.remaining >= 8 {
            guard boxes.count < limits.maxEntries else { throw MediaError.limitExceeded("\(context): more than \(limits.maxEntries) boxes") }
            let start = reader.position
            var size = UInt64(try reader.readU32())
            let type = try reader.readFourCC()
            if size == 1 { size = try reader.readU64() } else if size == 0 { size = UInt64(reader.count - start) }
            let headerLength = reader.position - start
            guard size >= UInt64(headerLength), size <= UInt64(reader.count - start) else {
                throw MediaError.invalid("\(context)/\(type): box size \(size) does not fit in its parent")
            }
            let body = try reader.readBytes(Int(size) - headerLength)
            boxes.append(try parse(type: type, body: body, depth: depth + 1, limits: limits, context: "\(context)/\(type)"))
        }
        if reader.remaining > 0 && reader.bytes[reader.position...].contains(where: { $0 != 0 }) {
            throw MediaError.invalid("\(context): \(reader.remaining) stray byte(s) after the last box")
        }
        return boxes
    }

    static func parse(type: String, body: [UInt8], depth: Int, limits: ParseLimits, context: String) throws(MediaError) -> EditableBox {
        guard containers.contains(type) else { return EditableBox(type, payload: body) }
        var prefix = 0
        if type == "meta" {
            // ISO meta is a full box (4 bytes of version/flags before the children); QuickTime's is not.
            let looksLikeFullBox = body.count >= 12 && body[0..<4].allSatisfy { $0 == 0 }
                && String(decoding: body[8..<12], as: UTF8.self) == "hdlr"
            prefix = looksLikeFullBox ? 4 : 0
        }
        let children = try parseList(body[prefix...], depth: depth, limits: limits, context: context)
        return EditableBox(type, payload: Array(body[0..<prefix]), children: children)
    }
}

/// A top-level box of a file: its type and where it lies, without loading it.
struct TopLevelBox: Sendable {
    var type: String
    var range: ByteRange
    var headerLength: Int
    var payload: ByteRange { ByteRange(offset: range.offset + UInt64(headerLength), length: range.length - UInt64(headerLength)) }

    /// Walks the top level of an ISO BMFF file (a few header reads, never the payloads).
    static func list(_ source: any ByteSource, limits: ParseLimits) throws(MediaError) -> [TopLevelBox] {
        var boxes: [TopLevelBox] = []
        var offset: UInt64 = 0
        while offset < source.size {
            guard boxes.count < limits.maxEntries else { throw MediaError.limitExceeded("more than \(limits.maxEntries) top-level boxes") }
            guard source.size - offset >= 8 else {
                throw MediaError.invalid("\(source.size - offset) stray byte(s) at the end of the file (offset \(offset))")
            }
            var reader = try source.reader(at: offset, count: 16)
            var size = UInt64(try reader.readU32())
            let type = try reader.readFourCC()
            if size == 1 { size = try reader.readU64() } else if size == 0 { size = source.size - offset }
            let header = reader.position
            guard size >= UInt64(header) else { throw MediaError.invalid("the '\(type)' box at offset \(offset) declares an impossible size \(size)") }
            guard size <= source.size - offset else {
                throw MediaError.invalid("the file is truncated: its '\(type)' box at offset \(offset) declares \(size) bytes but only \(source.size - offset) remain")
            }
            boxes.append(TopLevelBox(type: type, range: ByteRange(offset: offset, length: size), headerLength: header))
            offset += size
        }
        return boxes
    }
}

/// Big-endian integer encoding for the writers.
enum BigEndian {
    static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func u64(_ v: UInt64) -> [UInt8] { u32(UInt32(v >> 32)) + u32(UInt32(v & 0xFFFF_FFFF)) }
    static func i32(_ v: Int32) -> [UInt8] { u32(UInt32(bitPattern: v)) }

    /// Reads a big-endian integer of `width` bytes at `index`, or nil out of range.
    static func read(_ bytes: [UInt8], at index: Int, width: Int) -> UInt64? {
        guard index >= 0, width > 0, index + width <= bytes.count else { return nil }
        return bytes[index..<index + width].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Overwrites `width` bytes at `index` (the caller checked the range).
    static func write(_ value: UInt64, into bytes: inout [UInt8], at index: Int, width: Int) {
        for i in 0..<width { bytes[index + i] = UInt8((value >> (8 * UInt64(width - 1 - i))) & 0xFF) }
    }
}
