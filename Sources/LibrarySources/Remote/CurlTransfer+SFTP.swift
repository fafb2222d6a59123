import CCurl
import Foundation
import LibraryCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an `sftp://` transfer needs beyond its URL: the resolved host, the login and the listing style.
struct SSHTransferSettings {
    var host: SSHHostSettings
    /// nil: not prepared yet: the agent (if allowed) and the first unencrypted identity file.
    var auth: SSHAuthMethod?
    var useAgent: Bool
    /// Names only (`CURLOPT_DIRLISTONLY`), one per line, for a directory URL.
    var listOnly = false
}

/// SFTP on the same engine as HTTP: libcurl's libssh2 backend, with the answer dressed as an HTTP response
/// (200 with Content-Length, or 206 with Content-Range, and Last-Modified from the file's modification time),
/// so fetches, the header probe and the download manager handle both protocols with one code path.
extension CurlTransfer {
    func configureSFTP(_ easy: UnsafeMutableRawPointer, request: URLRequest, settings: SSHTransferSettings,
                       configuration: RemoteHTTPConfiguration, bufferSize: Int) throws {
        var failed: CURLoption?
        func check(_ code: CURLcode, _ option: CURLoption) { if code != CURLE_OK, failed == nil { failed = option } }
        func long(_ option: CURLoption, _ value: Int) { check(ccurl_setopt_long(easy, option, value), option) }
        func string(_ option: CURLoption, _ value: String) { check(ccurl_setopt_string(easy, option, value), option) }

        guard let target = Self.connectURL(requestURL, host: settings.host) else {
            throw RemoteError.unsupportedURL(requestURL.absoluteString)
        }
        string(CURLOPT_URL, target)
        string(CURLOPT_PROTOCOLS_STR, "sftp")
        long(CURLOPT_FOLLOWLOCATION, 0)
        string(CURLOPT_USERNAME, settings.host.user)
        // Host keys: always checked against a file (a missing file makes every host unknown), decided by
        // `hostKeyCallback`, which refuses anything but an exact match and records why.
        string(CURLOPT_SSH_KNOWNHOSTS, settings.host.knownHostsFile)
        check(ccurl_setopt_sshkey(easy, curlHostKeyCallback), CURLOPT_SSH_KEYFUNCTION)
        check(ccurl_setopt_pointer(easy, CURLOPT_SSH_KEYDATA, Unmanaged.passUnretained(self).toOpaque()), CURLOPT_SSH_KEYDATA)

        var types = 0
        switch settings.auth {
        case .agent?:
            types = Int(CURLSSH_AUTH_AGENT)
        case .key(let path, let passphrase)?:
            types = Int(CURLSSH_AUTH_PUBLICKEY)
            string(CURLOPT_SSH_PRIVATE_KEYFILE, path)
            // Empty: libssh2 derives the public key from the private one (never libcurl's ~/.ssh default).
            let publicKey = path + ".pub"
            string(CURLOPT_SSH_PUBLIC_KEYFILE, FileManager.default.fileExists(atPath: publicKey) ? publicKey : "")
            if let passphrase { string(CURLOPT_KEYPASSWD, passphrase) }
        case .password(let password)?:
            types = Int(CURLSSH_AUTH_PASSWORD | CURLSSH_AUTH_KEYBOARD)
            string(CURLOPT_PASSWORD, password)
        case nil:
            if settings.useAgent { types |= Int(CURLSSH_AUTH_AGENT) }
            if let key = settings.host.identityFiles.first(where: { SSHKeyFile.isEncrypted($0) == false }) {
                types |= Int(CURLSSH_AUTH_PUBLICKEY)
                string(CURLOPT_SSH_PRIVATE_KEYFILE, key)
                let publicKey = key + ".pub"
                string(CURLOPT_SSH_PUBLIC_KEYFILE, FileManager.default.fileExists(atPath: publicKey) ? publicKey : "")
            }
        }
        long(CURLOPT_SSH_AUTH_TYPES, types)
        if settings.listOnly { long(CURLOPT_DIRLISTONLY, 1) }

        var bufferSize = bufferSize
        if let value = request.value(forHTTPHeaderField: "Range"), let range = Self.parseRangeHeader(value) {
            sftpRange = range
            string(CURLOPT_RANGE, "\(range.first)-" + (range.last.map(String.init) ?? ""))
            if let last = range.last { bufferSize = Self.sftpBufferSize(rangeLength: last - range.first + 1) }
        }
        sftpValidator = request.value(forHTTPHeaderField: "If-Range")
        // The modification time costs libcurl a stat (one more round trip) per transfer: asked for whole files and
        // open ranges (downloads and their resume validator), not for the closed ranges of header probes and
        // previews, which have the listing's date.
        if sftpRange?.last == nil { long(CURLOPT_FILETIME, 1) }

        long(CURLOPT_NOSIGNAL, 1)
        long(CURLOPT_BUFFERSIZE, bufferSize)
        long(CURLOPT_CONNECTTIMEOUT_MS, Int(Self.clamped(configuration.idleTimeout) * 1000))
        long(CURLOPT_TIMEOUT_MS, Int(Self.clamped(configuration.resourceTimeout) * 1000))
        long(CURLOPT_TCP_NODELAY, 1)
        if let errorBuffer {
            check(ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)), CURLOPT_ERRORBUFFER)
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        check(ccurl_setopt_callback(easy, CURLOPT_WRITEFUNCTION, curlSFTPBodyCallback), CURLOPT_WRITEFUNCTION)
        check(ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, context), CURLOPT_WRITEDATA)
        if let failed { throw RemoteError.transport("libcurl refused option \(failed.rawValue)") }
    }

    /// The receive buffer for an SFTP range of `length` bytes with an end, chosen so that libssh2's read-ahead
    /// asks the server for (almost) nothing past the range. libssh2 1.10's `sftp_read(len)` keeps `4 * len`
    /// bytes of FXP_READ requests in flight (in pieces of at least `len`, at most 30,000 bytes), and libcurl
    /// 7.88 passes `len = min(CURLOPT_BUFFERSIZE, bytes left in the range)`; whatever is in flight when the range
    /// is complete still crosses the wire and is thrown away. With the 64 KiB fetch buffer a 16 KiB head probe
    /// cost 76 KB. Measured and simulated (DECISIONS.md, "SFTP read-ahead"):
    /// - up to 30,000 bytes: a quarter of the range (at least libcurl's 1,024): the first call asks for exactly
    ///   the range in one request and later calls are served from what arrived: nothing wasted, one round trip;
    /// - larger ranges (movie tails, segments past the head): small buffers waste little (at most ~9 KB up to
    ///   128 KiB, ~23 KB up to 1 MiB, ~110 KB above) at the price of fewer bytes in flight per round trip.
    /// Open ranges and whole files end at the end of the file, where the server stops by itself: they keep the
    /// caller's buffer.
    static func sftpBufferSize(rangeLength length: UInt64) -> Int {
        switch length {
        case ...30_000: return max(1024, Int((length + 3) / 4))
        case ...(128 << 10): return 4096
        case ...(1 << 20): return 8192
        default: return 32 << 10
        }
    }

    /// The URL libcurl connects to: the resolved host name and port, no userinfo (the user is an option).
    static func connectURL(_ url: URL, host: SSHHostSettings) -> String? {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: true), !host.hostname.isEmpty else { return nil }
        let name = host.hostname.contains(":") ? "[\(host.hostname)]" : host.hostname
        let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        return "sftp://\(name):\(host.port)\(path)"
    }

    /// `bytes=A-B` or `bytes=A-` (the forms `RemoteFetchRange` writes for SFTP; suffixes need the size first).
    static func parseRangeHeader(_ value: String) -> (first: UInt64, last: UInt64?)? {
        guard value.hasPrefix("bytes=") else { return nil }
        let bounds = value.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = UInt64(bounds[0]) else { return nil }
        if bounds[1].isEmpty { return (first, nil) }
        guard let last = UInt64(bounds[1]), last >= first else { return nil }
        return (first, last)
    }

    /// The made-up HTTP response of an SFTP transfer (libcurl has stat()ed the file by the first body byte).
    func deliverSFTPResponse(_ easy: UnsafeMutableRawPointer) -> RemoteError? {
        let length = ccurl_info_offset(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T)
        let filetime = ccurl_info_offset(easy, CURLINFO_FILETIME_T)
        var fields: [String: String] = [:]
        if filetime >= 0 { fields["Last-Modified"] = HTTPDate.format(unixTime: Int64(filetime)) }
        if let validator = sftpValidator, fields["Last-Modified"] != validator {
            return .changedOnServer(requestURL.lastPathComponent)
        }
        var status = 200
        if let range = sftpRange, length > 0 {
            let count = UInt64(length)
            let last = range.first + count - 1
            // The file's size is known when the range reached its end: open ranges, or a short answer.
            let reachedEnd = range.last.map { last < $0 } ?? true
            let total = reachedEnd ? String(range.first + count) : "*"
            status = 206
            fields["Content-Range"] = "bytes \(range.first)-\(last)/\(total)"
            fields["Content-Length"] = String(count)
        } else if length >= 0, sftpRange == nil || length == 0 {
            fields["Content-Length"] = String(length)
        }
        guard let response = HTTPURLResponse(url: requestURL, statusCode: status, httpVersion: "HTTP/1.1",
                                             headerFields: fields) else {
            return .invalidResponse("no response")
        }
        return handler.onResponse(response)
    }

    /// The host-key decision, on the worker thread inside libcurl. libssh2's own match (`match`) knows no
    /// `@revoked`, patterns or global files, so the verdict is OpenSSH's, from `KnownHosts`; only a trusted key
    /// passes.
    fileprivate func decideHostKey(found: UnsafePointer<curl_khkey>?, match: curl_khmatch) -> Int32 {
        let (type, fingerprint) = found.map { Self.describeKey($0.pointee) } ?? ("unknown", "?")
        let file = ssh?.host.knownHostsFile ?? "known_hosts"
        guard let found, let host = ssh?.host else {
            hostKeyProblem = .unknown(keyType: type, fingerprint: fingerprint, knownHostsFile: file)
            return Int32(CURLKHSTAT_REJECT.rawValue)
        }
        let files = host.knownHostsFiles.isEmpty ? [host.knownHostsFile] : host.knownHostsFiles
        switch KnownHosts(files: files).verdict(host: host.hostname, port: host.port, keyType: type, keyBlob: Self.keyBlob(found.pointee)) {
        case .trusted:
            return Int32(CURLKHSTAT_FINE.rawValue)
        case .unknown:
            hostKeyProblem = .unknown(keyType: type, fingerprint: fingerprint, knownHostsFile: file)
        case .changed(let listedIn):
            hostKeyProblem = .changed(keyType: type, fingerprint: fingerprint, knownHostsFile: listedIn)
        case .revoked(let listedIn):
            hostKeyProblem = .revoked(keyType: type, fingerprint: fingerprint, knownHostsFile: listedIn)
        }
        return Int32(CURLKHSTAT_REJECT.rawValue)
    }

    /// The key as the server sent it (libcurl gives the raw blob with its length, or base64 text without).
    static func keyBlob(_ key: curl_khkey) -> [UInt8] {
        guard let pointer = key.key else { return [] }
        if key.len > 0 { return Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: key.len)) }
        return Data(base64Encoded: String(cString: pointer)).map { [UInt8]($0) } ?? []
    }

    /// The key's type (from its blob) and OpenSSH-style SHA-256 fingerprint.
    static func describeKey(_ key: curl_khkey) -> (String, String) {
        guard key.key != nil else { return ("unknown", "?") }
        let blob = keyBlob(key)
        var type = "unknown"
        if blob.count >= 4 {
            let length = blob[0..<4].reduce(0) { $0 << 8 | Int($1) }
            if length > 0, length <= 64, 4 + length <= blob.count {
                type = String(decoding: blob[4..<4 + length], as: UTF8.self)
            }
        }
        var digest = Data(SHA256.digest(blob)).base64EncodedString()
        while digest.hasSuffix("=") { digest.removeLast() }
        return (type, "SHA256:" + digest)
    }

    /// A piece of an SFTP body: as for HTTP, but the made-up response goes first.
    fileprivate func receiveSFTPBody(_ buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        lastActivity = DispatchTime.now().uptimeNanoseconds
        if stopReason != nil { return 0 }
        if !responseDelivered, let error = deliverResponse() { stop(error); return 0 }
        guard count > 0 else { return 0 }
        let data = Data(bytesNoCopy: UnsafeMutableRawPointer(buffer), count: count, deallocator: .none)
        if let error = handler.onData(data) { stop(error); return 0 }
        return count
    }
}

extension RemoteError {
    /// SFTP-specific meanings of libcurl's codes (nil: the HTTP mapping applies).
    init?(sftpCode code: CURLcode, detail: String, url: URL) {
        let name = url.path.isEmpty ? "/" : url.path
        switch code {
        case CURLE_LOGIN_DENIED: self = .authenticationFailed(detail)
        case CURLE_REMOTE_FILE_NOT_FOUND: self = .notFound(name)
        case CURLE_REMOTE_ACCESS_DENIED: self = .accessDenied(name)
        case CURLE_BAD_DOWNLOAD_RESUME, CURLE_RANGE_ERROR: self = .changedOnServer(url.lastPathComponent)
        case CURLE_SSH: self = .connectionLost(detail)
        default: return nil
        }
    }
}

private let curlHostKeyCallback: ccurl_sshkey_callback = { _, _, found, match, context in
    guard let context else { return Int32(CURLKHSTAT_REJECT.rawValue) }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().decideHostKey(found: found, match: match)
}

private let curlSFTPBodyCallback: ccurl_data_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveSFTPBody(buffer, count: size * count)
}
