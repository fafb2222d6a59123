import Foundation
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
    public init() {}
}

/// Callbacks of one streaming request. Called on the client's serial delegate queue, in order.
public struct RemoteTransferHandler: @unchecked Sendable {
    /// Return false to stop (the transfer then completes with `.cancelled` unless `onComplete` is told otherwise).
    public var onResponse: (HTTPURLResponse) -> RemoteError?
    public var onData: (Data) -> RemoteError?
    public var onComplete: (RemoteError?) -> Void
    public init(onResponse: @escaping (HTTPURLResponse) -> RemoteError?, onData: @escaping (Data) -> RemoteError?,
                onComplete: @escaping (RemoteError?) -> Void) {
        self.onResponse = onResponse
        self.onData = onData
        self.onComplete = onComplete
    }
}

/// HTTP(S) client on FoundationNetworking's URLSession (libcurl underneath: system CAs, HTTP/1.1 keep-alive).
/// Streams every body through a delegate, so nothing is buffered whole: small fetches keep at most their cap,
/// downloads append each chunk to disk. Redirects are counted (≤ `maxRedirects`), and credentials from the
/// URL's userinfo or netrc are sent as Basic auth only to the host they belong to.
public final class RemoteHTTPClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    public let configuration: RemoteHTTPConfiguration
    private var session: URLSession!
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]
    private var credentialsByHost: [String: Netrc.Credentials] = [:]
    private let netrc: Netrc
    private let delegateQueue: OperationQueue

    private final class Transfer {
        let handler: RemoteTransferHandler
        var redirects = 0
        var stopReason: RemoteError?
        init(handler: RemoteTransferHandler) { self.handler = handler }
    }

    /// A started request; `cancel()` ends it with `.cancelled`.
    public final class Task: @unchecked Sendable {
        fileprivate let task: URLSessionDataTask
        fileprivate weak var client: RemoteHTTPClient?
        fileprivate init(task: URLSessionDataTask, client: RemoteHTTPClient) { self.task = task; self.client = client }
        public func cancel() { client?.stop(task, reason: .cancelled) }
    }

    public init(configuration: RemoteHTTPConfiguration = RemoteHTTPConfiguration()) {
        self.configuration = configuration
        self.netrc = configuration.netrc ?? Netrc.load()
        delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        super.init()
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = configuration.idleTimeout
        config.timeoutIntervalForResource = configuration.resourceTimeout
        config.httpMaximumConnectionsPerHost = 6
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.urlCache = nil
        config.httpCookieStorage = nil
        session = URLSession(configuration: config, delegate: self, delegateQueue: delegateQueue)
    }

    /// Ends the session; outstanding transfers complete with `.cancelled`.
    public func invalidate() { session.invalidateAndCancel() }

    // MARK: requests

    /// The URL to request and its Authorization header: userinfo is removed from the URL and remembered for
    /// its host (so entries listed below a `https://user:pw@host/` root authenticate too).
    public func makeRequest(_ url: URL, method: String = "GET", range: RemoteFetchRange? = nil) throws -> URLRequest {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw RemoteError.unsupportedURL(url.absoluteString)
        }
        switch parts.scheme?.lowercased() {
        case "http", "https": break
        case "dav", "webdav": parts.scheme = "http"
        case "davs", "webdavs": parts.scheme = "https"
        default: throw RemoteError.unsupportedURL(url.absoluteString)
        }
        guard let host = parts.host?.lowercased(), !host.isEmpty else { throw RemoteError.unsupportedURL(url.absoluteString) }
        let hostKey = host + ":" + String(parts.port ?? (parts.scheme == "https" ? 443 : 80))
        if let user = parts.user {
            let creds = Netrc.Credentials(login: user.removingPercentEncoding ?? user,
                                          password: (parts.password ?? "").removingPercentEncoding ?? "")
            lock.withLock { credentialsByHost[hostKey] = creds }
        }
        parts.user = nil
        parts.password = nil
        guard let clean = parts.url else { throw RemoteError.unsupportedURL(url.absoluteString) }
        var request = URLRequest(url: clean)
        request.httpMethod = method
        request.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")  // byte ranges of the file itself
        if let range { request.setValue(range.headerValue, forHTTPHeaderField: "Range") }
        if let creds = lock.withLock({ credentialsByHost[hostKey] }) ?? netrc.credentials(forHost: host) {
            let token = Data("\(creds.login):\(creds.password)".utf8).base64EncodedString()
            request.setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
        }
        return request
    }

    /// Starts a streaming request.
    @discardableResult
    public func start(_ request: URLRequest, handler: RemoteTransferHandler) -> Task {
        let task = session.dataTask(with: request)
        lock.withLock { transfers[task.taskIdentifier] = Transfer(handler: handler) }
        task.resume()
        return Task(task: task, client: self)
    }

    fileprivate func stop(_ task: URLSessionTask, reason: RemoteError) {
        lock.withLock {
            if let t = transfers[task.taskIdentifier], t.stopReason == nil { t.stopReason = reason }
        }
        task.cancel()
    }

    private func transfer(_ task: URLSessionTask) -> Transfer? { lock.withLock { transfers[task.taskIdentifier] } }

    // MARK: URLSessionDataDelegate

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let t = transfer(dataTask), lock.withLock({ t.stopReason == nil }) else { completionHandler(.cancel); return }
        guard let http = response as? HTTPURLResponse else {
            stop(dataTask, reason: .invalidResponse("not an HTTP response"))
            completionHandler(.cancel)
            return
        }
        if let error = t.handler.onResponse(http) {
            stop(dataTask, reason: error)
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let t = transfer(dataTask), t.stopReason == nil else { return }
        if let error = t.handler.onData(data) { stop(dataTask, reason: error) }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        guard let t = transfer(task) else { completionHandler(nil); return }
        t.redirects += 1
        if t.redirects > configuration.maxRedirects {
            // Not task.cancel() here: corelibs traps when a task is cancelled inside this callback. Refusing the
            // redirect delivers the 3xx as the response, which `didReceive response` then stops.
            lock.withLock { if t.stopReason == nil { t.stopReason = .tooManyRedirects(configuration.maxRedirects) } }
            completionHandler(nil)
            return
        }
        var next = request
        // Credentials never follow a redirect to another host.
        if request.url?.host?.lowercased() != task.originalRequest?.url?.host?.lowercased()
            || request.url?.port != task.originalRequest?.url?.port {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(next)
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let t = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let reason = t.stopReason {
            t.handler.onComplete(reason)
        } else if let error {
            t.handler.onComplete(Self.map(error))
        } else {
            t.handler.onComplete(nil)
        }
    }

    static func map(_ error: Error) -> RemoteError {
        guard let urlError = error as? URLError else { return .transport(error.localizedDescription) }
        switch urlError.code {
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        case .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet, .cannotFindHost,
             .dnsLookupFailed, .badServerResponse:
            return .connectionLost(urlError.localizedDescription)
        case .httpTooManyRedirects: return .tooManyRedirects(5)
        default: return .transport(urlError.localizedDescription)
        }
    }
}

extension NSLock {
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
