/// TIFF field types (TIFF 6.0 plus the BigTIFF 8-byte types that also turn up in MakerNotes).
public enum TIFFFieldType: UInt16, Sendable {
    case byte = 1, ascii = 2, short = 3, long = 4, rational = 5, sbyte = 6, undefined = 7, sshort = 8,
         slong = 9, srational = 10, float = 11, double = 12, ifd = 13, long8 = 16, slong8 = 17, ifd8 = 18

    /// Bytes per value.
    public var unitSize: Int {
        switch self {
        case .byte, .ascii, .sbyte, .undefined: return 1
        case .short, .sshort: return 2
        case .long, .slong, .float, .ifd: return 4
        case .rational, .srational, .double, .long8, .slong8, .ifd8: return 8
        }
    }
}

/// One 12-byte IFD entry whose value bytes were checked to lie inside the TIFF buffer.
public struct TIFFEntry: Sendable, Hashable {
    public var tag: UInt16
    public var type: TIFFFieldType
    /// Number of values (never more than fits in the buffer, since the value bytes were checked).
    public var count: Int
    /// Index of the first value byte in the buffer the IFD was read from.
    public var valueIndex: Int
    public var byteCount: Int { count * type.unitSize }
}

/// One IFD read from a buffer: entries with valid types and in-bounds values, plus the next-IFD link.
struct TIFFDirectory {
    var entries: [TIFFEntry] = []
    /// Offset of the next IFD (relative to the same base), 0 when none.
    var nextOffset: UInt32 = 0
}

/// Reads classic TIFF IFDs out of one in-memory buffer, never trusting a count or an offset.
///
/// `base` is the buffer index that offsets are relative to: 0 for a TIFF header at the start of the buffer,
/// the MakerNote's own start for Apple MakerNotes.
struct TIFFDirectoryReader {
    let buffer: [UInt8]
    let byteOrder: ByteOrder
    let base: Int
    let limits: ParseLimits

    /// Reads the IFD at `offset` (relative to `base`). Bad entries are skipped with a problem; an IFD whose
    /// header does not fit throws.
    func readDirectory(at offset: UInt32, context: String, problems: inout [ParseProblem]) throws(MediaError) -> TIFFDirectory {
        let start = base + Int(offset)
        var reader = ByteReader(buffer, byteOrder: byteOrder)
        try reader.seek(to: start)
        let declared = Int(try reader.readU16())
        guard declared <= limits.maxEntries else {
            throw MediaError.limitExceeded("\(context): \(declared) entries (limit \(limits.maxEntries))")
        }
        let fitting = min(declared, reader.remaining / 12)
        if fitting < declared {
            problems.append(ParseProblem(.warning, context, "IFD declares \(declared) entries but only \(fitting) fit in the data"))
        }
        var directory = TIFFDirectory()
        directory.entries.reserveCapacity(fitting)
        // The `fitting` entries lie in the buffer (checked above): read by index, not by a throwing read per
        // field (an Apple still's IFDs and MakerNote hold ~100 entries, read for every probed still).
        let entriesStart = reader.position
        let bigEndian = byteOrder == .bigEndian
        buffer.withUnsafeBytes { raw in
            func u16(_ i: Int) -> UInt16 {
                let v = raw.loadUnaligned(fromByteOffset: i, as: UInt16.self)
                return bigEndian ? UInt16(bigEndian: v) : UInt16(littleEndian: v)
            }
            func u32(_ i: Int) -> UInt32 {
                let v = raw.loadUnaligned(fromByteOffset: i, as: UInt32.self)
                return bigEndian ? UInt32(bigEndian: v) : UInt32(littleEndian: v)
            }
            for index in 0..<fitting {
                let at = entriesStart + 12 * index
                let tag = u16(at)
                let rawType = u16(at + 2)
                let count = u32(at + 4)
                let valueFieldIndex = at + 8
                let inlineValue = u32(valueFieldIndex)
                guard let type = TIFFFieldType(rawValue: rawType) else {
                    // Type 0 and vendor types: the size of a value is unknown, so the entry cannot be read.
                    problems.append(ParseProblem(.info, context, "tag 0x\(hex(tag)): unknown field type \(rawType) skipped"))
                    continue
                }
                // 2^32 values of 8 bytes still fits in UInt64: no overflow before the bounds check.
                let byteCount = UInt64(count) * UInt64(type.unitSize)
                let valueIndex: UInt64 = byteCount <= 4 ? UInt64(valueFieldIndex) : UInt64(base) + UInt64(inlineValue)
                guard valueIndex + byteCount <= UInt64(buffer.count) else {
                    problems.append(ParseProblem(.warning, context,
                        "tag 0x\(hex(tag)): \(count) value(s) at \(inlineValue) lie outside the \(buffer.count)-byte data"))
                    continue
                }
                directory.entries.append(TIFFEntry(tag: tag, type: type, count: Int(count), valueIndex: Int(valueIndex)))
            }
        }
        try reader.skip(12 * fitting)
        // try?: a directory without its next-offset word is the last one.
        if fitting == declared, let next = try? reader.readU32() {
            directory.nextOffset = next
        }
        return directory
    }

