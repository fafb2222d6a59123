import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
import LibraryCore
#endif

/// One SSH destination as the client knows it: where it really is and the login that worked.
struct SSHSession {
    var settings: SSHHostSettings
    /// nil until `prepare` found a working method (transfers then try the agent and an unencrypted key).
    var auth: SSHAuthMethod?
    /// True once a connection logged in with `auth`.
    var proven = false
}

extension RemoteHTTPClient {
    /// Whether `url` is reached over SSH (its kind's wire, `LibrarySourceTable`): such transfers carry SSH settings.
    public static func isSFTP(_ url: URL) -> Bool { LibrarySourceTable.wire(of: url) == .sftp }

    /// Key of a destination as URLs write it (before aliases are resolved).
    static func sessionKey(_ url: URL) -> String {
        "\(url.user ?? "")@\((url.host ?? "").lowercased()):\(url.port ?? 0)"
    }

    /// `ssh://` is the same as `sftp://`; the password (if any) is kept aside, the user stays in the URL
    /// (entries below the root inherit it). SFTP has no suffix ranges without the size: callers give bytes.
    func makeSFTPRequest(_ original: URLComponents, url: URL, method: String, range: RemoteFetchRange?) throws -> URLRequest {
        var parts = original
        parts.scheme = "sftp"
        guard let host = parts.host, !host.isEmpty, method == "GET" else { throw RemoteError.unsupportedURL(url.absoluteString) }
        if let password = parts.password {
            let key = Self.sessionKey(url)
            shared.withLockedValue { $0.sshURLPasswords[key] = password.removingPercentEncoding ?? password }
        }
        parts.password = nil
        guard let clean = parts.url else { throw RemoteError.unsupportedURL(url.absoluteString) }
        var request = URLRequest(url: clean)
        request.httpMethod = method
        switch range {
        case .suffix?: throw RemoteError.invalidResponse("SFTP needs a byte range with a start")
        case let range?: request.setValue(range.headerValue, forHTTPHeaderField: "Range")
        case nil: break
        }
        return request
    }

    /// The session of `url`, resolving its host settings (`ssh -G`) on first use.
    func session(for url: URL) -> SSHSession {
        let key = Self.sessionKey(url)
        if let known = shared.withLockedValue({ $0.sshSessions[key] }) { return known }
        let settings = SSHHostSettings.resolve(url, configuration: configuration.ssh)
        let password = shared.withLockedValue { $0.sshURLPasswords[key] }
        return shared.withLockedValue { shared in
            if let raced = shared.sshSessions[key] { return raced }
            let session = SSHSession(settings: settings, auth: password.map { SSHAuthMethod.password($0) })
            shared.sshSessions[key] = session
            return session
        }
    }

    func transferSettings(for url: URL) -> SSHTransferSettings {
        let session = session(for: url)
        return SSHTransferSettings(host: session.settings, auth: session.auth, useAgent: configuration.ssh.useAgent
                                   && Self.agentSocketPresent(configuration.ssh.agentSocket))
    }

    /// libssh2 looks for the agent through this process's `SSH_AUTH_SOCK` (libcurl offers no other way), so
    /// that (as read at launch, `SSHConfiguration.agentSocket`) decides whether the agent is worth a try.
    static func agentSocketPresent(_ socket: String?) -> Bool {
        guard let socket, !socket.isEmpty else { return false }
        return FileManager.default.fileExists(atPath: socket)
    }

    /// For `sftp://` URLs: finds a login that works, in the order ssh-agent, the identity files (asking
    /// for a passphrase through `SSHConfiguration.askSecret` when a key has one), then a password (the
    /// URL's, or asked). Each try is one real connection listing the directory; a host-key refusal or any
    /// other failure ends the search at once. Does nothing for other URLs or once a login is known.
    public func prepare(_ url: URL) async throws {
        try await LibrarySourceTable.source(for: url, client: self)?.prepare(url)
    }

