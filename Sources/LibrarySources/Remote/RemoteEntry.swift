import Foundation

/// One entry of a remote directory listing, already checked (see `RemoteEntryValidator`).
public struct RemoteEntry: Sendable, Hashable {
    /// Decoded file name: one path segment, never empty, never `.`/`..`, no slash, no control character.
    public var name: String
    /// Absolute URL of the entry, always directly below the listed directory on the same server.
    public var url: URL
    public var isDirectory: Bool
    /// Exact size in bytes when the listing gives it (nginx, WebDAV); nil when absent or rounded (Apache "3.3M").
    public var size: UInt64?
    public var modificationTime: Date?
    public var etag: String?

    public init(name: String, url: URL, isDirectory: Bool, size: UInt64? = nil,
                modificationTime: Date? = nil, etag: String? = nil) {
        self.name = name
        self.url = url
        self.isDirectory = isDirectory
        self.size = size
        self.modificationTime = modificationTime
        self.etag = etag
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
}

/// A parsed directory listing.
public struct RemoteListing: Sendable {
    public var baseURL: URL
    public var format: RemoteListingFormat
    public var entries: [RemoteEntry]
    public var rejected: [RejectedRemoteEntry]
    /// More entries followed than the listing may keep (`RemoteListingStream.maxEntries`): only the first are here.
    public var truncated = false
    public init(baseURL: URL, format: RemoteListingFormat, entries: [RemoteEntry] = [],
                rejected: [RejectedRemoteEntry] = []) {
        self.baseURL = baseURL
        self.format = format
        self.entries = entries
        self.rejected = rejected
    }

    public var files: [RemoteEntry] { entries.filter { !$0.isDirectory } }
    public var directories: [RemoteEntry] { entries.filter(\.isDirectory) }
}
