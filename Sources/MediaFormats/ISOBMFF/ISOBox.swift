/// One ISO BMFF box (QuickTime atom) as found in a file: its type, where it lies and what it contains.
///
/// Ranges are file offsets, so a future writer can copy untouched boxes byte for byte and patch the ones
/// it changes (stco offsets, new `mebx` tracks) from the same tree the readers use.
public struct ISOBox: Sendable, Hashable {
    /// Four-character type (`moov`, `trak`...); binary types such as ilst item indices are decoded as Latin-1-ish UTF-8.
    public var type: String
    /// The type's four bytes as a big-endian number (ilst item indices and mebx local key ids are binary).
    public var typeCode: UInt32
    /// The 16-byte extended type of a `uuid` box.
    public var extendedType: [UInt8]?
    /// The whole box, header included.
    public var range: ByteRange
    /// 8, 16 (largesize) or 24/32 with a `uuid` extended type.
    public var headerSize: Int
    /// Bytes between the payload start and the first child (4 for full-box containers such as HEIF `meta`).
    public var childrenOffset: Int
    /// Parsed children, for the container types this parser descends into.
    public var children: [ISOBox]

    public init(type: String, typeCode: UInt32, extendedType: [UInt8]? = nil, range: ByteRange, headerSize: Int,
                childrenOffset: Int = 0, children: [ISOBox] = []) {
        self.type = type
        self.typeCode = typeCode
        self.extendedType = extendedType
        self.range = range
        self.headerSize = headerSize
        self.childrenOffset = childrenOffset
        self.children = children
    }

    /// The bytes after the header.
    public var payloadRange: ByteRange {
        ByteRange(offset: range.offset + UInt64(headerSize), length: range.length - UInt64(headerSize))
    }

    /// First direct child of `type`.
    public func child(_ type: String) -> ISOBox? { children.first { $0.type == type } }

    /// All direct children of `type`, in file order.
    public func children(_ type: String) -> [ISOBox] { children.filter { $0.type == type } }

    init(header: ISOBoxHeader, offset: UInt64) {
        self.init(type: header.type, typeCode: header.typeCode, extendedType: header.extendedType,
                  range: ByteRange(offset: offset, length: header.size), headerSize: header.headerSize)
    }

    /// Descends through direct children by type: `moov.descendant("trak", "mdia", "mdhd")`.
    public func descendant(_ path: String...) -> ISOBox? {
        var box = self
        for type in path {
            guard let next = box.child(type) else { return nil }
            box = next
        }
        return box
    }
}

/// A box header read from bytes: size and type, with the 64-bit largesize and `uuid` forms resolved.
public struct ISOBoxHeader: Sendable, Hashable {
    public var type: String
    public var typeCode: UInt32
    public var extendedType: [UInt8]?
    /// Total box size, header included (size 0 "to the end" already resolved).
    public var size: UInt64
    public var headerSize: Int

    /// Reads a header at the reader's position. `available` is how many bytes the parent has from the
    /// box start on (the rest of the file at top level): size 0 extends to it, larger sizes are errors.
    public static func read(from r: inout ByteReader, available: UInt64) throws(MediaError) -> ISOBoxHeader {
        let start = r.fileOffset
        let size32 = try r.readU32()
        let typeCode = try r.readU32()
        let type = fourCC(typeCode)
        var headerSize = 8
        var size: UInt64
        switch size32 {
        case 0:
            size = available
        case 1:
            size = try r.readU64()
            headerSize += 8
        default:
            size = UInt64(size32)
        }
        var extendedType: [UInt8]?
        if type == "uuid" {
            extendedType = try r.readBytes(16)
            headerSize += 16
        }
        guard size >= UInt64(headerSize) else {
            throw MediaError.invalid("box '\(printable(type))' at \(start) has size \(size), smaller than its \(headerSize)-byte header")
        }
        guard size <= available else {
            throw MediaError.invalid("box '\(printable(type))' at \(start) has size \(size) but only \(available) byte(s) remain")
        }
        return ISOBoxHeader(type: type, typeCode: typeCode, extendedType: extendedType, size: size, headerSize: headerSize)
    }

    /// A box type safe to print (binary types such as ilst indices become hex).
    static func printable(_ type: String) -> String {
        type.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } ? type
            : type.utf8.map { String($0, radix: 16) }.joined(separator: " ")
    }
}

/// The four bytes of a big-endian type code as text, without building an intermediate array (box types are
/// read for every box of every file a scan probes).
@inline(__always)
func fourCC(_ code: UInt32) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { buffer in
        buffer[0] = UInt8(truncatingIfNeeded: code >> 24)
        buffer[1] = UInt8(truncatingIfNeeded: code >> 16)
        buffer[2] = UInt8(truncatingIfNeeded: code >> 8)
        buffer[3] = UInt8(truncatingIfNeeded: code)
        return String(decoding: UnsafeBufferPointer(buffer), as: UTF8.self)
    }
}
