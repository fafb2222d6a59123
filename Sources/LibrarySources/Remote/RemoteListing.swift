import Foundation
import LibraryCore

/// A parsed directory listing.
public struct RemoteListing: Sendable {
    public var baseURL: URL
    public var format: RemoteListingFormat
    /// The entries; `append` stores each one's URL below `locationPrefix` (one copy of the directory's text).
    public var entries: [RemoteEntry]
    /// The listed directory's URL text, shared by the locations of the entries `append` stored.
    public let locationPrefix: RemoteLocation.Prefix
    public var rejected: [RejectedRemoteEntry]
    /// More entries followed than the listing may keep (`RemoteListingStream.maxEntries`): only the first are here.
    public var truncated = false
    /// Symbolic links among `entries`, name → target as the server reads the link (SFTP only; links are rare, so
    /// a side table rather than a field in every entry). `SFTPLinks` follows them.
    public var links: [String: String] = [:]
    public init(baseURL: URL, format: RemoteListingFormat, entries: [RemoteEntry] = [],
                rejected: [RejectedRemoteEntry] = []) {
        self.baseURL = baseURL
        self.format = format
        self.entries = []
        self.rejected = rejected
        locationPrefix = RemoteLocation.Prefix.listing(baseURL)
        for entry in entries { append(entry) }
    }

    /// Adds `entry`, its URL kept below `locationPrefix` (issue 17 item 5: a URL per entry was ~370 bytes).
    public mutating func append(_ entry: RemoteEntry) {
        var entry = entry
        entry.location = entry.location.sharing(locationPrefix)
        entries.append(entry)
    }

    public var files: [RemoteEntry] { entries.filter { !$0.isDirectory } }
    public var directories: [RemoteEntry] { entries.filter(\.isDirectory) }
}
