/// Samsung's SEF trailer at the very end of a JPEG: data blocks, then a directory `SEFH`, version, count,
/// entries (2 zero bytes, 2-byte marker, offset back from SEFH, size), then its length and `SEFT`.
/// All little-endian. A data block is 2 bytes, 2-byte marker, 4-byte name length, name, payload.
/// (Layout as read by exiftool's Samsung.pm ProcessSamsung.)
public enum SamsungTrailer {
    public struct Entry: Sendable, Hashable {
        public var marker: UInt16
        public var name: String
        /// The payload after the name, in file offsets.
        public var payload: ByteRange
    }

    public static let motionPhotoMarker: UInt16 = 0x0A30
    public static let motionPhotoName = "MotionPhoto_Data"
    static let footerMagic: [UInt8] = Array("SEFT".utf8)

    /// The trailer's entries; empty when the file does not end with `SEFT`.
    public static func read(_ source: any ByteSource, limits: ParseLimits,
                            problems: inout [ParseProblem]) throws(MediaError) -> [Entry] {
        let context = "jpeg/SEF trailer"
        let size = source.size
        guard size >= 8 else { return [] }
        let footer = try source.readExactly(at: size - 8, count: 8)
        // Compared in place: this runs for every probed JPEG, nearly all without a trailer.
        guard footer[4..<8].elementsEqual(footerMagic) else { return [] }
        var footerReader = ByteReader(footer, byteOrder: .littleEndian)
        let directoryLength = UInt64(try footerReader.readU32())
        guard directoryLength >= 12, directoryLength < 0x10000, directoryLength + 8 <= size,
              Int(directoryLength) <= limits.trailerProbeBytes else {
            problems.append(ParseProblem(.warning, context, "SEFT directory length \(directoryLength) is implausible"))
            return []
        }
        let directoryStart = size - 8 - directoryLength
        var directory = ByteReader(try source.readExactly(at: directoryStart, count: Int(directoryLength)),
                                   baseOffset: directoryStart, byteOrder: .littleEndian)
        guard try directory.readFourCC() == "SEFH" else {
            problems.append(ParseProblem(.warning, context, "SEFT without SEFH"))
            return []
        }
        _ = try directory.readU32()  // version
        let count = Int(try directory.readU32())
        guard count <= limits.maxEntries, 12 + 12 * count <= Int(directoryLength) else {
            problems.append(ParseProblem(.warning, context, "SEFH declares \(count) entries that do not fit"))
            return []
        }
        var entries: [Entry] = []
        for _ in 0..<count {
            _ = try directory.readU16()
            let marker = try directory.readU16()
            let offsetBack = UInt64(try directory.readU32())
            let blockSize = UInt64(try directory.readU32())
            guard offsetBack <= directoryStart, blockSize >= 8, blockSize <= offsetBack else {
                problems.append(ParseProblem(.warning, context, "entry 0x\(hex(marker)) points outside the file"))
                continue
            }
            let blockStart = directoryStart - offsetBack
            var block = ByteReader(try source.readExactly(at: blockStart, count: 8), byteOrder: .littleEndian)
            try block.skip(4)
            let nameLength = UInt64(try block.readU32())
            guard nameLength <= 256, 8 + nameLength <= blockSize else {
                problems.append(ParseProblem(.warning, context, "entry 0x\(hex(marker)) has a name of \(nameLength) bytes"))
                continue
            }
            let nameBytes = try source.readExactly(at: blockStart + 8, count: Int(nameLength))
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            let payload = ByteRange(offset: blockStart + 8 + nameLength, length: blockSize - 8 - nameLength)
            entries.append(Entry(marker: marker, name: name, payload: payload))
        }
        return entries
    }
}
