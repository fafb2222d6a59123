import Foundation

/// One entry of a remote directory listing, already checked (see `RemoteEntryValidator`).
public struct RemoteEntry: Sendable, Hashable {
    /// Decoded file name: one path segment, never empty, never `.`/`..`, no slash, no control character.
    public var name: String
    /// Where the entry is: a listing keeps it as its shared directory text plus the entry's part (`RemoteLocation`).
    public var location: RemoteLocation
    /// Absolute URL of the entry, always directly below the listed directory on the same server (made on each
    /// read from `location`: code that looks at every entry of a listing uses `name` and `location`).
    public var url: URL {
        get { location.url }
        set { location = RemoteLocation(newValue) }
    }
    public var isDirectory: Bool
    /// Exact size in bytes when the listing gives it (nginx, WebDAV); nil when absent or rounded (Apache "3.3M").
    public var size: UInt64?
    public var modificationTime: Date?
    public var etag: String?

    public init(name: String, url: URL, isDirectory: Bool, size: UInt64? = nil,
                modificationTime: Date? = nil, etag: String? = nil) {
        self.name = name
        self.location = RemoteLocation(url)
        self.isDirectory = isDirectory
        self.size = size
        self.modificationTime = modificationTime
        self.etag = etag
    }
}

extension RemoteEntry {
    /// `url.pathExtension`, without making the URL for a plain name (letters, digits, "_", "-" and one dot
    /// inside it, as cameras name files): the remote library looks at every entry's extension. Any other name
    /// asks the URL, whose rules for names like "..jpg" or "a. b" are the ones the library always followed.
    public var nameExtension: String {
        let utf8 = name.utf8
        var dot: String.UTF8View.Index?
        for index in utf8.indices {
            switch utf8[index] {
            case UInt8(ascii: "."):
                guard dot == nil else { return url.pathExtension }
                dot = index
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                continue
            default:
                return url.pathExtension
            }
        }
        guard let dot, dot != utf8.startIndex, utf8.index(after: dot) != utf8.endIndex else { return url.pathExtension }
        return String(name[utf8.index(after: dot)...])
    }
}

/// A listing entry refused because its name or link could reach outside the listed directory.
public struct RejectedRemoteEntry: Sendable, Hashable, CustomStringConvertible {
    /// The href (or name) as the server sent it.
    public var raw: String
    public var reason: String
    public init(raw: String, reason: String) {
        self.raw = raw
        self.reason = reason
    }
    public var description: String { "\(raw.debugDescription): \(reason)" }
}

/// Which server software wrote a listing (detected from the body; parsing does not depend on it much).
public enum RemoteListingFormat: String, Sendable {
    case nginxHTML, nginxJSON, apacheHTML, pythonHTML, genericHTML, webDAV
    /// SFTP (`ls -l`-style long names checked against the names-only listing).
    case sftp
    /// A directory on this machine (`LocalDirectorySource`).
    case localDirectory
    /// S3's ListObjectsV2 (`S3Source`).
    case s3
}
