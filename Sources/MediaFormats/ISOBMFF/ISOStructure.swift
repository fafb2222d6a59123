/// A box read wholly into memory (`moov`, `meta`) with its parsed tree; payloads are read from the bytes.
public struct ISOStructure: Sendable {
    public let root: ISOBox
    /// Covers exactly `root.range`.
    public let bytes: ByteReader

    public init(root: ISOBox, bytes: ByteReader) {
        self.root = root
        self.bytes = bytes
    }

    /// Parses `bytes` (one whole box) into a tree; `depth` is the box's own nesting level.
    public static func parse(_ bytes: ByteReader, depth: Int = 0, limits: ParseLimits, context: String,
                             problems: inout [ParseProblem]) throws(MediaError) -> ISOStructure {
        var r = bytes
        let root = try ISOBox.parse(&r, depth: depth, limits: limits, context: context, problems: &problems)
        return ISOStructure(root: root, bytes: bytes)
    }

    /// A reader over `box`'s payload (after its header), positioned at its start.
    public func payload(of box: ISOBox) throws(MediaError) -> ByteReader {
        let payload = box.payloadRange
        guard payload.offset >= bytes.baseOffset,
              let start = Int(exactly: payload.offset - bytes.baseOffset),
              let length = Int(exactly: payload.length),
              let window = bytes.window(start, length, baseOffset: payload.offset) else {
            throw MediaError.invalid("box '\(box.type)' at \(box.range.offset) lies outside the structure read")
        }
        return window
    }

    /// Reader over a full box's payload after its version and flags.
    public func fullBoxPayload(of box: ISOBox) throws(MediaError) -> (version: UInt8, flags: UInt32, reader: ByteReader) {
        var r = try payload(of: box)
        let word = try r.readU32()
        return (UInt8(word >> 24), word & 0xFF_FFFF, r)
    }
}

extension ByteReader {
    /// Checks that `count` entries of `entrySize` bytes fit in what remains, before anything is allocated
    /// or looped over: a count of 2^32 in a 20-byte box is rejected here.
    /// `what` is made only when a check fails: this runs per entry of large tables (the probe's hot path).
    public func requireEntries(_ count: UInt64, of entrySize: Int, limit: Int,
                               what: @autoclosure () -> String) throws(MediaError) {
        guard count <= UInt64(limit) else {
            throw MediaError.limitExceeded("\(what()): \(count) entries (limit \(limit))")
        }
        guard count * UInt64(max(entrySize, 0)) <= UInt64(remaining) else {
            throw MediaError.invalid("\(what()): \(count) entries of \(entrySize) bytes do not fit in \(remaining) byte(s)")
        }
    }
}
