import Foundation
import MediaFormats

/// The `.trashinfo` file of the freedesktop.org Trash specification: where a trashed file came from and when.
public struct TrashInfo: Sendable, Hashable {
    /// Absolute original path (decoded).
    public var path: String
    /// `YYYY-MM-DDThh:mm:ss` in local time, as the spec writes it.
    public var deletionDate: String

    public init(path: String, deletionDate: String) {
        self.path = path
        self.deletionDate = deletionDate
    }

    public init(path: String, deletedAt date: Date) {
        self.init(path: path, deletionDate: TrashInfo.localTimestamp(date))
    }

    /// The file's text: `[Trash Info]`, `Path=` percent-encoded, `DeletionDate=`.
    public var text: String {
        "[Trash Info]\nPath=\(TrashInfo.percentEncode(path))\nDeletionDate=\(deletionDate)\n"
    }

    /// Reads a `.trashinfo` text; nil when it has no `[Trash Info]` group or no `Path`.
    public static func parse(_ text: String) -> TrashInfo? {
        var inGroup = false
        var path: String?
        var date = ""
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") { inGroup = line == "[Trash Info]"; continue }
            guard inGroup, let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq], value = String(line[line.index(after: eq)...])
            if key == "Path" { path = percentDecode(value) }
            if key == "DeletionDate" { date = value }
        }
        return path.map { TrashInfo(path: $0, deletionDate: date) }
    }

    /// URL-path encoding as GIO writes it: unreserved characters and `/` stay, every other UTF-8 byte
    /// becomes `%XX` (spaces, non-ASCII letters, `%` itself).
    public static func percentEncode(_ path: String) -> String {
        var out = ""
        for byte in PathBytes.bytes(of: path) {   // a non-UTF-8 name's own bytes, as GIO writes them
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Decodes `%XX`; a malformed escape is kept literally (never a crash on a hand-edited file).
    public static func percentDecode(_ text: String) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "%"), i + 2 < utf8.count,
               let hi = hexValue(utf8[i + 1]), let lo = hexValue(utf8[i + 2]) {
                bytes.append(hi << 4 | lo)
                i += 3
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return PathBytes.string(from: bytes)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    static func localTimestamp(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&t, &parts)
        var buffer = [Int8](repeating: 0, count: 32)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
