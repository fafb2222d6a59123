import LibrarySources
import MediaFormats

/// Where a JPEG's Exif thumbnail (IFD1's JPEGInterchangeFormat) lies, read from a remote file known in pieces:
/// SOI, the APPn segments up to Exif's APP1, the TIFF header, IFD0 (for the orientation and the link to IFD1)
/// and IFD1. Only those bytes are looked at, so a remote preview costs a small head and the thumbnail's own
/// range, not a fixed window that holds the MakerNote and the start of the picture (issue 30: 5-8x the
/// thumbnail's bytes with a 68 KiB head). A read of bytes not yet fetched answers `.missing` with the range
/// wanted; the caller fetches it and asks again.
enum ExifThumbnailLocator {
    struct Location: Equatable {
        /// The thumbnail's bytes in the file.
        var thumbnail: ByteRange
        /// IFD0's Orientation (1-8), nil when absent.
        var orientation: Int?
        /// Where the Exif APP1 segment ends: the next segment's marker.
        var exifEnd: UInt64
        /// An XMP APP1 came before the Exif one.
        var xmpBefore: Bool
    }

    enum Answer: Equatable {
        case found(Location)
        /// These bytes are needed to go on.
        case missing(ByteRange)
        /// No Exif thumbnail (or not one that can be trusted): the still itself is needed.
        case none
    }

    static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    /// Segments walked before Exif's APP1 at most (JFIF, ICC, Photoshop... come before it in some files).
    static let maxSegments = 16
    static let maxEntries = 512

    private struct Missing: Error { var range: ByteRange }
    private struct Unusable: Error {}

    static func locate(_ bytes: SparseByteSource) -> Answer {
        do {
            return .found(try walk(bytes))
        } catch let missing as Missing {
            return .missing(missing.range)
        } catch {
            return .none
        }
    }

    /// The APPn segments after Exif's: `.found`-style answer of whether an XMP packet follows among them
    /// (true), none does (false: the first segment that is not APPn was reached), or `.missing`.
    enum Following: Equatable {
        case xmp(Bool)
        case missing(ByteRange)
    }

    static func xmpFollows(_ bytes: SparseByteSource, from offset: UInt64) -> Following {
        var offset = offset
        do {
            for _ in 0..<maxSegments {
                let header = try read(bytes, offset, 4)
                guard header[0] == 0xFF else { return .xmp(false) }
                let marker = header[1]
                guard (0xE0...0xEF).contains(marker) else { return .xmp(false) }
                let length = UInt64(header[2]) << 8 | UInt64(header[3])
                if marker == 0xE1, length >= UInt64(xmpSignature.count) + 2,
                   try read(bytes, offset + 4, xmpSignature.count) == xmpSignature {
                    return .xmp(true)
                }
                offset += 2 + length
            }
            return .xmp(true)   // an endless run of APPn segments: assume the worst (the still is fetched)
        } catch let missing as Missing {
            return .missing(missing.range)
        } catch {
            return .xmp(true)
        }
    }

    private static func read(_ bytes: SparseByteSource, _ offset: UInt64, _ count: Int) throws -> [UInt8] {
        guard offset < bytes.size, UInt64(count) <= bytes.size - offset else { throw Unusable() }
        do {
            return try bytes.readExactly(at: offset, count: count)
        } catch let error as MediaError {
            guard SparseByteSource.isMissingBytes(error) else { throw Unusable() }
            throw Missing(range: ByteRange(offset: offset, length: UInt64(count)))
        } catch {
            throw Unusable()
        }
    }

    private static func walk(_ bytes: SparseByteSource) throws -> Location {
        guard try read(bytes, 0, 2) == [0xFF, 0xD8] else { throw Unusable() }
        var offset: UInt64 = 2
        var xmpBefore = false
        for _ in 0..<maxSegments {
            let header = try read(bytes, offset, 4)
            guard header[0] == 0xFF, (0xE0...0xEF).contains(header[1]) else { throw Unusable() }
            let length = UInt64(header[2]) << 8 | UInt64(header[3])
            guard length >= 2 else { throw Unusable() }
            if header[1] == 0xE1, length >= 2 + 6 + 8 {
                let signature = try read(bytes, offset + 4, min(Int(length) - 2, xmpSignature.count))
                if signature.starts(with: exifSignature) {
                    return try tiff(bytes, start: offset + 10, end: offset + 2 + length, xmpBefore: xmpBefore)
                }
                if signature == xmpSignature { xmpBefore = true }
            }
            offset += 2 + length
        }
        throw Unusable()
    }

    private static func tiff(_ bytes: SparseByteSource, start: UInt64, end: UInt64, xmpBefore: Bool) throws -> Location {
        let header = try read(bytes, start, 8)
        let little: Bool
        switch (header[0], header[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: throw Unusable()
        }
        func u16(_ b: [UInt8], _ i: Int) -> UInt64 {
            little ? UInt64(b[i]) | UInt64(b[i + 1]) << 8 : UInt64(b[i]) << 8 | UInt64(b[i + 1])
        }
        func u32(_ b: [UInt8], _ i: Int) -> UInt64 {
            little ? u16(b, i) | u16(b, i + 2) << 16 : u16(b, i) << 16 | u16(b, i + 2)
        }
        guard u16(header, 2) == 42 else { throw Unusable() }
        let length = end - start
        /// An IFD's entries and the offset after them (the next IFD), all inside the segment.
        func ifd(at relative: UInt64) throws -> (entries: [UInt8], count: Int, next: UInt64) {
            guard relative >= 8, relative + 2 <= length else { throw Unusable() }
            let count = Int(u16(try read(bytes, start + relative, 2), 0))
            guard count > 0, count <= maxEntries, relative + 2 + UInt64(count) * 12 + 4 <= length else { throw Unusable() }
            let entries = try read(bytes, start + relative + 2, count * 12 + 4)
            return (entries, count, u32(entries, count * 12))
        }
        /// A SHORT or LONG value held in the entry itself.
        func value(_ ifd: (entries: [UInt8], count: Int, next: UInt64), tag: UInt64) -> UInt64? {
            for i in 0..<ifd.count where u16(ifd.entries, i * 12) == tag {
                switch u16(ifd.entries, i * 12 + 2) {
                case 3: return u16(ifd.entries, i * 12 + 8)
                case 4: return u32(ifd.entries, i * 12 + 8)
                default: return nil
                }
            }
            return nil
        }
        let ifd0 = try ifd(at: u32(header, 4))
        let orientation = value(ifd0, tag: 0x0112).flatMap { (1...8).contains($0) ? Int($0) : nil }
        guard ifd0.next != 0 else { throw Unusable() }
        let ifd1 = try ifd(at: ifd0.next)
        guard let offset = value(ifd1, tag: 0x0201), let count = value(ifd1, tag: 0x0202), count > 3, count <= 1 << 20,
              offset >= 8, offset + count <= length else { throw Unusable() }
        return Location(thumbnail: ByteRange(offset: start + offset, length: count), orientation: orientation,
                        exifEnd: end, xmpBefore: xmpBefore)
    }
}
