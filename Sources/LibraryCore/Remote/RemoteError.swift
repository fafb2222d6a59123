import Foundation

/// Why a remote request failed, worded for the user (the UI shows `description` as the failure reason).
public enum RemoteError: Error, Sendable, Equatable, CustomStringConvertible {
    case httpStatus(Int, url: String)
    case timedOut
    case tooManyRedirects(Int)
    case connectionLost(String)
    case tooLarge(size: UInt64, cap: UInt64)
    /// The body ended before the announced size (server reset, wrong Content-Length, killed server).
    case incomplete(received: UInt64, expected: UInt64)
    /// The server sent more bytes than it announced.
    case overlong(expected: UInt64)
    case invalidResponse(String)
    /// A URL no kind of library serves, with the schemes that are served (LibrarySources' scheme table passes
    /// them: `RemoteError.unsupportedURL(_:)` there).
    case unsupportedURL(String, supportedSchemes: [String])
    case cancelled
    case transport(String)
    /// The TLS handshake failed (unknown certificate authority, wrong host name, expired certificate...).
    case tls(String)
    case cache(String)
    /// The SSH server's host key is not the one in known_hosts (or not there at all): never accepted.
    case hostKeyRejected(host: String, problem: HostKeyProblem)
    /// No login method worked (agent, key files, password); the text lists what was tried.
    case authenticationFailed(String)
    /// The file or directory does not exist (SFTP's "no such file"; HTTP says 404).
    case notFound(String)
    /// The server refused to read it (SFTP permission denied).
    case accessDenied(String)
    /// The file is a symbolic link that leads nowhere or in a circle (SFTP), by its name.
    case brokenLink(String, BrokenLink)
    /// A partial download's file changed on the server since (SFTP: new modification time or size); the
    /// download starts over.
    case changedOnServer(String)
    /// Writing more would take the download cache over its size limit, and every file in it is in use.
    case cacheFull(limit: UInt64)
    /// The server's host name does not resolve (no such name in DNS, or no DNS answered).
    case hostNotFound(String)
    /// The proxy's host name does not resolve (`https_proxy`, `all_proxy`...).
    case proxyNotFound(String)
    /// A service's own refusal, already worded as one sentence for the user (S3's error codes: `S3Failure`).
    case service(String, transient: Bool)

    public var description: String {
        switch self {
        case .httpStatus(let code, let url):
            return "HTTP \(code) \(HTTPStatusPhrase.of(code)) for \(url)"
        case .timedOut: return "the server did not answer in time"
        case .tooManyRedirects(let n): return "more than \(n) redirects (a redirect loop?)"
        case .connectionLost(let why): return "connection lost: \(why)"
        case .tooLarge(let size, let cap): return "file is \(size) bytes, above the \(cap)-byte download cap"
        case .incomplete(let got, let want): return "incomplete: received \(got) of \(want) bytes"
        case .overlong(let want): return "the server sent more than the \(want) bytes it announced"
        case .invalidResponse(let why): return "invalid response: \(why)"
        case .unsupportedURL(let url, let schemes):
            return "unsupported URL \(url) (\(schemes.joined(separator: ", ")) only)"
        case .cancelled: return "cancelled"
        case .transport(let why): return why
        case .tls(let why): return "secure connection failed: \(why)"
        case .cache(let why): return "download cache: \(why)"
        case .hostKeyRejected(let host, let problem): return problem.sentence(host: host)
        case .authenticationFailed(let why): return "login refused: \(why)"
        case .notFound(let what): return "no such file or directory: \(what)"
        case .accessDenied(let what): return "permission denied: \(what)"
        case .brokenLink(let name, let why): return "\(name) is \(why.sentence)"
        case .changedOnServer(let what): return "\(what) changed on the server since the partial download"
        case .cacheFull(let limit):
            return "the download cache is full (\(limit) bytes, all in use by running downloads); try again when they end"
        case .service(let sentence, _): return sentence
        case .hostNotFound(let host): return "\(host): this host name does not resolve (check the name, or your DNS)"
        case .proxyNotFound(let proxy):
            return "the proxy \(proxy) does not resolve (check the proxy setting, such as https_proxy or all_proxy, or your DNS)"
        }
    }

    /// Failures worth retrying automatically or by the user's "retry" (not 404, not a cap).
    public var isTransient: Bool {
        switch self {
        case .timedOut, .connectionLost, .incomplete, .transport: return true
        case .httpStatus(let code, _): return code >= 500 || code == 408 || code == 429
        case .service(_, let transient): return transient
        default: return false
        }
    }
}

/// Why an SSH host key was refused. The fingerprint is OpenSSH's (`SHA256:` + unpadded base64), so it can be
/// compared with `ssh-keygen -lf` on the server.
public enum HostKeyProblem: Sendable, Equatable {
    /// The host (with this port) is not in the known_hosts file.
    case unknown(keyType: String, fingerprint: String, knownHostsFile: String)
    /// The host is listed with another key: the server changed its key, or someone is in the middle.
    case changed(keyType: String, fingerprint: String, knownHostsFile: String)
    /// The key is marked `@revoked` in a known_hosts file: refused even where another line trusts it.
    case revoked(keyType: String, fingerprint: String, knownHostsFile: String)

    func sentence(host: String) -> String {
        switch self {
        case .unknown(let type, let fingerprint, let file):
            return "the host key of \(host) is unknown (\(type) \(fingerprint)); it is not in \(file). "
                + "Check the fingerprint with the server's owner, then connect once with ssh to add it"
        case .changed(let type, let fingerprint, let file):
            return "the host key of \(host) has CHANGED (now \(type) \(fingerprint)), it does not match \(file). "
                + "Someone could be intercepting the connection; refused"
        case .revoked(let type, let fingerprint, let file):
            return "the host key of \(host) (\(type) \(fingerprint)) is REVOKED in \(file); refused, as ssh refuses it"
        }
    }
}
