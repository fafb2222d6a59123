public enum ByteOrder: String, Sendable, Codable {
    case bigEndian, littleEndian
}

/// A cursor over bytes that throws at the end instead of trapping: never `bytes[i]` on input data.
///
/// `baseOffset` is the file offset of `bytes[0]`, so errors and ranges speak in file offsets.
public struct ByteReader: Sendable {
    /// The whole buffer this reader (and its sub-readers) share; the reader sees `storage[lower..<upper]`.
    /// Sub-readers and box payloads are windows on the same array, not copies: a movie's box tree is
    /// parsed without copying each box's body once per nesting level (issue 17).
    private let storage: [UInt8]
    private let lower: Int
    private let upper: Int
    public let baseOffset: UInt64
    public var byteOrder: ByteOrder
    /// Index of the next byte to read, relative to the reader's first byte.
    public private(set) var position: Int

    public init(_ bytes: [UInt8], baseOffset: UInt64 = 0, byteOrder: ByteOrder = .bigEndian) {
        self.storage = bytes
        self.lower = 0
        self.upper = bytes.count
        self.baseOffset = baseOffset
        self.byteOrder = byteOrder
        self.position = 0
    }

    /// A window `range` (indices of `storage`) whose first byte is at file offset `baseOffset`.
    private init(window storage: [UInt8], _ range: Range<Int>, baseOffset: UInt64, byteOrder: ByteOrder) {
        self.storage = storage
        self.lower = range.lowerBound
        self.upper = range.upperBound
        self.baseOffset = baseOffset
        self.byteOrder = byteOrder
        self.position = 0
    }

    /// The reader's bytes (a copy only when the reader is a window on a larger buffer).
    public var bytes: [UInt8] {
        lower == 0 && upper == storage.count ? storage : Array(storage[lower..<upper])
    }

    public var count: Int { upper - lower }
    public var remaining: Int { upper - lower - position }
    public var isAtEnd: Bool { position >= upper - lower }
    /// File offset of the next byte.
    public var fileOffset: UInt64 { baseOffset + UInt64(position) }

    // The readers below run for every field of every box a scan probes: inlined, each costs a bounds check
    // rather than a call (`readU32` was 3 % of a scan's CPU as a call).
    @inline(__always)
    private func require(_ n: Int) throws(MediaError) {
        guard n >= 0, n <= remaining else {
            throw MediaError.truncated(at: fileOffset, needed: n - max(0, remaining))
        }
    }

    public mutating func seek(to newPosition: Int) throws(MediaError) {
        guard newPosition >= 0, newPosition <= count else {
            throw MediaError.invalid("seek to \(newPosition) outside \(count) bytes at \(baseOffset)")
        }
        position = newPosition
    }

    @inline(__always)
    public mutating func skip(_ n: Int) throws(MediaError) {
        try require(n)
        position += n
    }

    @inline(__always)
    public mutating func readU8() throws(MediaError) -> UInt8 {
        try require(1)
        defer { position += 1 }
        return storage[lower + position]
    }

    @inline(__always)
    public mutating func readU16() throws(MediaError) -> UInt16 {
        try require(2)
        let i = lower + position
        position += 2
        let a = UInt16(storage[i]), b = UInt16(storage[i + 1])
        return byteOrder == .bigEndian ? (a << 8 | b) : (b << 8 | a)
    }

    public mutating func readU24() throws(MediaError) -> UInt32 {
        try require(3)
        let i = lower + position
        position += 3
        let a = UInt32(storage[i]), b = UInt32(storage[i + 1]), c = UInt32(storage[i + 2])
        return byteOrder == .bigEndian ? (a << 16 | b << 8 | c) : (c << 16 | b << 8 | a)
    }

    @inline(__always)
    public mutating func readU32() throws(MediaError) -> UInt32 {
        try require(4)
        let i = lower + position
        position += 4
        let a = UInt32(storage[i]), b = UInt32(storage[i + 1]), c = UInt32(storage[i + 2]), d = UInt32(storage[i + 3])
        return byteOrder == .bigEndian ? (a << 24 | b << 16 | c << 8 | d) : (d << 24 | c << 16 | b << 8 | a)
    }

    public mutating func readU64() throws(MediaError) -> UInt64 {
        try require(8)
        let i = lower + position
        position += 8
        var v: UInt64 = 0
        if byteOrder == .bigEndian {
            for k in 0..<8 { v = v << 8 | UInt64(storage[i + k]) }
        } else {
            for k in (0..<8).reversed() { v = v << 8 | UInt64(storage[i + k]) }
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
        let i = lower + position
        position += n
        return Array(storage[i..<i + n])
    }

    /// Four ASCII characters (box types, FourCCs).
    public mutating func readFourCC() throws(MediaError) -> String {
        try require(4)
        let i = lower + position
        position += 4
        return String(decoding: storage[i..<i + 4], as: UTF8.self)
    }

    /// A NUL-terminated string (the NUL is consumed); at most `maxLength` bytes.
    public mutating func readCString(maxLength: Int = 4096) throws(MediaError) -> String {
        let limit = min(remaining, maxLength)
        let first = lower + position
        var end = first
        while end < first + limit && storage[end] != 0 { end += 1 }
        let s = String(decoding: storage[first..<end], as: UTF8.self)
        position = min(end + 1 - lower, count)
        return s
    }

    /// A reader over the next `n` bytes, which this reader skips whatever the child reads. It shares this
    /// reader's buffer (no copy).
    public mutating func subReader(_ n: Int) throws(MediaError) -> ByteReader {
        try require(n)
        let i = lower + position
        let child = ByteReader(window: storage, i..<i + n, baseOffset: fileOffset, byteOrder: byteOrder)
        position += n
        return child
    }

    /// A reader over `length` bytes at an absolute index of this reader (sharing its buffer), whose first
    /// byte is at file offset `baseOffset`; nil when out of range.
    public func window(_ start: Int, _ length: Int, baseOffset: UInt64) -> ByteReader? {
        guard start >= 0, length >= 0, start <= count, length <= count - start else { return nil }
        return ByteReader(window: storage, lower + start..<lower + start + length, baseOffset: baseOffset,
                          byteOrder: byteOrder)
    }

    /// Looks at a byte without consuming it; nil past the end.
    public func peekU8(at relative: Int = 0) -> UInt8? {
        let i = position + relative
        return i >= 0 && i < count ? storage[lower + i] : nil
    }

    /// Bytes at an absolute index range of this reader, or nil when out of range. The slice's indices are
    /// those of the shared buffer: use it as a collection (prefix, elementsEqual, Array(...)), not by index.
    public func slice(_ start: Int, _ length: Int) -> ArraySlice<UInt8>? {
        guard start >= 0, length >= 0, start <= count, length <= count - start else { return nil }
        return storage[lower + start..<lower + start + length]
    }

    /// The unread bytes (a slice of the shared buffer; see `slice`).
    public var remainingSlice: ArraySlice<UInt8> { storage[lower + position..<upper] }
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
