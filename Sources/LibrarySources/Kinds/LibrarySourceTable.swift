import Foundation

/// The one table from a URL scheme (or a short form such as scp's `host:path`) to the kind of library that
/// serves it. Nothing else in livegrid compares scheme strings: the command line, requests, listings, header
/// probes and downloads all ask here.
public enum LibrarySourceTable {
    /// Every kind, one line each. A new kind (S3...) is a new file and one line here (see `LibrarySource`).
    public static let kinds: [any LibrarySource.Type] = [
        HTTPIndexSource.self,
        WebDAVSource.self,
        SFTPSource.self,
        LocalDirectorySource.self,
        S3Source.self,
    ]

    private static let byScheme: [String: any LibrarySource.Type] = {
        var table: [String: any LibrarySource.Type] = [:]
        for kind in kinds { for scheme in kind.schemes.keys { table[scheme] = kind } }
        return table
    }()

    /// The kind of `url`, by its scheme (case-insensitive); nil for a scheme no kind serves.
    public static func kind(of url: URL) -> (any LibrarySource.Type)? {
        url.scheme.flatMap { kind(forScheme: $0) }
    }

    public static func kind(forScheme scheme: String) -> (any LibrarySource.Type)? { byScheme[scheme.lowercased()] }

    /// The wire protocol of `url`'s scheme, nil when no kind serves it.
    public static func wire(of url: URL) -> RemoteWire? {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        return byScheme[scheme]?.schemes[scheme]
    }

    /// The source for `url` on `client`; nil for a scheme no kind serves.
    public static func source(for url: URL, client: RemoteHTTPClient) -> (any LibrarySource)? {
        kind(of: url).map { $0.init(client: client) }
    }

    /// Schemes of the kinds reached over a network (what the command line takes as a remote library).
    public static var remoteSchemes: Set<String> {
        Set(byScheme.compactMap { scheme, kind in kind.schemes[scheme] == .file ? nil : scheme })
    }

    /// `url` with its scheme spelled as its kind shows and caches it (`ssh://` → `sftp://`).
    public static func canonical(_ url: URL) -> URL {
        guard let scheme = url.scheme, let kind = kind(forScheme: scheme) else { return url }
        let canonical = kind.canonicalScheme(scheme.lowercased())
        guard canonical != scheme.lowercased(), var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        parts.scheme = canonical
        return parts.url ?? url
    }

    /// The short forms, in the order they are tried: scp's `[user@]host:path` is an SFTP library.
    public static func url(fromShortForm argument: String,
                           localPathExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> URL? {
        SFTPSource.url(fromSCPForm: argument, localPathExists: localPathExists)
    }
}
