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
            var openings = 0
            for i in bytes.indices {
                let b = bytes[i]
                if b == UInt8(ascii: "<") {
                    openings += 1
                    continue
                }
                guard b >= 64, b < 128 else { continue }
                for name in table[Int(b) - 64] where i + name.count <= bytes.count {
                    var equal = true
                    for k in 1..<name.count where bytes[i + k] != name[k] { equal = false; break }
                    if equal { return true }
                }
            }
            return openings > XMPReader.maxElementDepth
        }
    }
}
