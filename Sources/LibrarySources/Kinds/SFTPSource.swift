import Foundation
import LibraryCore
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

    /// A file the server calls missing may be a symbolic link that leads nowhere or loops: said so
    /// (`RemoteHTTPClient.explainMissingSFTPFile`), not "no such file" for a name the listing shows.
    public func fetch(_ file: URL, range: RemoteFetchRange?, maxBytes: Int) async throws -> RemoteResponse {
        do {
            return try await client.fetch(file, range: range, maxBytes: maxBytes)
        } catch RemoteError.notFound(let what) {
            throw await client.explainMissingSFTPFile(file) ?? RemoteError.notFound(what)
        }
    }

    /// As `fetch`: a missing file that is a broken link completes with `.brokenLink` (the download's reason).
    public func fetchWhole(_ file: URL, from offset: UInt64, validator: String?, handler: RemoteTransferHandler) throws
        -> any LibraryTransfer {
        let client = self.client
        let wrapped = RemoteTransferHandler(
            onResponse: handler.onResponse,
            onData: handler.onData,
            onComplete: { error in
                guard case .notFound? = error else { handler.onComplete(error); return }
                // A Task: the reason may take a listing of the folder; nothing else of this transfer follows.
                Task.detached { handler.onComplete(await client.explainMissingSFTPFile(file) ?? error) }
            })
        return try client.startWhole(file, from: offset, validator: validator, handler: wrapped)
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
