import Foundation
import LibraryCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A kind whose bytes come through livegrid's own client (libcurl) with no kind-specific handling of the
/// answer: its ranges and whole files are the client's. HTTP indexes, WebDAV and SFTP read this way; S3 reads
/// through the client too but maps its error documents, so it writes its own.
public protocol ClientServedSource: LibrarySource {
    var client: RemoteHTTPClient { get }
}

extension ClientServedSource {
    public func fetch(_ file: URL, range: RemoteFetchRange?, maxBytes: Int) async throws -> RemoteResponse {
        try await client.fetch(file, range: range, maxBytes: maxBytes)
    }

    /// For SFTP, which has no If-Range, the transfer compares the modification time itself (`.changedOnServer`).
    public func fetchWhole(_ file: URL, from offset: UInt64, validator: String?, handler: RemoteTransferHandler) throws
        -> any LibraryTransfer {
        try client.startWhole(file, from: offset, validator: validator, handler: handler)
    }
}

/// A kind spoken as plain HTTP(S) requests: the scheme's wire decides http or https.
public protocol HTTPServedSource: ClientServedSource {}

extension HTTPServedSource {
    public func request(for url: URL, method: String, range: RemoteFetchRange?) throws -> URLRequest {
        guard let scheme = url.scheme?.lowercased(), let wire = Self.schemes[scheme] else {
            throw RemoteError.unsupportedURL(url.absoluteString)
        }
        return try client.makeHTTPRequest(url, wire: wire, method: method, range: range)
    }
}