    /// `prepare` for SFTP libraries (`SFTPSource.prepare`).
    func prepareSFTP(_ url: URL) async throws {
        guard Self.isSFTP(url) else { return }
        let directory = RemoteEntryValidator.directoryURL(url)
        _ = try makeRequest(directory)   // records a URL password
        let key = Self.sessionKey(directory)
        let current = session(for: directory)
        if current.proven { return }
        let ssh = configuration.ssh
        let settings = current.settings
        try Self.checkResolves(settings.hostname)
        var tried: [String] = []
        func attempt(_ method: SSHAuthMethod) async throws -> Bool {
            shared.withLockedValue { $0.sshSessions[key]?.auth = method }
            do {
                _ = try await fetch(directory, maxBytes: 1, listOnly: true)
                shared.withLockedValue { $0.sshSessions[key]?.proven = true }
                return true
            } catch RemoteError.authenticationFailed {
                tried.append(method.description)
                shared.withLockedValue { $0.sshSessions[key]?.auth = nil }
                return false
            } catch {
                shared.withLockedValue { $0.sshSessions[key]?.auth = nil }
                throw error
            }
        }
        if ssh.useAgent, Self.agentSocketPresent(ssh.agentSocket), try await attempt(.agent) { return }
        for path in settings.identityFiles where FileManager.default.isReadableFile(atPath: path) {
            guard let encrypted = SSHKeyFile.isEncrypted(path) else { continue }
            var passphrase: String?
            if encrypted {
                passphrase = ssh.askSecret?("Passphrase for key \(path): ")
                guard passphrase != nil else { tried.append("key \(path) (has a passphrase; no terminal to ask)"); continue }
            }
            if try await attempt(.key(path: path, passphrase: passphrase)) { return }
        }
        let urlPassword = shared.withLockedValue { $0.sshURLPasswords[key] }
        let login = "\(settings.user)@\(settings.hostname)"
        if let password = urlPassword ?? ssh.askSecret?("Password for \(login): ") {
            if try await attempt(.password(password)) { return }
            // The sentence a person at the prompt needs first: the password was wrong.
            let others = tried.filter { $0 != SSHAuthMethod.password(password).description }
            throw RemoteError.authenticationFailed("\(login) did not accept the password"
                                                   + (urlPassword != nil ? " in the URL" : "")
                                                   + (others.isEmpty ? "" : " (also tried: \(others.joined(separator: ", ")))"))
        } else {
            tried.append("no password (no terminal to ask)")
        }
        throw RemoteError.authenticationFailed("\(login) accepted none of: "
                                               + (tried.isEmpty ? "(no agent, no key files)" : tried.joined(separator: ", ")))
    }

    /// Looks the host name up before the login search: without that, a name that does not resolve was asked a
    /// password for, or said "login refused" (no method to try) — every try fails the same way, before SSH
    /// starts. Only a failed look-up is reported here; everything else is left to the connection.
    static func checkResolves(_ host: String) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &found)
        if let found { freeaddrinfo(found) }
        // EAI_MEMORY and EAI_SYSTEM say nothing about the name: the connection will tell.
        guard status != 0, status != EAI_MEMORY, status != EAI_SYSTEM else { return }
        throw RemoteError.hostNotFound(host)
    }

    /// SFTP directory: the long listing (types, sizes, dates) and the names-only listing, checked against
    /// each other (see `SFTPListingParser`). Each is read up to `maxEntries` lines (plus `.` and `..`).
    /// `confirmed`, when given, gets the plain files sure to be in the result while the listings still arrive
    /// (`SFTPListingConfirmer`), in batches, on a worker thread; the returned listing is the whole parse, as without.
    func listSFTP(_ directory: URL, maxBytes: Int, maxEntries: Int,
                  confirmed: (@Sendable ([RemoteEntry]) -> Void)? = nil) async throws -> RemoteListing {
        if !session(for: directory).proven { try await prepareSFTP(directory) }
        let confirmer = confirmed.map { SFTPListingConfirmer(baseURL: directory, maxEntries: maxEntries, onConfirmed: $0) }
        // Both at once, on two of the SFTP workers: a listing of 100,000 names takes seconds on each.
        async let longLines = fetchLines(directory, maxLines: maxEntries + 2, maxBytes: maxBytes, listOnly: false,
                                         observer: confirmer.map { c in { c.feedLong($0) } })
        async let nameLines = fetchLines(directory, maxLines: maxEntries + 2, maxBytes: maxBytes, listOnly: true,
                                         observer: confirmer.map { c in { c.feedNames($0) } })
        let (long, names) = try await (longLines, nameLines)
        var listing = SFTPListingParser.parse(long: long.bytes, names: names.bytes, baseURL: directory)
        let links = SFTPLinks(listing).verdicts()
        shared.withLockedValue { $0.sftpLinkVerdicts[directory.absoluteString] = links }
        if long.cut || names.cut || listing.entries.count > maxEntries {
            listing.truncated = true
            if listing.entries.count > maxEntries { listing.entries.removeLast(listing.entries.count - maxEntries) }
            // The last lines of two cut listings need not match: that is the cut, not a hostile name.
            listing.rejected.removeAll { $0.reason.hasPrefix("not in the names listing") || $0.reason.hasPrefix("unreadable listing line") }
        }
        return listing
    }

    /// Why the SFTP server calls `file` missing when it is a symbolic link (nil: it is not one, as far as its
    /// folder's listing says). The folder's last listing by this client says whether it is a link and, for a
    /// chain inside the folder, where it ends; a chain that leaves the folder is followed one listing per hop
    /// (at most `maxLinkHops`, only ever for a failed file). OpenSSH answers a loop (ELOOP) with the same "no
    /// such file" as a missing target, so only the listings tell them apart.
    func explainMissingSFTPFile(_ file: URL) async -> RemoteError? {
        let name = file.lastPathComponent
        var step = await linkStep(file, fromCache: true)
        guard case .link = step else { return nil }
        var visited: Set<String> = [SFTPLinks.normalized(file.path)]
        for _ in 0...Self.maxLinkHops {
            switch step {
            case .missing: return .brokenLink(name, .missingTarget)
            case .link(.broken(let why)): return .brokenLink(name, why)
            case .link(.undecided(let next?)):
                guard visited.insert(next).inserted else { return .brokenLink(name, .loop) }
                guard var parts = URLComponents(url: file, resolvingAgainstBaseURL: false) else { return .brokenLink(name, .unreachable) }
                parts.path = next
                guard let target = parts.url else { return .brokenLink(name, .unreachable) }
                step = await linkStep(target, fromCache: false)
            // The chain ends at a file the server still cannot open (gone since the listing), or the listings
            // cannot say.
            case .exists, .unknown, .link(.fine), .link(.undecided(nil)): return .brokenLink(name, .unreachable)
            }
        }
        return .brokenLink(name, .unreachable)
    }

    /// Links followed across folders before giving up (each hop costs one listing).
    static let maxLinkHops = 8

    enum LinkStep {
        /// Neither the name nor (for a hop) its folder is listed.
        case missing
        /// Listed, and not a link.
        case exists
        case link(SFTPLinks.Verdict)
        /// The listing could not be read, or was cut before the name.
        case unknown
    }

    /// What the listing of `file`'s folder says of it; `fromCache` uses this client's last listing of the
    /// folder when there is one (it keeps the links alone, so a name that is not a link is `.unknown` there).
    private func linkStep(_ file: URL, fromCache: Bool) async -> LinkStep {
        let directory = RemoteEntryValidator.directoryURL(file.deletingLastPathComponent())
        let name = file.lastPathComponent
        if fromCache, let verdicts = shared.withLockedValue({ $0.sftpLinkVerdicts[directory.absoluteString] }) {
            return verdicts[name].map { .link($0) } ?? .unknown
        }
        do {
            let listing = try await listSFTP(directory, maxBytes: 32 << 20, maxEntries: RemoteListingParser.defaultMaxEntries)
            if listing.links[name] != nil { return .link(SFTPLinks(listing).verdict(for: name)) }
            if listing.entries.contains(where: { $0.name == name }) { return .exists }
            return listing.truncated ? .unknown : .missing
        } catch RemoteError.notFound {
            return .missing   // the folder the link points into is not there
        } catch {
            return .unknown
        }
    }

    /// The first `maxLines` lines of a directory listing (`cut` when more followed, or `maxBytes` was reached).
    /// `observer` sees the bytes kept, as they arrive.
    private func fetchLines(_ url: URL, maxLines: Int, maxBytes: Int, listOnly: Bool,
                            observer: (@Sendable (ArraySlice<UInt8>) -> Void)? = nil) async throws -> (bytes: [UInt8], cut: Bool) {
        let request = try makeRequest(url)
        let state = LineCollector(maxLines: maxLines, maxBytes: maxBytes, observer: observer)
        return try await withCheckedThrowingContinuation { continuation in
            start(request, bufferSize: Self.fetchBufferSize, listOnly: listOnly, handler: RemoteTransferHandler(
                onResponse: { _ in nil },
                onData: { state.append($0) },
                onComplete: { error in
                    if let error, !(error == .cancelled && state.cut) {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: (state.bytes, state.cut))
                    }
                }))
        }
    }
}

