import Foundation
import LibraryCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A WebDAV share (`dav://`, `davs://`, `webdav://`, `webdavs://`: HTTP or HTTPS on the wire). Listed with
/// `PROPFIND` Depth 1, read with ranged `GET`s.
public struct WebDAVSource: HTTPServedSource {
    public static let schemes: [String: RemoteWire] = ["dav": .http, "webdav": .http, "davs": .https, "webdavs": .https]
    /// WebDAV can take writes (PUT, MOVE, DELETE), but livegrid writes to no remote library yet.
    public static let capabilities = LibrarySourceCapabilities(pairsOnServer: false, servesThumbnails: false,
                                                               writable: false, suffixRanges: true)
    public let client: RemoteHTTPClient
    public init(client: RemoteHTTPClient) { self.client = client }

    public func list(_ directory: URL, maxEntries: Int, maxBytes: Int) async throws -> RemoteListing {
        let directory = RemoteEntryValidator.directoryURL(directory)
        guard let wireURL = try request(for: directory, method: "GET", range: nil).url else {
            throw RemoteError.unsupportedURL(directory.absoluteString)
        }
        return try await client.propfind(directory, baseURL: wireURL, maxBytes: maxBytes, maxEntries: maxEntries)
    }
}
