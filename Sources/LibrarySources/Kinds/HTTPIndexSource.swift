import Foundation
import LibraryCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A directory served as an HTTP index page (nginx/Apache autoindex in HTML or JSON, `python3 -m
/// http.server`, anything with links). Ranged reads where the server honours `Range`; a server that does
/// not (python's) is read from the start and cut (see `RemoteHTTPClient.fetch`).
public struct HTTPIndexSource: HTTPServedSource {
    public static let schemes: [String: RemoteWire] = ["http": .http, "https": .https]
    public static let capabilities = LibrarySourceCapabilities(pairsOnServer: false, servesThumbnails: false,
                                                               writable: false, suffixRanges: true)
    public let client: RemoteHTTPClient
    public init(client: RemoteHTTPClient) { self.client = client }

    /// `GET` and the index page parsed as it arrives (HTML, JSON or a WebDAV answer, told apart by the body).
    /// A location that refuses `GET` on a directory (403/405/501: nginx `dav_methods` without autoindex) is
    /// asked again as WebDAV.
    public func list(_ directory: URL, maxEntries: Int, maxBytes: Int) async throws -> RemoteListing {
        let directory = RemoteEntryValidator.directoryURL(directory)
        let request = try self.request(for: directory, method: "GET", range: nil)
        guard let wireURL = request.url else { throw RemoteError.unsupportedURL(directory.absoluteString) }
        do {
            return try await client.streamListing(request, baseURL: wireURL, maxBytes: maxBytes, maxEntries: maxEntries)
        } catch RemoteError.httpStatus(let code, _) where [403, 405, 501].contains(code) {
            return try await client.propfind(directory, baseURL: wireURL, maxBytes: maxBytes, maxEntries: maxEntries)
        }
    }
}
