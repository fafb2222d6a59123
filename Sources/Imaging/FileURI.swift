/// `file://` URIs as GLib's g_filename_to_uri writes them (the freedesktop thumbnail key): the absolute
/// path's bytes, with everything outside RFC 3986 unreserved characters, sub-delims except `;` (`!$&'()*+,=`), `:`, `@`
/// and `/` percent-encoded in upper-case hex.
import MediaFormats

public enum FileURI {
    public static func from(absolutePath path: String) -> String {
        let hex: [Character] = Array("0123456789ABCDEF")
        var out = "file://"
        for byte in PathBytes.bytes(of: path) {  // a non-UTF-8 name is keyed by its raw bytes, as GLib does
            if isAllowed(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }

    /// GLib's "allowed in path" set (its UNSAFE_PATH table): unreserved, sub-delims but `;`, ':', '@', '/'.
    private static func isAllowed(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
             UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }
}
