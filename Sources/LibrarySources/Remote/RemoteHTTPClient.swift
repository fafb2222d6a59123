import Concurrent
import Foundation
import LibraryCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Settings of the remote client; tests shorten the timeouts.
public struct RemoteHTTPConfiguration: Sendable {
    /// Longest silence while waiting for bytes (a stalled server fails with `.timedOut`).
    public var idleTimeout: TimeInterval = 20
    /// Longest total time for one request; downloads are long, so this is generous.
    public var resourceTimeout: TimeInterval = 6 * 3600
    public var maxRedirects = 5
    /// Credentials by host; nil loads `$NETRC` or `~/.netrc`.
    public var netrc: Netrc?
    public var userAgent = "livegrid"
    /// PEM file of the certificate authorities to trust for https (CURLOPT_CAINFO); nil trusts the system's.
    public var caBundlePath: String?
    /// `sftp://` (and `ssh://`) settings: known_hosts, identities, agent, OpenSSH configuration, prompts.
    public var ssh = SSHConfiguration()
    /// `s3://` settings: endpoint, region, credentials (`S3Settings.resolve`).
    public var s3 = S3Settings()
    /// Worker threads (each a curl multi handle with its own connections) that SFTP transfers are spread over.
    /// libcurl ends every SFTP transfer with a blocking close (one round trip inside `curl_multi_perform`), during
    /// which nothing else on that thread moves; HTTP stays on the first (DECISIONS.md, "SFTP links and large
    /// remote scans": at 20 ms round trips, 1 worker probed 24 files/s, 4 45/s, 8 58/s).
    public var sftpWorkers = 8
    public init() {}
}

/// Callbacks of one streaming request. Called on the client's worker thread, in order: `onResponse` once (the
/// final response, after redirects), `onData` for each piece of the body, `onComplete` exactly once and last.
/// A handler that returns an error ends the transfer, which then completes with that error.
// unchecked: closures called only on the curl worker thread (C callbacks), never concurrently.
public struct RemoteTransferHandler: @unchecked Sendable {
    public var onResponse: (HTTPURLResponse) -> RemoteError?
    /// The `Data` lends libcurl's receive buffer for the duration of the call: copy what you keep. The next
    /// bytes are read from the socket only after this returns (that is the backpressure).
    public var onData: (Data) -> RemoteError?
    public var onComplete: (RemoteError?) -> Void
    public init(onResponse: @escaping (HTTPURLResponse) -> RemoteError?, onData: @escaping (Data) -> RemoteError?,
                onComplete: @escaping (RemoteError?) -> Void) {
        self.onResponse = onResponse
        self.onData = onData
        self.onComplete = onComplete
    }
}

/// HTTP(S), WebDAV and SFTP client on libcurl (see `CurlEngine`: one worker thread, system CAs, HTTP/1.1 keep-alive, bodies
/// streamed straight from curl's buffer to the handler). Nothing is buffered whole: small fetches keep at most
/// their cap, downloads append each piece to disk. Redirects are followed up to `maxRedirects`, and
/// credentials from the URL's userinfo or netrc are sent as Basic auth only to the host they belong to.
public final class RemoteHTTPClient: Sendable {
    public let configuration: RemoteHTTPConfiguration
    /// `engines[0]` serves HTTP; SFTP transfers go to the engine with the fewest running (`sftpWorkers`), so
    /// that each keeps as few SSH connections as the work needs (libcurl opens one per transfer running at once
    /// on an engine and keeps it). An engine starts its thread only when its first transfer arrives.
    private let engines: [CurlEngine]
    private let netrc: Netrc
    /// What requests on any thread learn and share.
    struct Shared {
        /// SFTP transfers running on each engine.
        var sftpRunning: [Int]
        var credentialsByHost: [String: Netrc.Credentials] = [:]
        /// Request signing by `host:port` (`sign(host:port:with:)`).
        var signingByHost: [String: RemoteSigning] = [:]
        /// SFTP: resolved host settings and the login that worked, by `user@host:port` as written in URLs.
        var sshSessions: [String: SSHSession] = [:]
        /// SFTP: what the last listing of each folder says about its symbolic links (`SFTPLinks`), by the
        /// folder's URL; an empty table for a folder listed without links.
        var sftpLinkVerdicts: [String: [String: SFTPLinks.Verdict]] = [:]
        /// Passwords given in `sftp://user:password@host/` URLs, by the same key.
        var sshURLPasswords: [String: String] = [:]
    }
    let shared: Locked<Shared>

