import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One kind of library livegrid can browse: a local directory, an HTTP index, a WebDAV share, an SFTP login.
/// Everything a kind knows (its URL schemes, how its URLs become requests, how it lists a directory, what it
/// can do) lives in its own type, in its own file; nothing else in livegrid compares scheme strings. The
/// browser, `scan` and `export` ask for a source through `LibrarySourceTable` and use only these verbs.
///
/// **Adding a kind** (S3, a photo server...): write one new type conforming to `LibrarySource` in a new
/// file (plus whatever helpers it needs, in new files), and add **one line** to `LibrarySourceTable.kinds`.
/// Its schemes are then accepted on the command line, its URLs get requests, listings, header probes and
/// downloads, and its capabilities tell the browser what it may offer (e.g. no writing back). A kind that
/// speaks HTTP on the wire (S3 signs HTTP requests) declares `.http`/`.https` as its wire and builds its
/// requests itself in `request(for:method:range:)`.
///
/// The verbs:
/// - `list`: one directory, streamed (the body is parsed as it arrives) and capped at `maxEntries` entries
///   and `maxBytes` bytes; a cut listing is `truncated`. A kind with paged listings (S3's ListObjectsV2)
///   reads pages until the cap and marks the listing `truncated` when pages remain.
/// - `fetch`: a byte range (or the start of a file) into memory, at most `maxBytes`.
/// - `fetchWhole`: the whole file (or its rest from an offset, to resume), streamed to a handler.
public protocol LibrarySource: Sendable {
    /// The URL schemes of this kind (lower case) and the protocol each one speaks on the wire.
    static var schemes: [String: RemoteWire] { get }
    /// What this kind can do, as values (never decided from a scheme elsewhere).
    static var capabilities: LibrarySourceCapabilities { get }
    /// The spelling a scheme is shown and cached under (`ssh` → `sftp`); the scheme itself by default.
    static func canonicalScheme(_ scheme: String) -> String

    init(client: RemoteHTTPClient)

    /// Logs in (or checks that the library answers) before the first listing; a no-op by default.
    func prepare(_ directory: URL) async throws
    func list(_ directory: URL, maxEntries: Int, maxBytes: Int) async throws -> RemoteListing
    /// `list`, handing the entries so far to `pages` after each page of a paged listing while more pages
    /// follow (S3's ListObjectsV2: 1,000 keys a page), so that a browser draws its first screen before the last
    /// page. The returned listing is the whole one, as `list`'s. A kind listed in one answer never calls `pages`
    /// (the default).
    func list(_ directory: URL, maxEntries: Int, maxBytes: Int, pages: RemoteListingPages?) async throws -> RemoteListing
    /// The directory and everything below it in one walk, for a kind whose listing can give it (S3 without
    /// `delimiter`); nil (the default) when the kind is listed folder by folder.
    func listTree(_ directory: URL, maxEntries: Int, maxBytes: Int) async throws -> RemoteListingTree?
    func fetch(_ file: URL, range: RemoteFetchRange?, maxBytes: Int) async throws -> RemoteResponse
    /// Starts streaming the file (from `offset`; `validator`, when given, makes a changed file come whole
    /// again, HTTP's `If-Range`). The handler is called as `RemoteTransferHandler` documents.
    func fetchWhole(_ file: URL, from offset: UInt64, validator: String?, handler: RemoteTransferHandler) throws
        -> any LibraryTransfer
    /// The wire request for a URL of this kind (credentials taken out of the URL, ranges as headers).
    func request(for url: URL, method: String, range: RemoteFetchRange?) throws -> URLRequest
}

/// What a kind of library can do besides listing and reading bytes.
public struct LibrarySourceCapabilities: Sendable, Equatable {
    /// The server itself says which still and movie belong together (a photo server's API). When false,
    /// livegrid pairs from the bytes it reads (header ranges, or the downloaded files).
    public var pairsOnServer: Bool
    /// The server makes thumbnails itself. When false, livegrid draws them from the files' own bytes.
    public var servesThumbnails: Bool
    /// livegrid may write there: ratings, trash, moves. Remote kinds are read-only today.
    public var writable: Bool
    /// "The last N bytes" can be asked without knowing the size (HTTP `bytes=-N`); SFTP needs the size.
    public var suffixRanges: Bool

    public init(pairsOnServer: Bool, servesThumbnails: Bool, writable: Bool, suffixRanges: Bool) {
        self.pairsOnServer = pairsOnServer
        self.servesThumbnails = servesThumbnails
        self.writable = writable
        self.suffixRanges = suffixRanges
    }
}

/// The protocol a kind's URLs speak on the wire (what libcurl is set up for).
public enum RemoteWire: Sendable, Equatable {
    case http, https, sftp
    /// Files on this machine, read directly (no libcurl).
    case file
}

/// A started `fetchWhole`: `cancel()` ends it with `.cancelled` (from any thread; a no-op once complete).
public protocol LibraryTransfer: Sendable {
    func cancel()
}

extension RemoteHTTPClient.Task: LibraryTransfer {}

extension LibrarySource {
    public static func canonicalScheme(_ scheme: String) -> String { scheme }
    public var capabilities: LibrarySourceCapabilities { Self.capabilities }
    public func prepare(_ directory: URL) async throws {}
    public func list(_ directory: URL, maxEntries: Int, maxBytes: Int, pages: RemoteListingPages?) async throws -> RemoteListing {
        try await list(directory, maxEntries: maxEntries, maxBytes: maxBytes)
    }
    public func listTree(_ directory: URL, maxEntries: Int, maxBytes: Int) async throws -> RemoteListingTree? { nil }
}

/// Receives a paged listing's entries so far (`LibrarySource.list(_:maxEntries:maxBytes:pages:)`).
public typealias RemoteListingPages = @Sendable (RemoteListing) -> Void