/// Bytes of a line listing up to a number of lines; touched only on the client's worker thread.
// unchecked: filled by curl's body callbacks (C) on the worker thread alone.
private final class LineCollector: @unchecked Sendable {
    let maxLines: Int
    let maxBytes: Int
    var bytes: [UInt8] = []
    var lines = 0
    var cut = false
    let observer: (@Sendable (ArraySlice<UInt8>) -> Void)?

    init(maxLines: Int, maxBytes: Int, observer: (@Sendable (ArraySlice<UInt8>) -> Void)?) {
        self.maxLines = maxLines
        self.maxBytes = maxBytes
        self.observer = observer
    }

    func append(_ data: Data) -> RemoteError? {
        let before = bytes.count
        defer { if let observer, bytes.count > before { observer(bytes[before...]) } }
        for byte in data {
            // A byte after the last wanted line: more lines follow.
            if bytes.count >= maxBytes || lines >= maxLines { cut = true; return .cancelled }
            bytes.append(byte)
            if byte == UInt8(ascii: "\n") { lines += 1 }
        }
        return nil
    }
}

extension RemoteHTTPClient {
    /// `list`, handing `confirmed` the files sure to be in the result while an SFTP listing still arrives
    /// (`SFTPListingConfirmer`; other kinds never call it), so that their headers can be read meanwhile.
    public func list(_ url: URL, maxEntries: Int, pages: RemoteListingPages?,
                     confirmed: (@Sendable ([RemoteEntry]) -> Void)?) async throws -> RemoteListing {
        guard let confirmed, Self.isSFTP(url) else { return try await list(url, maxEntries: maxEntries, pages: pages) }
        return try await listSFTP(RemoteEntryValidator.directoryURL(url), maxBytes: 32 << 20, maxEntries: maxEntries,
                                  confirmed: confirmed)
    }
}