    /// Receive buffer of downloads: big pieces mean few handler calls (and few write(2)s) per megabyte.
    static let downloadBufferSize = 512 << 10
    /// Receive buffer of small fetches (header probes, listings), many of which run at once.
    static let fetchBufferSize = 64 << 10

    /// A started request; `cancel()` ends it with `.cancelled` (from any thread; a no-op once it completed).
    // unchecked: wraps a curl easy handle's transfer (C, worker-thread state); cancelled through its `Locked` stop reason.
    public final class Task: @unchecked Sendable {
        fileprivate let transfer: CurlTransfer
        fileprivate weak var engine: CurlEngine?
        fileprivate init(transfer: CurlTransfer, engine: CurlEngine) { self.transfer = transfer; self.engine = engine }
        public func cancel() {
            if let engine { engine.cancel(transfer, reason: .cancelled) } else { transfer.stop(.cancelled) }
        }
    }

    public init(configuration: RemoteHTTPConfiguration = RemoteHTTPConfiguration()) {
        self.configuration = configuration
        self.netrc = configuration.netrc ?? Netrc()   // the executable loads ~/.netrc (RemoteCommandSupport)
        engines = (0..<max(1, configuration.sftpWorkers)).map { _ in CurlEngine() }
        shared = Locked(Shared(sftpRunning: Array(repeating: 0, count: engines.count)))
    }

    deinit { invalidate() }

    /// Ends the client; outstanding transfers complete with `.cancelled`, later ones at once with `.cancelled`.
    /// Returns when the workers have closed their connections, or after 2 s (a server that stopped answering).
    public func invalidate() {
        for engine in engines { engine.shutdown() }
        let deadline = DispatchTime.now() + 2
        for engine in engines { engine.waitForWorker(until: deadline) }
    }

    // MARK: requests

    /// The wire request for `url`, made by its kind of library (`LibrarySourceTable`): for HTTP kinds the
    /// userinfo is removed from the URL and remembered for its host (so entries listed below a
    /// `https://user:pw@host/` root authenticate too).
    public func makeRequest(_ url: URL, method: String = "GET", range: RemoteFetchRange? = nil) throws -> URLRequest {
        guard let source = LibrarySourceTable.source(for: url, client: self) else {
            throw RemoteError.unsupportedURL(url.absoluteString)
        }
        return try source.request(for: url, method: method, range: range)
    }

