/// The two texts every Live Photo file carries, kept as numbers in a library's compact facts (issue 17 item 4):
/// a 36-byte identifier and a 19-25 byte date were two heap strings per file (~80 and ~64 bytes with their
/// headers), where their numbers fit in three words. Each reads back exactly as written; a text of any other
/// shape is kept as text.
enum CompactText {
    // MARK: identifiers

    /// A canonical upper-case UUID ("6F4D8B2C-1A3E-4C5B-9D7E-0123456789AB", as Apple writes identifiers) as
    /// its 32 hex digits in two words; nil for any other text (lower case, braces, other lengths).
    static func packUUID(_ text: String) -> (high: UInt64, low: UInt64)? {
        var text = text
        return text.withUTF8 { packUUID($0) }
    }

    static func packUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0
        for (position, byte) in bytes.enumerated() {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            if digits < 16 { high = high << 4 | nibble } else { low = low << 4 | nibble }
            digits += 1
        }
        return (high, low)
    }

    /// The 36 bytes of `packUUID`'s words, written into `out` (at least 36 bytes).
    static func writeUUID(high: UInt64, low: UInt64, into out: UnsafeMutableBufferPointer<UInt8>) {
        let hex: StaticString = "0123456789ABCDEF"
        var position = 0
        hex.withUTF8Buffer { hex in
            for digit in 0..<32 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    out[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = digit < 16 ? high : low
                let shift = UInt64(4 * (15 - digit % 16))
                out[position] = hex[Int((word >> shift) & 0xF)]
                position += 1
            }
        }
    }

    static func uuidText(high: UInt64, low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            writeUUID(high: high, low: low, into: buffer)
            return 36
        }
    }

    // MARK: dates

    /// The shapes of date texts kept as digits: a shape is the text with every digit replaced by "d". Exif's is
    /// first (`exifShape`); the others are QuickTime's ISO 8601 forms. A fixed list, so no table to lock.
    static let dateShapes: [[UInt8]] = [
        "dddd:dd:dd dd:dd:dd",
        "dddd-dd-ddTdd:dd:dd+dddd", "dddd-dd-ddTdd:dd:dd-dddd",
        "dddd-dd-ddTdd:dd:dd+dd:dd", "dddd-dd-ddTdd:dd:dd-dd:dd",
        "dddd-dd-ddTdd:dd:ddZ", "dddd-dd-ddTdd:dd:dd",
        "dddd:dd:dd dd:dd:dd+dd:dd", "dddd:dd:dd dd:dd:dd-dd:dd",
    ].map { Array($0.utf8) }
    static let exifShape: UInt8 = 0

    /// A date text as its digits read as one decimal number (at most 18 digits: below 2^60) and the index of its
    /// shape; nil when no shape fits. The shape fixes how many digits there are and where, so leading zeros
    /// and the separators come back exactly.
    static func packDate(_ text: String) -> (digits: UInt64, shape: UInt8)? {
        var text = text
        return text.withUTF8 { packDate($0) }
    }

    static func packDate(_ bytes: UnsafeBufferPointer<UInt8>) -> (digits: UInt64, shape: UInt8)? {
        for (index, shape) in dateShapes.enumerated() where shape.count == bytes.count {
            var digits: UInt64 = 0
            var fits = true
            for (byte, expected) in zip(bytes, shape) {
                if expected == UInt8(ascii: "d") {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { fits = false; break }
                    digits = digits * 10 + UInt64(byte - UInt8(ascii: "0"))
                } else if byte != expected {
                    fits = false
                    break
                }
            }
            if fits { return (digits, UInt8(index)) }
        }
        return nil
    }

    static func dateText(digits: UInt64, shape: UInt8) -> String {
        let template = dateShapes[Int(shape)]
        return String(unsafeUninitializedCapacity: template.count) { buffer in
            var remaining = digits
            for position in template.indices.reversed() {
                if template[position] == UInt8(ascii: "d") {
                    buffer[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
                    remaining /= 10
                } else {
                    buffer[position] = template[position]
                }
            }
            return template.count
        }
    }

    /// The six numbers of an Exif-shaped date's digits (yyyyMMddhhmmss as one decimal number).
    static func exifFields(digits: UInt64) -> ExifDateFields {
        func part(_ divisor: UInt64, _ modulus: UInt64) -> Int { Int(digits / divisor % modulus) }
        return ExifDateFields(year: part(10_000_000_000, 10_000), month: part(100_000_000, 100),
                              day: part(1_000_000, 100), hour: part(10_000, 100), minute: part(100, 100),
                              second: part(1, 100))
    }
}
