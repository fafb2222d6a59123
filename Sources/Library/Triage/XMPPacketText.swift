import Foundation

/// An XMP packet edited as text, so everything this program does not understand (darktable's history,
/// digiKam's tags, comments, formatting) survives an update byte for byte. Only the properties set are
/// touched: an attribute's value in place, an element's text in place, or a new attribute on the first
/// `rdf:Description`.
public struct XMPPacketText: Sendable, Hashable {
    public enum EditError: Error, CustomStringConvertible, Equatable {
        /// No `rdf:RDF` element: not an XMP packet we can add to without guessing.
        case notXMP(String)
        public var description: String {
            switch self { case .notXMP(let why): return "not an XMP sidecar: \(why)" }
        }
    }

    public static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    public private(set) var text: String
    public init(_ text: String) { self.text = text }

    /// A packet read from a file's bytes, each byte taken as one character (ISO-8859-1: a bijection of the
    /// 256 byte values), so that `bytes` gives back every byte not edited exactly as it was, whatever the
    /// file's real encoding: a Latin-1 "Café", UTF-8, or bytes that are neither. Decoding as UTF-8 instead
    /// would turn every invalid byte into U+FFFD on the way back. The markup and the values livegrid reads
    /// and writes (numbers, namespace names) are ASCII, the same in all three.
    public init(bytes: [UInt8]) {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        text = String(scalars)
    }

    /// The packet's bytes: the inverse of `init(bytes:)` (what livegrid inserts is ASCII; any other character
    /// would be one that came in as a byte, or is written as UTF-8).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if scalar.value < 0x100 { out.append(UInt8(scalar.value)) } else { out += Array(String(scalar).utf8) }
        }
        return out
    }

    /// A new, minimal packet (what a fresh sidecar starts from).
    public static func empty(toolkit: String) -> XMPPacketText {
        XMPPacketText("""
        <?xml version="1.0" encoding="UTF-8"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="\(toolkit)">
         <rdf:RDF xmlns:rdf="\(rdfNamespace)">
          <rdf:Description rdf:about=""/>
         </rdf:RDF>
        </x:xmpmeta>

        """)
    }

    /// Prefixes declared for `uri` anywhere in the packet (usually one).
    public func prefixes(for uri: String) -> [String] {
        let pattern = #"xmlns:([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')"#
        return matches(pattern, in: text).compactMap { m in
            let value = group(m, 2) ?? group(m, 3)
            return value == uri ? group(m, 1) : nil
        }
    }

    /// The value of property `name` in namespace `uri`, written as an attribute or as a simple element.
    public func value(namespace uri: String, name: String) -> String? {
        guard let found = locate(namespace: uri, name: name) else { return nil }
        return String(text[found]).xmlUnescaped
    }

    /// Sets property `name` (namespace `uri`) to `value`: in place when present, else as a new attribute of
    /// the first `rdf:Description` (declaring the namespace there with `preferredPrefix` when needed).
    public mutating func set(namespace uri: String, preferredPrefix: String, name: String, value: String) throws {
        let escaped = value.xmlEscaped
        if let found = locate(namespace: uri, name: name) {
            text.replaceSubrange(found, with: escaped)
            return
        }
        let rdf = prefixes(for: XMPPacketText.rdfNamespace).first ?? "rdf"
        var prefix = prefixes(for: uri).first
        var declaration = ""
        if prefix == nil {
            var candidate = preferredPrefix
            var n = 1
            while text.contains("xmlns:\(candidate)=") { n += 1; candidate = "\(preferredPrefix)\(n)" }
            prefix = candidate
            declaration = "\n    xmlns:\(candidate)=\"\(uri)\""
        }
        let attribute = "\(declaration)\n    \(prefix ?? preferredPrefix):\(name)=\"\(escaped)\""
        if let insertAt = endOfFirstStartTag(named: "\(rdf):Description") {
            text.insert(contentsOf: attribute, at: insertAt)
        } else if let close = text.range(of: "</\(rdf):RDF>") {
            text.insert(contentsOf: "<\(rdf):Description \(rdf):about=\"\"\(attribute)/>\n ", at: close.lowerBound)
        } else {
            throw EditError.notXMP("no \(rdf):RDF element")
        }
    }

    // MARK: locating

    /// The range of the value text of the property (inside the quotes, or between the element's tags).
    private func locate(namespace uri: String, name: String) -> Range<String.Index>? {
        for prefix in prefixes(for: uri) {
            let qname = NSRegularExpression.escapedPattern(for: "\(prefix):\(name)")
            let attribute = #"(?<=\s)"# + qname + #"\s*=\s*(?:"([^"]*)"|'([^']*)')"#
            if let m = matches(attribute, in: text).first, let r = range(m, 1) ?? range(m, 2) { return r }
            let element = "<" + qname + #"(?:\s[^>]*)?>([^<]*)</"# + qname + #"\s*>"#
            if let m = matches(element, in: text).first, let r = range(m, 1) { return r }
        }
        return nil
    }

    /// Where new attributes go in the first start tag `<name ...>`: before its `>` or `/>`, quotes respected.
    private func endOfFirstStartTag(named name: String) -> String.Index? {
        var search = text.startIndex
        while let open = text.range(of: "<" + name, range: search..<text.endIndex) {
            search = open.upperBound
            guard let next = text[open.upperBound...].first, next.isWhitespace || next == ">" || next == "/" else {
                continue
            }
            var quote: Character?
            var i = open.upperBound
            while i < text.endIndex {
                let c = text[i]
                if let q = quote {
                    if c == q { quote = nil }
                } else if c == "\"" || c == "'" {
                    quote = c
                } else if c == ">" {
                    let before = i > text.startIndex ? text.index(before: i) : i
                    return text[before] == "/" ? before : i
                }
                i = text.index(after: i)
            }
            return nil
        }
        return nil
    }

    private func matches(_ pattern: String, in text: String) -> [NSTextCheckingResult] {
        guard let re = try? NSRegularExpression(pattern: pattern) else { return [] }   // try?: the pattern is ours, built from escaped names
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text))
    }
    private func range(_ m: NSTextCheckingResult, _ i: Int) -> Range<String.Index>? {
        guard i < m.numberOfRanges, m.range(at: i).location != NSNotFound else { return nil }
        return Range(m.range(at: i), in: text)
    }
    private func group(_ m: NSTextCheckingResult, _ i: Int) -> String? {
        range(m, i).map { String(text[$0]) }
    }
}

extension String {
    var xmlEscaped: String {
        var out = ""
        for c in self {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
    var xmlUnescaped: String {
        replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