    /// An HTTP(S) request for `url`, sent as `wire` whatever the URL's own scheme (`dav://` is HTTP).
    func makeHTTPRequest(_ url: URL, wire: RemoteWire, method: String, range: RemoteFetchRange?) throws -> URLRequest {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true), wire == .http || wire == .https else {
            throw RemoteError.unsupportedURL(url.absoluteString)
        }
        parts.scheme = wire == .https ? "https" : "http"
        guard let host = parts.host?.lowercased(), !host.isEmpty else { throw RemoteError.unsupportedURL(url.absoluteString) }
        let hostKey = host + ":" + String(parts.port ?? (parts.scheme == "https" ? 443 : 80))
        if let user = parts.user {
            let creds = Netrc.Credentials(login: user.removingPercentEncoding ?? user,
                                          password: (parts.password ?? "").removingPercentEncoding ?? "")
            shared.withLockedValue { $0.credentialsByHost[hostKey] = creds }
        }
        parts.user = nil
        parts.password = nil
        guard let clean = parts.url else { throw RemoteError.unsupportedURL(url.absoluteString) }
        var request = URLRequest(url: clean)
        request.httpMethod = method
        request.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")  // byte ranges of the file itself
        if let range { request.setValue(range.headerValue, forHTTPHeaderField: "Range") }
        if let creds = shared.withLockedValue({ $0.credentialsByHost[hostKey] }) ?? netrc.credentials(forHost: host) {
            let token = Data("\(creds.login):\(creds.password)".utf8).base64EncodedString()
            request.setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
        }
        return request
    }

    /// Starts a streaming request.
    @discardableResult
    public func start(_ request: URLRequest, handler: RemoteTransferHandler) -> Task {
        start(request, bufferSize: Self.downloadBufferSize, handler: handler)
    }

    /// Requests to `host:port` are signed by libcurl with `signing` from now on (an S3 kind's endpoint). With
    /// `pathPrefix` (a percent-encoded path ending in "/"), only requests below it: a path-style S3 endpoint
    /// serves buckets of several regions, each signed for its own (the longest registered prefix wins).
    public func sign(host: String, port: Int, pathPrefix: String = "", with signing: RemoteSigning) {
        shared.withLockedValue { $0.signingByHost[host.lowercased() + ":" + String(port) + pathPrefix] = signing }
    }

    /// The signing registered for a wire URL's host and port (and the longest registered path prefix of its
    /// path), if any.
    func signing(for url: URL) -> RemoteSigning? {
        guard let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        let origin = host + ":" + String(port)
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return shared.withLockedValue { shared in
            // A few keys per client (one per endpoint and bucket): the walk costs nothing beside a request.
            var best: (length: Int, signing: RemoteSigning)?
            for (key, signing) in shared.signingByHost where key.hasPrefix(origin) {
                let prefix = key.dropFirst(origin.count)
                guard prefix.isEmpty || (prefix.first == "/" && path.hasPrefix(prefix)) else { continue }
                if prefix.count >= (best?.length ?? -1) { best = (prefix.count, signing) }
            }
            return best?.signing
        }
    }

    /// Starts a download of the whole file, or of its rest from `offset` (with `validator` as `If-Range`).
    func startWhole(_ url: URL, from offset: UInt64, validator: String?, handler: RemoteTransferHandler) throws -> Task {
        var request = try makeRequest(url, range: offset > 0 ? .from(offset) : nil)
        if offset > 0, let validator { request.setValue(validator, forHTTPHeaderField: "If-Range") }
        return start(request, handler: handler)
    }

    @discardableResult
    func start(_ request: URLRequest, bufferSize: Int, listOnly: Bool = false, handler: RemoteTransferHandler) -> Task {
        var ssh: SSHTransferSettings?
        var handler = handler
        var engineIndex = 0
        if let url = request.url, Self.isSFTP(url) {
            ssh = transferSettings(for: url)
            ssh?.listOnly = listOnly
            engineIndex = shared.withLockedValue { shared in
                let running = shared.sftpRunning
                let index = running.indices.min { running[$0] < running[$1] } ?? 0
                shared.sftpRunning[index] += 1
                return index
            }
            let completed = handler.onComplete
            let chosen = engineIndex
            handler.onComplete = { [weak self] error in
                if let self { self.shared.withLockedValue { $0.sftpRunning[chosen] -= 1 } }
                completed(error)
            }
        }
        let transfer = CurlTransfer(request: request, handler: handler, configuration: configuration,
                                    bufferSize: bufferSize, ssh: ssh,
                                    signing: ssh == nil ? request.url.flatMap { signing(for: $0) } : nil)
        let engine = engines[engineIndex]
        engine.submit(transfer)
        return Task(transfer: transfer, engine: engine)
    }
}