    // MARK: values

    /// `size` bytes at buffer index `at` as an unsigned number in the reader's byte order; nil when they do
    /// not all lie in the buffer. Read in place: a `ByteReader` per value (Exif's dozen values per still)
    /// retained and released the buffer each time.
    @inline(__always)
    private func number(at: Int, size: Int) -> UInt64? {
        guard at >= 0, at <= buffer.count, size <= buffer.count - at else { return nil }
        var value: UInt64 = 0
        if byteOrder == .bigEndian {
            for k in 0..<size { value = value << 8 | UInt64(buffer[at + k]) }
        } else {
            for k in (0..<size).reversed() { value = value << 8 | UInt64(buffer[at + k]) }
        }
        return value
    }

    /// The `index`th value as an unsigned integer (integer types only; signed values must be >= 0).
    func unsigned(_ entry: TIFFEntry, index: Int = 0) -> UInt64? {
        guard index >= 0, index < entry.count else { return nil }
        let at = entry.valueIndex + index * entry.type.unitSize
        // A value that cannot be read is an absent value; the IFD walk records structural problems.
        switch entry.type {
        case .byte, .undefined: return number(at: at, size: 1)
        case .short: return number(at: at, size: 2)
        case .long, .ifd: return number(at: at, size: 4)
        case .long8, .ifd8: return number(at: at, size: 8)
        case .sbyte: return number(at: at, size: 1).flatMap { UInt64(exactly: Int8(truncatingIfNeeded: $0)) }
        case .sshort: return number(at: at, size: 2).flatMap { UInt64(exactly: Int16(truncatingIfNeeded: $0)) }
        case .slong: return number(at: at, size: 4).flatMap { UInt64(exactly: Int32(truncatingIfNeeded: $0)) }
        case .slong8: return number(at: at, size: 8).flatMap { UInt64(exactly: Int64(bitPattern: $0)) }
        case .ascii, .rational, .srational, .float, .double: return nil
        }
    }

    /// The `index`th value of a RATIONAL (or SRATIONAL ≥ 0) entry.
    func rational(_ entry: TIFFEntry, index: Int = 0) -> ExifRational? {
        guard entry.type == .rational || entry.type == .srational, index >= 0, index < entry.count else { return nil }
        let at = entry.valueIndex + index * 8
        guard let numerator = number(at: at, size: 4).map(UInt32.init(truncatingIfNeeded:)),
              let denominator = number(at: at + 4, size: 4).map(UInt32.init(truncatingIfNeeded:)) else { return nil }
        if entry.type == .srational, Int32(bitPattern: numerator) < 0 || Int32(bitPattern: denominator) < 0 { return nil }
        return ExifRational(numerator, denominator)
    }

    /// An ASCII (or UNDEFINED) value as text, cut at the first NUL, trimmed; nil when empty or too long.
    func string(_ entry: TIFFEntry, maxLength: Int = 1024) -> String? {
        guard entry.type == .ascii || entry.type == .undefined || entry.type == .byte else { return nil }
        let length = min(entry.byteCount, maxLength)
        let start = entry.valueIndex
        guard start >= 0, length >= 0, start <= buffer.count, length <= buffer.count - start else { return nil }
        let text = buffer[start..<start + length].prefix { $0 != 0 }
        if text.allSatisfy({ $0 < 0x80 }) {
            // ASCII (every camera's make, model and dates): trimmed as bytes and made a String once. Only for
            // ASCII: elsewhere a space can belong to a grapheme cluster that `trimmingASCIIWhitespace` keeps.
            let isSpace = { (b: UInt8) in b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
            guard let first = text.firstIndex(where: { !isSpace($0) }),
                  let last = text.lastIndex(where: { !isSpace($0) }) else { return nil }
            return String(decoding: text[first...last], as: UTF8.self)
        }
        let decoded = String(decoding: text, as: UTF8.self)
        let trimmed = decoded.trimmingASCIIWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The raw value bytes.
    func bytes(_ entry: TIFFEntry) -> ArraySlice<UInt8>? {
        ByteReader(buffer).slice(entry.valueIndex, entry.byteCount)
    }
}

func hex(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

extension String {
    /// Trims spaces, tabs, CR and LF at both ends (no Foundation in the media core).
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
