/// Edits a TIFF (Exif) block without moving anything already in it: changed IFDs and values are written
/// as copies at the end, and only the 4-byte pointers that lead to them are patched. Offsets inside the
/// original bytes — the IFD1 thumbnail, GPS, vendor MakerNotes with absolute offsets — stay valid, because
/// every original byte stays where it was. The old copies remain as unreferenced bytes.
struct TIFFAppendEditor {
    /// One raw 12-byte IFD entry; `value` is the 4-byte value/offset field exactly as stored.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
    }
    struct Directory {
        var entries: [Entry]
        var next: UInt32
        /// Index in `bytes` of each entry's value field (for in-place patches).
        var valueFieldIndexes: [Int]
    }

    private(set) var bytes: [UInt8]
    let byteOrder: ByteOrder
    let limits: ParseLimits
    /// Smallest valid IFD offset: 8 in a TIFF (after the header), 14 in an Apple MakerNote.
    var minimumIFDOffset = 8
    /// Largest size the block may grow to: a JPEG APP1 holds 64 KiB; a HEIF Exif item has no such limit.
    var maximumSize = 65000

    /// A buffer whose offsets count from its first byte but which has no TIFF header (Apple MakerNote).
    init(buffer: [UInt8], byteOrder: ByteOrder, minimumIFDOffset: Int, limits: ParseLimits = .default) {
        bytes = buffer
        self.byteOrder = byteOrder
        self.minimumIFDOffset = minimumIFDOffset
        self.limits = limits
    }

    init(tiff: [UInt8], limits: ParseLimits = .default) throws(MediaError) {
        guard tiff.count >= 8 else { throw MediaError.truncated(at: 0, needed: 8 - tiff.count) }
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): byteOrder = .bigEndian
        case (0x49, 0x49): byteOrder = .littleEndian
        default: throw MediaError.invalid("Exif: no TIFF byte-order mark")
        }
        bytes = tiff
        self.limits = limits
    }

    /// A new, empty big-endian TIFF (header only, IFD0 offset 0 until set).
    static func empty() -> [UInt8] { Array("MM".utf8) + [0, 0x2A] + BigEndian.u32(0) }

    var ifd0Offset: UInt32 {
        guard var r = try? reader(at: 4) else { return 0 }   // try?: too short = no IFD0
        return (try? r.readU32()) ?? 0   // try?: too short = no IFD0
    }

    func reader(at index: Int) throws(MediaError) -> ByteReader {
        var r = ByteReader(bytes, byteOrder: byteOrder)
        try r.seek(to: index)
        return r
    }

    func u16(_ v: UInt16) -> [UInt8] { byteOrder == .bigEndian ? BigEndian.u16(v) : BigEndian.u16(v).reversed() }
    func u32(_ v: UInt32) -> [UInt8] { byteOrder == .bigEndian ? BigEndian.u32(v) : BigEndian.u32(v).reversed() }

    func readDirectory(at offset: UInt32, context: String) throws(MediaError) -> Directory {
        guard offset >= minimumIFDOffset, Int(offset) < bytes.count else { throw MediaError.invalid("\(context): IFD offset \(offset) outside the Exif data") }
        var r = try reader(at: Int(offset))
        let count = Int(try r.readU16())
        guard count <= limits.maxEntries else { throw MediaError.limitExceeded("\(context): \(count) entries") }
        var directory = Directory(entries: [], next: 0, valueFieldIndexes: [])
        for _ in 0..<count {
            let tag = try r.readU16(), type = try r.readU16(), n = try r.readU32()
            directory.valueFieldIndexes.append(r.position)
            directory.entries.append(Entry(tag: tag, type: type, count: n, value: try r.readBytes(4)))
        }
        directory.next = (try? r.readU32()) ?? 0   // try?: no next word = last
        return directory
    }

    /// Value of a LONG/IFD pointer entry.
    func pointer(_ entry: Entry) -> UInt32? {
        var r = ByteReader(entry.value, byteOrder: byteOrder)
        return entry.type == 3 ? (try? r.readU16()).map(UInt32.init) : try? r.readU32()   // try?: 4 bytes, cannot fail
    }

    /// The value bytes of an entry (inline or out of line), or nil when they lie outside the data.
    func valueBytes(_ entry: Entry) -> [UInt8]? {
        let unit: [UInt16: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8]
        // Unknown types (e.g. 0) are kept as their raw 4-byte field.
        guard let size = unit[entry.type] else { return entry.value }
        let total = UInt64(entry.count) * UInt64(size)
        if total <= 4 { return Array(entry.value.prefix(Int(total))) }
        guard let offset = pointer(Entry(tag: 0, type: 4, count: 1, value: entry.value)),
              UInt64(offset) + total <= UInt64(bytes.count) else { return nil }
        return Array(bytes[Int(offset)..<Int(offset) + Int(total)])
    }

    /// Appends raw bytes at a word boundary; returns their offset.
    mutating func append(_ data: [UInt8]) throws(MediaError) -> UInt32 {
        if bytes.count % 2 == 1 { bytes.append(0) }
        guard bytes.count + data.count < maximumSize else {
            throw MediaError.limitExceeded("the Exif block would exceed \(maximumSize) bytes (a JPEG segment holds 64 KiB)")
        }
        let offset = UInt32(bytes.count)
        bytes += data
        return offset
    }

    /// An entry holding `data` (inline when it fits in 4 bytes, else appended).
    mutating func entry(tag: UInt16, type: UInt16, count: UInt32, data: [UInt8]) throws(MediaError) -> Entry {
        if data.count <= 4 { return Entry(tag: tag, type: type, count: count, value: data + [UInt8](repeating: 0, count: 4 - data.count)) }
        return Entry(tag: tag, type: type, count: count, value: u32(try append(data)))
    }

    /// Appends an IFD with `entries` (sorted by tag, one per tag: later ones win) and returns its offset.
    mutating func appendDirectory(_ entries: [Entry], next: UInt32) throws(MediaError) -> UInt32 {
        var byTag: [UInt16: Entry] = [:]
        for e in entries { byTag[e.tag] = e }
        let sorted = byTag.values.sorted { $0.tag < $1.tag }
        var data = u16(UInt16(sorted.count))
        for e in sorted { data += u16(e.tag) + u16(e.type) + u32(e.count) + e.value }
        data += u32(next)
        return try append(data)
    }

    mutating func patchU32(at index: Int, _ value: UInt32) throws(MediaError) {
        guard index >= 0, index + 4 <= bytes.count else { throw MediaError.invalid("Exif patch outside the data") }
        bytes.replaceSubrange(index..<index + 4, with: u32(value))
    }
    mutating func patchBytes(at index: Int, _ value: [UInt8]) throws(MediaError) {
        guard index >= 0, index + value.count <= bytes.count else { throw MediaError.invalid("Exif patch outside the data") }
        bytes.replaceSubrange(index..<index + value.count, with: value)
    }
}
