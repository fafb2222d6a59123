/// Answers "would `ISOBox.parse` read these boxes without a problem?" without building the tree.
///
/// The probe-only walks (`HEIFMeta.parseForProbe`) use it to prove, before taking any shortcut, that the full
/// parser would have reported nothing: the same headers, sizes, depth and entry limits are checked in the
/// same order, and nothing is allocated. A `false` sends the caller back to the full parser, which then
/// reports the problem in its own words.
enum ISOTreeCheck {
    static let uuid = fourCCCode("uuid")
    static let meta = fourCCCode("meta")

    /// A box header as `ISOBoxHeader.read` validates it, without the type text.
    struct Header {
        var typeCode: UInt32
        var size: UInt64
        var headerSize: Int
    }

    /// Reads a header at `r`'s position; nil where `ISOBoxHeader.read` would throw. Inlined: it runs for
    /// every box the probe-only walks and their checks visit (the most frequent call of a movie's probe).
    @inline(__always)
    static func header(_ r: inout ByteReader, available: UInt64) -> Header? {
        do throws(MediaError) {
            let size32 = try r.readU32()
            let typeCode = try r.readU32()
            var headerSize = 8
            var size: UInt64
            switch size32 {
            case 0: size = available
            case 1:
                size = try r.readU64()
                headerSize += 8
            default: size = UInt64(size32)
            }
            if typeCode == uuid {
                try r.skip(16)
                headerSize += 16
            }
            guard size >= UInt64(headerSize), size <= available else { return nil }
            return Header(typeCode: typeCode, size: size, headerSize: headerSize)
        } catch {
            return nil
        }
    }

    /// Reads one box (header and payload) at `r`'s position, skipping past it: its payload as a window (no
    /// copy), or nil where the header is broken.
    @inline(__always)
    static func nextBox(_ r: inout ByteReader) -> (header: Header, payload: ByteReader)? {
        guard let header = header(&r, available: UInt64(r.remaining)),
              let payload = try? r.subReader(Int(header.size) - header.headerSize) else { return nil }
        return (header, payload)
    }

    /// True when `ISOBox.parse` at nesting level `depth` reads the box at `r`'s position and everything it
    /// descends into without a problem. Advances `r` past the box.
    static func box(_ r: inout ByteReader, depth: Int, limits: ParseLimits) -> Bool {
        guard let (header, payload) = nextBox(&r) else { return false }
        guard ISOBox.isContainer(header.typeCode) else { return true }
        guard depth < limits.maxDepth else { return false }
        var body = payload
        let offset = childrenOffset(typeCode: header.typeCode, payload: body)
        guard (try? body.skip(min(offset, body.remaining))) != nil else { return false }
        return sequence(&body, depth: depth + 1, limits: limits)
    }

    /// True when `ISOBox.parseSequence` reads the boxes from `r`'s position to its end without a problem
    /// (fewer than 8 trailing bytes are ignored there too).
    static func sequence(_ r: inout ByteReader, depth: Int, limits: ParseLimits) -> Bool {
        var count = 0
        while r.remaining >= 8 {
            guard count < limits.maxEntries, box(&r, depth: depth, limits: limits) else { return false }
            count += 1
        }
        return true
    }

    /// Where a container's children start in `payload` (see `ISOBox.childrenOffset`).
    static func childrenOffset(typeCode: UInt32, payload: ByteReader) -> Int {
        typeCode == meta ? ISOBox.childrenOffset(type: "meta", payload: payload) : 0
    }
}

/// The big-endian code of a four-character type written in the source (`"ipco"`).
func fourCCCode(_ text: StaticString) -> UInt32 {
    var code: UInt32 = 0
    text.withUTF8Buffer { for byte in $0.prefix(4) { code = code << 8 | UInt32(byte) } }
    return code
}
