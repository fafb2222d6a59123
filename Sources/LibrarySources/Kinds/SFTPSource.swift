import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A directory reached by SFTP over SSH (`sftp://`, `ssh://`, and scp's `[user@]host:path`). Logs in the way
/// OpenSSH would (agent, identity files, then a password: `RemoteHTTPClient.prepare`), lists with the long
/// and the names-only listing checked against each other, reads byte ranges with a start (no suffix ranges).
public struct SFTPSource: ClientServedSource {
    public static let schemes: [String: RemoteWire] = ["sftp": .sftp, "ssh": .sftp]
    /// SFTP can take writes, but livegrid writes to no remote library yet.
    public static let capabilities = LibrarySourceCapabilities(pairsOnServer: false, servesThumbnails: false,
                                                               writable: false, suffixRanges: false)
    public static func canonicalScheme(_ scheme: String) -> String { "sftp" }

    public let client: RemoteHTTPClient
    public init(client: RemoteHTTPClient) { self.client = client }

    public func prepare(_ directory: URL) async throws { try await client.prepareSFTP(directory) }

    public func list(_ directory: URL, maxEntries: Int, maxBytes: Int) async throws -> RemoteListing {
        try await client.listSFTP(RemoteEntryValidator.directoryURL(directory), maxBytes: maxBytes, maxEntries: maxEntries)
    }

    public func request(for url: URL, method: String, range: RemoteFetchRange?) throws -> URLRequest {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw RemoteError.unsupportedURL(url.absoluteString)
        }
        return try client.makeSFTPRequest(parts, url: url, method: method, range: range)
    }

    /// scp's `[user@]host:path` → `sftp://[user@]host/~/path` (or `/path` when absolute). Unambiguous only:
    /// no `://`, no `/` before the colon, a plain host name, and no local file or directory of that name.
    public static func url(fromSCPForm argument: String,
                           localPathExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> URL? {
        guard !argument.contains("://"), let colon = argument.firstIndex(of: ":"), !localPathExists(argument) else { return nil }
        let login = argument[..<colon]
        let path = String(argument[argument.index(after: colon)...])
        var user: Substring?
        var host = login
        if let at = login.lastIndex(of: "@") {
            user = login[..<at]
            host = login[login.index(after: at)...]
        }
        let hostCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_"))
        guard !host.isEmpty, !host.hasPrefix("-"), host.unicodeScalars.allSatisfy(hostCharacters.contains),
              user.map({ !$0.isEmpty && !$0.contains("/") && !$0.contains(":") }) ?? true else { return nil }
        var parts = URLComponents()
        parts.scheme = "sftp"
        parts.user = user.map(String.init)
        parts.host = String(host)
        let absolute = path.hasPrefix("/") ? path : "/~/" + path
        parts.path = absolute.hasSuffix("/") ? absolute : absolute + "/"
        return parts.url
    }
}
