/// Answers "would `ISOBox.parse` read these boxes without a problem?" without building the tree.
///
/// The probe-only walks (`HEIFMeta.parseForProbe`) use it to prove, before taking any shortcut, that the full
/// parser would have reported nothing: the same headers, sizes, depth and entry limits are checked in the
/// same order, and nothing is allocated. A `false` sends the caller back to the full parser, which then
/// reports the problem in its own words.
enum ISOTreeCheck {
    static let uuid = fourCCCode("uuid")
    static let meta = fourCCCode("meta")
    static let hdlr = fourCCCode("hdlr")

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
              let payload = try? r.subReader(Int(header.size) - header.headerSize) else { return nil }   // try?: broken = nil
        return (header, payload)
    }

    /// True when `ISOBox.parse` at nesting level `depth` reads the box at `r`'s position and everything it
    /// descends into without a problem. Advances `r` past the box.
    static func box(_ r: inout ByteReader, depth: Int, limits: ParseLimits) -> Bool {
        let end = r.remainingSlice.withUnsafeBytes { Walk(bytes: $0, limits: limits).box(at: 0, depth: depth) }
        guard let end else { return false }
        try? r.skip(end)   // try?: the walk ended inside `r`
        return true
    }

    /// True when `ISOBox.parseSequence` reads the boxes from `r`'s position to its end without a problem
    /// (fewer than 8 trailing bytes are ignored there too).
    static func sequence(_ r: inout ByteReader, depth: Int, limits: ParseLimits) -> Bool {
        let end = r.remainingSlice.withUnsafeBytes { bytes in
            Walk(bytes: bytes, limits: limits).sequence(from: 0, to: bytes.count, depth: depth)
        }
        guard let end else { return false }
        try? r.skip(end)   // try?: the walk ended inside `r`
        return true
    }

    /// The check over the bytes themselves, by index: it visits every box of a movie's `moov` (the most
    /// frequent work of a movie's probe), and a `ByteReader` per box (a window retaining the buffer) cost
    /// more than the check. Every index is compared with the end of its parent before a byte is loaded.
    struct Walk {
        let bytes: UnsafeRawBufferPointer
        let limits: ParseLimits

        func u32(_ i: Int) -> UInt32 { UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self)) }
        func u64(_ i: Int) -> UInt64 { UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) }

        /// The header at `i` of a box that must end by `end`, as `header(_:available:)` reads it; nil where
        /// that would.
        func header(at i: Int, end: Int) -> Header? { Self.header(in: bytes, at: i, end: end) }

        /// `header(at:end:)` over any bytes (the moov walk reads headers by index too).
        @inline(__always)
        static func header(in bytes: UnsafeRawBufferPointer, at i: Int, end: Int) -> Header? {
            func u32(_ i: Int) -> UInt32 { UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self)) }
            func u64(_ i: Int) -> UInt64 { UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) }
            let available = end - i
            guard available >= 8 else { return nil }
            let size32 = u32(i)
            let typeCode = u32(i + 4)
            var headerSize = 8
            var size: UInt64
            switch size32 {
            case 0: size = UInt64(available)
            case 1:
                guard available >= 16 else { return nil }
                size = u64(i + 8)
                headerSize += 8
            default: size = UInt64(size32)
            }
            if typeCode == uuid {
                guard available >= headerSize + 16 else { return nil }
                headerSize += 16
            }
            guard size >= UInt64(headerSize), size <= UInt64(available) else { return nil }
            return Header(typeCode: typeCode, size: size, headerSize: headerSize)
        }

        /// `ISOTreeCheck.box` for the box at `i` inside a parent ending at `end`: the index after the box,
        /// or nil.
        func box(at i: Int, depth: Int, end: Int? = nil) -> Int? {
            guard let header = header(at: i, end: end ?? bytes.count) else { return nil }
            let boxEnd = i + Int(header.size)
            guard ISOBox.isContainer(header.typeCode) else { return boxEnd }
            guard depth < limits.maxDepth else { return nil }
            let payload = i + header.headerSize
            let children = payload + min(childrenOffset(typeCode: header.typeCode, payload: payload, end: boxEnd),
                                         boxEnd - payload)
            return sequence(from: children, to: boxEnd, depth: depth + 1) == nil ? nil : boxEnd
        }

        /// `ISOTreeCheck.sequence` over `start..<end`: the index where it stopped (fewer than 8 bytes before
        /// `end`), or nil.
        func sequence(from start: Int, to end: Int, depth: Int) -> Int? {
            var i = start
            var count = 0
            while end - i >= 8 {
                guard count < limits.maxEntries, let next = box(at: i, depth: depth, end: end) else { return nil }
                i = next
                count += 1
            }
            return i
        }

        /// `ISOBox.childrenOffset` for the payload `payload..<end`.
        func childrenOffset(typeCode: UInt32, payload: Int, end: Int) -> Int {
            guard typeCode == meta else { return 0 }
            if end - payload >= 8, u32(payload + 4) == hdlr { return 0 }
            return end - payload >= 4 && u32(payload) == 0 ? 4 : 0
        }
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
