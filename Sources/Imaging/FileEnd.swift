import MediaFormats

/// Whether a file stops before its format says it should: the difference between "damaged JPEG: the file
/// ends early" (a copy that was interrupted, a download cut off) and "the picture data is corrupt". Reads
/// only the file's last bytes (ISO BMFF: its top-level box headers).
enum FileEnd {
    static func isCutShort(_ source: any ByteSource, format: ContainerFormat) -> Bool {
        let size = source.size
        guard size > 0 else { return true }
        func tail(_ count: UInt64) -> [UInt8] {
            let start = size > count ? size - count : 0
            return (try? source.read(at: start, count: Int(size - start))) ?? []   // try?: unread end = not known cut
        }
        func littleEndian32(at offset: UInt64) -> UInt64? {
            guard let bytes = try? source.read(at: offset, count: 4), bytes.count == 4 else { return nil }   // try?: unread = not known cut
            return UInt64(bytes[0]) | UInt64(bytes[1]) << 8 | UInt64(bytes[2]) << 16 | UInt64(bytes[3]) << 24
        }
        switch format {
        case .jpeg:
            // EOI (FF D9) cannot occur inside entropy-coded data (FF is stuffed there), so a JPEG whose last
            // bytes hold no EOI was cut (trailing padding and short trailers are tolerated).
            let end = tail(64)
            return !zip(end, end.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
        case .png:
            // IEND anywhere in the last KiB: some writers append data after it, which is no damage.
            let end = tail(1024), iend = Array("IEND".utf8)
            return !(0..<max(0, end.count - 3)).contains { Array(end[$0..<$0 + 4]) == iend }
        case .gif:
            // The trailer byte, after any zero padding.
            return tail(256).reversed().first { $0 != 0 } != 0x3B
        case .webp:
            guard let riff = littleEndian32(at: 4) else { return true }
            return riff + 8 > size
        case .bmp:
            guard let declared = littleEndian32(at: 2) else { return true }
            return declared > size
        case .heif, .quickTime, .mp4:
            return boxesRunPastEnd(source)
        case .tiff, .unknown:
            return false
        }
    }

    /// Walks the top-level boxes: one whose size reaches past the end means the file was cut.
    private static func boxesRunPastEnd(_ source: any ByteSource) -> Bool {
        let size = source.size
        var offset: UInt64 = 0
        for _ in 0..<100_000 {
            guard offset < size else { return false }
            guard let header = try? source.read(at: offset, count: 16), header.count >= 8 else { return true }   // try?: an unreadable box = cut
            var length = header[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if length == 1 {
                guard header.count == 16 else { return true }
                length = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            } else if length == 0 {
                return false  // "to the end of the file"
            }
            guard length >= 8 else { return false }  // not a box structure: not a question of length
            let (end, overflow) = offset.addingReportingOverflow(length)
            if overflow || end > size { return true }
            offset = end
        }
        return false
    }
}
