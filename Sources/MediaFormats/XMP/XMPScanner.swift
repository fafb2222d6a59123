/// A small, tolerant XML tokenizer for XMP packets (the media core has no FoundationXML).
///
/// It knows tags, attributes, text, comments, CDATA and processing instructions; anything malformed ends
/// the scan quietly at that point, since XMP in the wild is often truncated or padded with junk.
struct XMPScanner {
    enum Token: Equatable {
        case start(name: String, attributes: [Attribute], selfClosing: Bool)
        case end(name: String)
        case text(String)
    }

    struct Attribute: Equatable {
        var name: String
        var value: String
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
    private static let equals = UInt8(ascii: "="), quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")

    /// The next token, or nil at the end (or at the first thing that cannot be read).
    mutating func next() -> Token? {
        while index < bytes.count {
            if bytes[index] != Self.lt {
                let end = find(Self.lt, from: index) ?? bytes.count
                let start = index
                index = end
                // XMP packets carry kilobytes of whitespace padding between elements: look at the bytes
                // before making a String of them (decoding and walking Characters was half of a scan's CPU).
                guard bytes[start..<end].contains(where: { !Self.isXMLWhitespace($0) }) else { continue }
                let text = decodeEntities(bytes[start..<end])
                if text.contains(where: { !$0.isWhitespace }) { return .text(text) }
                continue
            }
            if hasPrefix("<!--") {
                guard let end = find(Array("-->".utf8), from: index + 4) else { return nil }
                index = end + 3
            } else if hasPrefix("<![CDATA[") {
                guard let end = find(Array("]]>".utf8), from: index + 9) else { return nil }
                let text = String(decoding: bytes[(index + 9)..<end], as: UTF8.self)
                index = end + 3
                return .text(text)
            } else if hasPrefix("<?") {
                guard let end = find(Array("?>".utf8), from: index + 2) else { return nil }
                index = end + 2
            } else if hasPrefix("<!") {
                guard let end = find(Self.gt, from: index + 2) else { return nil }
                index = end + 1
            } else if hasPrefix("</") {
                guard let end = find(Self.gt, from: index + 2) else { return nil }
                let name = String(decoding: bytes[(index + 2)..<end], as: UTF8.self).trimmingASCIIWhitespace()
                index = end + 1
                return .end(name: name)
            } else {
                return startTag()
            }
        }
        return nil
    }

    /// `<name attr="value" ...>` or `.../>`; quoted values may contain `>`.
    private mutating func startTag() -> Token? {
        index += 1
        let name = readName()
        guard !name.isEmpty else { return nil }
        var attributes: [Attribute] = []
        while true {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            if byte == Self.gt {
                index += 1
                return .start(name: name, attributes: attributes, selfClosing: false)
            }
            if byte == Self.slash {
                guard index + 1 < bytes.count, bytes[index + 1] == Self.gt else { return nil }
                index += 2
                return .start(name: name, attributes: attributes, selfClosing: true)
            }
            let attributeName = readName()
            guard !attributeName.isEmpty else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == Self.equals else { return nil }
            index += 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == Self.quote || bytes[index] == Self.apostrophe else { return nil }
            let delimiter = bytes[index]
            guard let close = find(delimiter, from: index + 1) else { return nil }
            attributes.append(Attribute(name: attributeName, value: decodeEntities(bytes[(index + 1)..<close])))
            index = close + 1
        }
    }

    /// XML's whitespace (space, tab, CR, LF); anything else in text is content.
    private static func isXMLWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func readName() -> String {
        let start = index
        while index < bytes.count {
            let b = bytes[index]
            if b == Self.gt || b == Self.slash || b == Self.equals || b <= 0x20 { break }
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] <= 0x20 { index += 1 }
    }

    private func hasPrefix(_ text: String) -> Bool {
        var i = index
        for byte in text.utf8 {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
        }
        return true
    }

    private func find(_ byte: UInt8, from: Int) -> Int? {
        var i = from
        while i < bytes.count {
            if bytes[i] == byte { return i }
            i += 1
        }
        return nil
    }

    private func find(_ pattern: [UInt8], from: Int) -> Int? {
        bytes.firstIndex(of: pattern, from: from)
    }
}

/// Decodes the five XML entities and numeric character references; unknown entities stay as written.
func decodeEntities(_ raw: ArraySlice<UInt8>) -> String {
    let text = String(decoding: raw, as: UTF8.self)
    // A byte search: `String.contains(Character)` walks grapheme clusters.
    guard raw.contains(UInt8(ascii: "&")) else { return text }
    var result = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
        result += rest[..<amp]
        let afterAmp = rest.index(after: amp)
        guard let semicolon = rest[afterAmp...].prefix(12).firstIndex(of: ";") else {
            result.append("&")
            rest = rest[afterAmp...]
            continue
        }
        let entity = rest[afterAmp..<semicolon]
        var replacement: String?
        switch entity {
        case "amp": replacement = "&"
        case "lt": replacement = "<"
        case "gt": replacement = ">"
        case "quot": replacement = "\""
        case "apos": replacement = "'"
        default:
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                replacement = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if entity.hasPrefix("#") {
                replacement = UInt32(entity.dropFirst(1)).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
        }
        if let replacement {
            result += replacement
        } else {
            result += rest[amp...semicolon]
        }
        rest = rest[rest.index(after: semicolon)...]
    }
    result += rest
    return result
}
