/// PNG chunk surgery: insert tEXt chunks after IHDR, read them back. Bounds-checked: a broken file gives
/// an error or an empty result, never a trap.
public enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    struct Chunk {
        var type: String
        /// Range of the data bytes in the file.
        var data: Range<Int>
        /// Offset just past the CRC.
        var end: Int
    }

    /// Chunks in file order; stops quietly at the first malformed one.
    static func chunks(of png: [UInt8]) -> [Chunk] {
        guard png.count >= 8, Array(png[0..<8]) == signature else { return [] }
        var result: [Chunk] = []
        var p = 8
        while p + 12 <= png.count {
            let length = Int(png[p]) << 24 | Int(png[p + 1]) << 16 | Int(png[p + 2]) << 8 | Int(png[p + 3])
            let type = String(decoding: png[p + 4..<p + 8], as: UTF8.self)
            let dataStart = p + 8
            guard length >= 0, length <= png.count - dataStart - 4 else { break }
            result.append(Chunk(type: type, data: dataStart..<dataStart + length, end: dataStart + length + 4))
            p = dataStart + length + 4
            if type == "IEND" { break }
        }
        return result
    }

    /// The tEXt chunks as key → value (Latin-1 per the PNG spec; ASCII in practice for thumbnails).
    public static func textEntries(of png: [UInt8]) -> [String: String] {
        var entries: [String: String] = [:]
        for chunk in chunks(of: png) where chunk.type == "tEXt" {
            let data = png[chunk.data]
            guard let zero = data.firstIndex(of: 0) else { continue }
            let key = String(decoding: data[data.startIndex..<zero], as: UTF8.self)
            let value = String(data[(zero + 1)...].map { Character(Unicode.Scalar($0)) })
            entries[key] = value
        }
        return entries
    }

    /// `png` with `text` inserted as tEXt chunks right after IHDR.
    static func inserting(text: [(key: String, value: String)], into png: [UInt8]) throws(ImagingError) -> [UInt8] {
        guard !text.isEmpty else { return png }
        guard let ihdr = chunks(of: png).first, ihdr.type == "IHDR" else {
            throw ImagingError.cannotEncode("PNG without IHDR")
        }
        var out = Array(png[0..<ihdr.end])
        for (key, value) in text {
            // tEXt is Latin-1: keys are ASCII; a non-Latin-1 value (URIs are percent-encoded, so never in
            // practice) is stored as its UTF-8 bytes.
            var data = Array(key.utf8.prefix(79))
            data.append(0)
            data.append(contentsOf: value.unicodeScalars.allSatisfy { $0.value < 256 }
                        ? value.unicodeScalars.map { UInt8($0.value) } : Array(value.utf8))
            out.append(contentsOf: chunk(type: "tEXt", data: data))
        }
        out.append(contentsOf: png[ihdr.end...])
        return out
    }

    static func chunk(type: String, data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        let n = UInt32(data.count)
        bytes += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        let typed = Array(type.utf8) + data
        bytes += typed
        let crc = CRC32.checksum(typed)
        bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return bytes
    }
}

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) as PNG chunks use.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
