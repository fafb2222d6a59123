/// Builds an Apple MakerNote (`Apple iOS\0`, version, byte-order mark, IFD whose offsets count from the
/// MakerNote's first byte) with a content identifier, keeping every entry of an existing one.
enum AppleMakerNoteWriter {
    static let contentIdentifierTag: UInt16 = 0x0011

    /// True when `bytes` start with the Apple signature.
    static func isApple(_ bytes: [UInt8]) -> Bool { bytes.starts(with: AppleMakerNote.signature) }

    /// - Parameter existing: the current MakerNote bytes (must be Apple's), or nil for a fresh one.
    /// - Parameter identifier: the content identifier to set, or nil to remove it (every other entry kept).
    static func makerNote(existing: [UInt8]?, setting identifier: String?, limits: ParseLimits = .default) throws(MediaError) -> [UInt8] {
        var header = AppleMakerNote.signature + [0, 1] + Array("MM".utf8)
        var order = ByteOrder.bigEndian
        var values: [(tag: UInt16, type: UInt16, count: UInt32, data: [UInt8])] = []
        if let existing {
            guard existing.count >= 16, isApple(existing) else { throw MediaError.invalid("not an Apple MakerNote") }
            header = Array(existing[0..<14])
            switch (existing[12], existing[13]) {
            case (0x4D, 0x4D): order = .bigEndian
            case (0x49, 0x49): order = .littleEndian
            default: throw MediaError.invalid("Apple MakerNote: unknown byte-order mark")
            }
            // Same IFD layout as TIFF, offsets counted from the MakerNote start.
            let editor = TIFFAppendEditor(buffer: existing, byteOrder: order, minimumIFDOffset: 14, limits: limits)
            let directory = try editor.readDirectory(at: 14, context: "Apple MakerNote")
            for entry in directory.entries {
                guard let data = editor.valueBytes(entry) else {
                    throw MediaError.invalid("Apple MakerNote tag 0x\(String(entry.tag, radix: 16)): value outside the MakerNote")
                }
                values.append((entry.tag, entry.type, entry.count, data))
            }
        }
        values.removeAll { $0.tag == contentIdentifierTag }
        if let identifier {
            let ascii = Array(identifier.utf8) + [0]
            values.append((contentIdentifierTag, 2, UInt32(ascii.count), ascii))
        }
        values.sort { $0.tag < $1.tag }

        func u16(_ v: UInt16) -> [UInt8] { order == .bigEndian ? BigEndian.u16(v) : BigEndian.u16(v).reversed() }
        func u32(_ v: UInt32) -> [UInt8] { order == .bigEndian ? BigEndian.u32(v) : BigEndian.u32(v).reversed() }
        let dataStart = 14 + 2 + 12 * values.count + 4
        var table = u16(UInt16(values.count))
        var data: [UInt8] = []
        for value in values {
            table += u16(value.tag) + u16(value.type) + u32(value.count)
            if value.data.count <= 4 {
                table += value.data + [UInt8](repeating: 0, count: 4 - value.data.count)
            } else {
                table += u32(UInt32(dataStart + data.count))
                data += value.data
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return header + table + u32(0) + data
    }
}
