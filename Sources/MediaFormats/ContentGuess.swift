/// What a file that is no picture or movie livegrid knows seems to hold, from its first bytes: the words a
/// user needs ("not a picture: looks like text") instead of "unrecognised file signature".
public enum ContentGuess: String, Sendable, Hashable, Codable {
    case empty
    case zeros
    case text
    case html
    case xml
    case pdf
    case zipArchive
    case otherPicture
    case unknown

    /// How many first bytes `guess` looks at.
    public static let sniffBytes = 512

    /// The guess for a file whose first bytes are `head` (at most `sniffBytes` are looked at).
    public static func guess(_ head: [UInt8]) -> ContentGuess {
        let bytes = head.prefix(sniffBytes)
        guard !bytes.isEmpty else { return .empty }
        if bytes.allSatisfy({ $0 == 0 }) { return .zeros }
        func starts(_ text: String) -> Bool { bytes.starts(with: Array(text.utf8)) }
        if starts("%PDF") { return .pdf }
        if starts("PK\u{03}\u{04}") { return .zipArchive }
        // Picture formats livegrid does not decode: JPEG XL, JPEG 2000, Photoshop, camera raw (CR2/ORF/RW2
        // start like TIFF and are sniffed as TIFF before this), Windows icons.
        if bytes.starts(with: [0xFF, 0x0A]) || bytes.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20])
            || bytes.starts(with: [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts("8BPS") || starts("FUJIFILMCCD-RAW")
        {
            return .otherPicture
        }
        guard looksLikeText(bytes) else { return .unknown }
        let lowered = String(decoding: bytes.prefix(256), as: UTF8.self).lowercased()
        let trimmed = lowered.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") || lowered.contains("<head")
            || lowered.contains("<body")
        {
            return .html
        }
        if trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<svg") { return .xml }
        return .text
    }

    /// Printable ASCII, common whitespace, or valid UTF-8 (a cut at the end may split one character).
    static func looksLikeText(_ bytes: ArraySlice<UInt8>) -> Bool {
        var controls = 0
        for byte in bytes where byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C {
            controls += 1
        }
        guard controls == 0 else { return false }
        // Drop up to 3 trailing bytes of a character the sniff window cut in half.
        var body = bytes
        for _ in 0..<3 { if let last = body.last, last >= 0x80 { body = body.dropLast() } }
        return String(validating: body, as: UTF8.self) != nil || body.allSatisfy { $0 < 0x80 }
    }

    /// "looks like text", "is empty": what follows "not a picture: ".
    public var plainDescription: String {
        switch self {
        case .empty: return "the file is empty"
        case .zeros: return "the file holds only zero bytes"
        case .text: return "looks like text"
        case .html: return "looks like a web page (HTML)"
        case .xml: return "looks like an XML document"
        case .pdf: return "looks like a PDF document"
        case .zipArchive: return "looks like a ZIP archive"
        case .otherPicture: return "a picture format livegrid does not read"
        case .unknown: return "not a format livegrid knows"
        }
    }
}
