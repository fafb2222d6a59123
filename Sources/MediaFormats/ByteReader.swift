public enum ByteOrder: String, Sendable, Codable {
    case bigEndian, littleEndian
}

/// A cursor over bytes that throws at the end instead of trapping: never `bytes[i]` on input data.
///
/// `baseOffset` is the file offset of `bytes[0]`, so errors and ranges speak in file offsets.
public struct ByteReader: Sendable {
    public let bytes: [UInt8]
    public let baseOffset: UInt64
    public var byteOrder: ByteOrder
    /// Index of the next byte to read, relative to `bytes`.
    public private(set) var position: Int

    public init(_ bytes: [UInt8], baseOffset: UInt64 = 0, byteOrder: ByteOrder = .bigEndian) {
        self.bytes = bytes
        self.baseOffset = baseOffset
        self.byteOrder = byteOrder
        self.position = 0
    }

    public var count: Int { bytes.count }
    public var remaining: Int { bytes.count - position }
    public var isAtEnd: Bool { position >= bytes.count }
    /// File offset of the next byte.
    public var fileOffset: UInt64 { baseOffset + UInt64(position) }

    private func require(_ n: Int) throws(MediaError) {
        guard n >= 0, n <= remaining else {
            throw MediaError.truncated(at: fileOffset, needed: n - max(0, remaining))
        }
    }

    public mutating func seek(to newPosition: Int) throws(MediaError) {
        guard newPosition >= 0, newPosition <= bytes.count else {
            throw MediaError.invalid("seek to \(newPosition) outside \(bytes.count) bytes at \(baseOffset)")
        }
        position = newPosition
    }

    public mutating func skip(_ n: Int) throws(MediaError) {
        try require(n)
        position += n
    }

    public mutating func readU8() throws(MediaError) -> UInt8 {
        try require(1)
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func readU16() throws(MediaError) -> UInt16 {
        try require(2)
        defer { position += 2 }
        let a = UInt16(bytes[position]), b = UInt16(bytes[position + 1])
        return byteOrder == .bigEndian ? (a << 8 | b) : (b << 8 | a)
    }

    public mutating func readU24() throws(MediaError) -> UInt32 {
        try require(3)
        defer { position += 3 }
        let a = UInt32(bytes[position]), b = UInt32(bytes[position + 1]), c = UInt32(bytes[position + 2])
        return byteOrder == .bigEndian ? (a << 16 | b << 8 | c) : (c << 16 | b << 8 | a)
    }

    public mutating func readU32() throws(MediaError) -> UInt32 {
        try require(4)
        defer { position += 4 }
        var v: UInt32 = 0
        if byteOrder == .bigEndian {
            for i in 0..<4 { v = v << 8 | UInt32(bytes[position + i]) }
        } else {
            for i in (0..<4).reversed() { v = v << 8 | UInt32(bytes[position + i]) }
        }
        return v
    }

    public mutating func readU64() throws(MediaError) -> UInt64 {
        try require(8)
        defer { position += 8 }
        var v: UInt64 = 0
        if byteOrder == .bigEndian {
            for i in 0..<8 { v = v << 8 | UInt64(bytes[position + i]) }
        } else {
            for i in (0..<8).reversed() { v = v << 8 | UInt64(bytes[position + i]) }
        }
        return v
    }

    public mutating func readI16() throws(MediaError) -> Int16 { Int16(bitPattern: try readU16()) }
    public mutating func readI32() throws(MediaError) -> Int32 { Int32(bitPattern: try readU32()) }
    public mutating func readI64() throws(MediaError) -> Int64 { Int64(bitPattern: try readU64()) }

    /// Unsigned integer of 0, 1, 2, 4 or 8 bytes (ISO BMFF iloc uses variable sizes).
    public mutating func readUInt(size: Int) throws(MediaError) -> UInt64 {
        switch size {
        case 0: return 0
        case 1: return UInt64(try readU8())
        case 2: return UInt64(try readU16())
        case 4: return UInt64(try readU32())
        case 8: return try readU64()
        default: throw MediaError.invalid("integer size \(size)")
        }
    }

    public mutating func readBytes(_ n: Int) throws(MediaError) -> [UInt8] {
        try require(n)
        defer { position += n }
        return Array(bytes[position..<position + n])
    }

    /// Four ASCII characters (box types, FourCCs).
    public mutating func readFourCC() throws(MediaError) -> String {
        let b = try readBytes(4)
        return String(decoding: b, as: UTF8.self)
    }

    /// A NUL-terminated string (the NUL is consumed); at most `maxLength` bytes.
    public mutating func readCString(maxLength: Int = 4096) throws(MediaError) -> String {
        let limit = min(remaining, maxLength)
        var end = position
        while end < position + limit && bytes[end] != 0 { end += 1 }
        let s = String(decoding: bytes[position..<end], as: UTF8.self)
        position = min(end + 1, bytes.count)
        return s
    }

    /// A reader over the next `n` bytes, which this reader skips whatever the child reads.
    public mutating func subReader(_ n: Int) throws(MediaError) -> ByteReader {
        try require(n)
        let child = ByteReader(Array(bytes[position..<position + n]), baseOffset: fileOffset, byteOrder: byteOrder)
        position += n
        return child
    }

    /// Looks at a byte without consuming it; nil past the end.
    public func peekU8(at relative: Int = 0) -> UInt8? {
        let i = position + relative
        return i >= 0 && i < bytes.count ? bytes[i] : nil
    }

    /// Bytes at an absolute index range of this reader, or nil when out of range.
    public func slice(_ start: Int, _ length: Int) -> ArraySlice<UInt8>? {
        guard start >= 0, length >= 0, start <= bytes.count, length <= bytes.count - start else { return nil }
        return bytes[start..<start + length]
    }
}

extension Array where Element == UInt8 {
    /// Index of the first occurrence of `pattern` at or after `from`, or nil.
    public func firstIndex(of pattern: [UInt8], from: Int = 0) -> Int? {
        guard !pattern.isEmpty, count >= pattern.count else { return nil }
        var i = Swift.max(0, from)
        let last = count - pattern.count
        while i <= last {
            if self[i] == pattern[0] {
                var ok = true
                for j in 1..<pattern.count where self[i + j] != pattern[j] { ok = false; break }
                if ok { return i }
            }
            i += 1
        }
        return nil
    }
}
