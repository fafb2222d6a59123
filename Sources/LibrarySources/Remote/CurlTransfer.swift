import CCurl
import Concurrent
import Foundation
import LibraryCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on the `CurlEngine`: its easy handle, its handler, and the response headers seen so far.
///
/// Everything but `stop(_:)`/`stopReason` runs on the engine's worker thread (curl calls the callbacks there,
/// inside `curl_multi_perform`), so handlers are called in order and never after `onComplete`.
final class CurlTransfer {
    let handler: RemoteTransferHandler
    let maxRedirects: Int
    /// Nanoseconds of silence after which the worker ends the transfer with `.timedOut`.
    let idleNanoseconds: UInt64
    var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    var errorBuffer: UnsafeMutablePointer<CChar>?
    let requestURL: URL
    /// Set for `sftp://` requests: where to connect, as whom, how to log in, which known_hosts.
    let ssh: SSHTransferSettings?
    /// The first byte asked for (SFTP ranges are answered without headers: the response is made up here).
    var sftpRange: (first: UInt64, last: UInt64?)?
    /// The `If-Range` validator of a resumed SFTP download, checked against the file's modification time.
    var sftpValidator: String?
    /// Why the host key was refused (set by the host-key callback, worker thread).
    var hostKeyProblem: HostKeyProblem?

    // Worker thread only.
    var lastActivity: UInt64 = DispatchTime.now().uptimeNanoseconds
    private var headerLines: [(name: String, value: String)] = []
    private var headerBytes = 0
    static let maxHeaderBytes = 256 << 10
    var responseDelivered = false
    private(set) var completed = false

    /// Why the transfer ends, once a canceller or a handler said so (any thread).
    private let recordedStop = Locked<RemoteError?>(nil)

    /// Why the request could not be set up (no URL, an option libcurl refused); such a transfer never starts.
    private(set) var setupError: RemoteError?

    /// Configures an easy handle for `request`.
    init(request: URLRequest, handler: RemoteTransferHandler, configuration: RemoteHTTPConfiguration,
         bufferSize: Int, ssh: SSHTransferSettings? = nil, signing: RemoteSigning? = nil) {
        self.handler = handler
        self.ssh = ssh
        self.maxRedirects = max(0, configuration.maxRedirects)
        self.idleNanoseconds = UInt64(Self.clamped(configuration.idleTimeout) * 1e9)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer = buffer
        requestURL = request.url ?? URL(fileURLWithPath: "/")
        guard request.url != nil else { setupError = .unsupportedURL("(no URL)"); return }
        guard let easy = curl_easy_init() else { setupError = .transport("libcurl could not create a handle"); return }
        self.easy = easy
        do {
            if let ssh {
                try configureSFTP(easy, request: request, settings: ssh, configuration: configuration, bufferSize: bufferSize)
            } else {
                try configure(easy, request: request, configuration: configuration, bufferSize: bufferSize, signing: signing)
            }
        } catch {
            setupError = error as? RemoteError ?? .transport("\(error)")
        }
    }

    deinit { releaseHandle() }

