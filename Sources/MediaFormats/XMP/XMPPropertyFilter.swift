/// Decides, by scanning bytes, whether `XMPReader` could find anything in a packet.
///
/// Everything the reader reports comes from a property whose local name is one of `localNames` (or from a
/// `Container:Item` element), compared byte for byte: names are not entity-decoded. Its only other reports
/// are limits: nesting deeper than `XMPReader.maxElementDepth` (which needs more start tags, so more `<`
/// bytes, than that) and more tokens than `maxEntries * 64` (each token takes at least one byte). A packet
/// with none of these names, few enough `<` and few enough bytes therefore reads as the empty summary, and
/// `XMPReader.parse` returns that without tokenizing.
enum XMPPropertyFilter {
    /// Every local name `XMPReader.ReaderState.property` and `handle` match, as bytes.
    static let localNames: [[UInt8]] = [
        "MotionPhoto", "MicroVideo", "Mime", "Semantic", "Length", "Padding", "Orientation", "Rating",
        "GPSLatitude", "GPSLongitude", "HasExtendedXMP", "ContentIdentifier", "Item",
    ].map { Array($0.utf8) }

    /// `localNames` by first byte (upper-case ASCII letters, so 64..<128), for one table look-up per byte.
    private static let namesByFirstByte: [[[UInt8]]] = (64..<128).map { first in
        localNames.filter { $0[0] == UInt8(first) }
    }

    static func mayHoldProperties(_ packet: [UInt8], limits: ParseLimits) -> Bool {
        guard packet.count <= limits.maxEntries * 64 else { return true }
        let table = namesByFirstByte   // read once: a static in the loop costs a lazy-initialisation check per use
        return packet.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return false }
            var openings = 0
            var i = 0
            while i < bytes.count {
                // Eight bytes at a time through the padding and punctuation (packets carry ~2 KB of spaces):
                // no byte >= 64 (so no letter that starts a name) and none is `<`.
                if i + 8 <= bytes.count {
                    let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    if word & 0xC0C0_C0C0_C0C0_C0C0 == 0 && !hasZeroByte(word ^ 0x3C3C_3C3C_3C3C_3C3C) {
                        i += 8
                        continue
                    }
                }
                let b = bytes[i]
                if b == UInt8(ascii: "<") {
                    openings += 1
                } else if b >= 64, b < 128 {
                    for name in table[Int(b) - 64] where i + name.count <= bytes.count {
                        var equal = true
                        for k in 1..<name.count where bytes[i + k] != name[k] { equal = false; break }
                        if equal { return true }
                    }
                }
                i += 1
            }
            return openings > XMPReader.maxElementDepth
        }
    }

    /// Whether any byte of `word` is zero (exact: the borrow can misplace the flag, never invent one when no
    /// byte is zero).
    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
    }
}