    private func configure(_ easy: UnsafeMutableRawPointer, request: URLRequest,
                           configuration: RemoteHTTPConfiguration, bufferSize: Int, signing: RemoteSigning?) throws {
        var failed: CURLoption?
        func check(_ code: CURLcode, _ option: CURLoption) { if code != CURLE_OK, failed == nil { failed = option } }
        func long(_ option: CURLoption, _ value: Int) { check(ccurl_setopt_long(easy, option, value), option) }
        func string(_ option: CURLoption, _ value: String) { check(ccurl_setopt_string(easy, option, value), option) }

        string(CURLOPT_URL, requestURL.absoluteString)
        // Only the web: a redirect to file:// or anything else is refused by libcurl itself.
        string(CURLOPT_PROTOCOLS_STR, "http,https")
        string(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        let method = (request.httpMethod ?? "GET").uppercased()
        if let body = request.httpBody {
            check(ccurl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)), CURLOPT_POSTFIELDSIZE_LARGE)
            // COPYPOSTFIELDS copies POSTFIELDSIZE bytes; an empty body is an empty string.
            let code = body.isEmpty ? ccurl_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, "")
                : body.withUnsafeBytes { ccurl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress)) }
            check(code, CURLOPT_COPYPOSTFIELDS)
            if method != "POST" { string(CURLOPT_CUSTOMREQUEST, method) }
        } else if method == "HEAD" {
            long(CURLOPT_NOBODY, 1)
        } else if method == "GET" {
            long(CURLOPT_HTTPGET, 1)
        } else {
            string(CURLOPT_CUSTOMREQUEST, method)
        }
        // Headers come from the request as made by `makeRequest` (User-Agent, Accept-Encoding identity, Range,
        // Authorization). libcurl never sends a custom Authorization header to another host or port on a
        // redirect, which is the same-host rule. "Expect:" turns off 100-continue for request bodies.
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            list = curl_slist_append(list, "\(name): \(value)")
        }
        // Not on signed requests: libcurl 7.88's SigV4 signs the empty "Expect:" line as a header it never sends,
        // and the server's signature differs (403 SignatureDoesNotMatch). They have no body to wait for anyway.
        if signing == nil || request.httpBody != nil { list = curl_slist_append(list, "Expect:") }
        headerList = list
        check(ccurl_setopt_slist(easy, CURLOPT_HTTPHEADER, list), CURLOPT_HTTPHEADER)

        long(CURLOPT_FOLLOWLOCATION, 1)
        long(CURLOPT_MAXREDIRS, maxRedirects)
        long(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        long(CURLOPT_NOSIGNAL, 1)
        long(CURLOPT_BUFFERSIZE, bufferSize)
        long(CURLOPT_CONNECTTIMEOUT_MS, Int(Self.clamped(configuration.idleTimeout) * 1000))
        long(CURLOPT_TIMEOUT_MS, Int(Self.clamped(configuration.resourceTimeout) * 1000))
        long(CURLOPT_TCP_NODELAY, 1)
        if let ca = configuration.caBundlePath { string(CURLOPT_CAINFO, ca) }
        if let signing {
            // libcurl signs each request itself (issue 30: no hand-written signer).
            string(CURLOPT_AWS_SIGV4, signing.provider)
            string(CURLOPT_USERNAME, signing.accessKey)
            string(CURLOPT_PASSWORD, signing.secretKey)
        }
        if let errorBuffer {
            check(ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)), CURLOPT_ERRORBUFFER)
        }

        let context = Unmanaged.passUnretained(self).toOpaque()
        check(ccurl_setopt_callback(easy, CURLOPT_WRITEFUNCTION, curlBodyCallback), CURLOPT_WRITEFUNCTION)
        check(ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, context), CURLOPT_WRITEDATA)
        check(ccurl_setopt_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback), CURLOPT_HEADERFUNCTION)
        check(ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, context), CURLOPT_HEADERDATA)
        if let failed { throw RemoteError.transport("libcurl refused option \(failed.rawValue)") }
    }

    /// A timeout between 50 ms and 30 days (a NaN or infinite setting must not trap in an integer conversion).
    static func clamped(_ seconds: TimeInterval) -> TimeInterval {
        seconds.isNaN ? 20 : min(max(0.05, seconds), 30 * 86_400)
    }

    // MARK: stopping (any thread)

    var stopReason: RemoteError? { recordedStop.value }

    /// Records why the transfer ends (the first reason wins); the worker removes it on its next turn.
    func stop(_ reason: RemoteError) { recordedStop.withLockedValue { if $0 == nil { $0 = reason } } }

    // MARK: callbacks (worker thread)

    /// A header line of any response (redirects and 1xx included): a status line starts a new header set.
    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        lastActivity = DispatchTime.now().uptimeNanoseconds
        if stopReason != nil { return 0 }
        // A server streaming headers forever must not fill memory.
        headerBytes += bytes.count
        if headerBytes > Self.maxHeaderBytes {
            stop(.invalidResponse("more than \(Self.maxHeaderBytes) bytes of headers"))
            return 0
        }
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headerLines.removeAll(keepingCapacity: true)
            headerBytes = 0
        } else if line.first == " " || line.first == "\t", let last = headerLines.popLast() {
            // Obsolete line folding: the line continues the previous value.
            headerLines.append((last.name, last.value + " " + line.trimmingCharacters(in: .whitespacesAndNewlines)))
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if !name.isEmpty { headerLines.append((name, value)) }
        }
        return bytes.count
    }

    /// A piece of the body, handed over in curl's own buffer: the handler runs before curl reads the socket
    /// again, so a slow consumer slows the download instead of filling memory.
    fileprivate func receiveBody(_ buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        lastActivity = DispatchTime.now().uptimeNanoseconds
        if stopReason != nil { return 0 }
        if !responseDelivered {
            // The body of the last 3xx when the redirect limit is reached: libcurl reports the loop next.
            if isRedirectCurlWillReport { return count }
            if let error = deliverResponse() { stop(error); return 0 }
        }
        guard count > 0 else { return 0 }
        let data = Data(bytesNoCopy: UnsafeMutableRawPointer(buffer), count: count, deallocator: .none)
        if let error = handler.onData(data) { stop(error); return 0 }
        return count
    }

    private var isRedirectCurlWillReport: Bool {
        guard let easy else { return false }
        let status = ccurl_info_long(easy, CURLINFO_RESPONSE_CODE)
        return (300..<400).contains(status) && ccurl_info_string(easy, CURLINFO_REDIRECT_URL) != nil
    }

    /// Calls `onResponse` once, with the status and headers of the final response.
    func deliverResponse() -> RemoteError? {
        guard !responseDelivered, let easy else { return nil }
        responseDelivered = true
        if ssh != nil { return deliverSFTPResponse(easy) }
        let status = ccurl_info_long(easy, CURLINFO_RESPONSE_CODE)
        let url = ccurl_info_string(easy, CURLINFO_EFFECTIVE_URL).flatMap { URL(string: String(cString: $0)) } ?? requestURL
        var fields: [String: String] = [:]
        var canonical: [String: String] = [:]   // lower-cased name → first spelling seen
        for (name, value) in headerLines {
            let key = canonical[name.lowercased()] ?? name
            canonical[name.lowercased()] = key
            fields[key] = fields[key].map { $0 + ", " + value } ?? value
        }
        guard status > 0, let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1",
                                                         headerFields: fields) else {
            return .invalidResponse("no HTTP status")
        }
        return handler.onResponse(response)
    }

    /// Calls `onComplete` and frees the handle; the engine has already removed it from the multi handle.
    func complete(_ error: RemoteError?) {
        guard !completed else { return }
        completed = true
        releaseHandle()
        handler.onComplete(error)
    }

    /// The reason a transfer that libcurl ended with `code` failed, in the user's terms.
    func failure(_ code: CURLcode) -> RemoteError {
        if let hostKeyProblem { return .hostKeyRejected(host: ssh?.host.hostname ?? requestURL.host ?? "", problem: hostKeyProblem) }
        if ssh != nil, let sftp = RemoteError(sftpCode: code, detail: failureDetail(code), url: requestURL) { return sftp }
        return RemoteError(curlCode: code, detail: failureDetail(code), maxRedirects: maxRedirects,
                           host: ssh?.host.hostname ?? requestURL.host ?? "the server")
    }

    /// libcurl's own words for the last failure (the error buffer), or its generic text for `code`.
    func failureDetail(_ code: CURLcode) -> String {
        let detail = errorBuffer.map { String(cString: $0) } ?? ""
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }

    /// Frees the easy handle, then what it pointed to (header list, error buffer). Idempotent.
    func releaseHandle() {
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        errorBuffer?.deallocate()
        errorBuffer = nil
    }
}

private let curlBodyCallback: ccurl_data_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveBody(buffer, count: size * count)
}

private let curlHeaderCallback: ccurl_data_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer), count: size * count)
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveHeader(bytes)
}
