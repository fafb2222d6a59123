import CGLib
import Foundation

/// known_hosts files read the way OpenSSH reads them (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"): `@revoked`
/// markers, host pattern lists with `*`, `?` and `!`, `[host]:port` forms, hashed names (`|1|salt|hmac`), and
/// the global files beside the user's.
///
/// Why by hand: libssh2 1.10's matcher (what libcurl offers) knows no markers, reads one file, and matches no
/// patterns, so a revoked key with a plain line was accepted, a host trusted only in
/// `/etc/ssh/ssh_known_hosts` was refused, and `[127.0.0.*]:22222` never matched. libcurl still loads the
/// user's file (its host-key callback runs only then), but the verdict is this type's.
public struct KnownHosts: Sendable {
    /// One usable line: its marker, its host patterns (or hashed name), and its key.
    struct Entry: Sendable {
        enum Marker: Sendable { case none, revoked, certificateAuthority }
        var marker: Marker
        /// Comma-separated patterns, or nil for a hashed name.
        var patterns: [String]?
        /// `|1|` salt and HMAC-SHA1 of the host name, for a hashed name.
        var hashed: (salt: [UInt8], hmac: [UInt8])?
        var keyType: String
        var keyBlob: [UInt8]
        var file: String
    }

    public enum Verdict: Sendable, Equatable {
        /// A line for this host holds this key, and no `@revoked` line names it.
        case trusted
        /// No line names this host.
        case unknown
        /// Lines name this host with other keys of the same type: the key changed, or someone is in the middle.
        case changed(file: String)
        /// The key is marked `@revoked` in `file`: refused whatever else says.
        case revoked(file: String)
    }

    var entries: [Entry] = []

    /// Reads the files in order (user files first, then the global ones); a missing or unreadable file adds
    /// nothing, as for ssh. Files over 16 MB are not known_hosts files and are skipped.
    public init(files: [String]) {
        for file in files {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),   // try?: absent = no lines
                  (attributes[.size] as? Int ?? 0) <= 16 << 20,
                  let data = FileManager.default.contents(atPath: file) else { continue }
            entries += Self.parse(String(decoding: data, as: UTF8.self), file: file)
        }
    }

    init(text: String, file: String) {
        entries = Self.parse(text, file: file)
    }

    static func parse(_ text: String, file: String) -> [Entry] {
        var entries: [Entry] = []
        for line in text.split(whereSeparator: \.isNewline) {
            var fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            var marker = Entry.Marker.none
            if first.hasPrefix("@") {
                switch first {
                case "@revoked": marker = .revoked
                case "@cert-authority": marker = .certificateAuthority
                default: continue   // an unknown marker: OpenSSH skips the line
                }
                fields.removeFirst()
            }
            guard fields.count >= 3, let blob = Data(base64Encoded: fields[2]) else { continue }
            var entry = Entry(marker: marker, patterns: nil, hashed: nil, keyType: fields[1], keyBlob: [UInt8](blob), file: file)
            if fields[0].hasPrefix("|1|") {
                let parts = fields[0].split(separator: "|", omittingEmptySubsequences: true)
                guard parts.count == 3, let salt = Data(base64Encoded: String(parts[1])),
                      let hmac = Data(base64Encoded: String(parts[2])) else { continue }
                entry.hashed = ([UInt8](salt), [UInt8](hmac))
            } else {
                entry.patterns = fields[0].lowercased().split(separator: ",").map(String.init)
            }
            entries.append(entry)
        }
        return entries
    }

    /// The name OpenSSH looks up: the host alone on port 22, else `[host]:port`.
    public static func lookupName(host: String, port: Int) -> String {
        let host = host.lowercased()
        return port == 22 ? host : "[\(host)]:\(port)"
    }

    /// OpenSSH's verdict on `keyBlob` (the server's public key as sent) for `host`:`port`.
    public func verdict(host: String, port: Int, keyType: String, keyBlob: [UInt8]) -> Verdict {
        // A revoked key is refused for every host, before anything else is looked at (sshkey_check_revoked).
        if let revoked = entries.first(where: { $0.marker == .revoked && $0.keyBlob == keyBlob }) {
            return .revoked(file: revoked.file)
        }
        let name = Self.lookupName(host: host, port: port)
        let forHost = entries.filter { $0.marker == .none && matches($0, name: name) }
        if forHost.contains(where: { $0.keyBlob == keyBlob }) { return .trusted }
        if let other = forHost.first(where: { $0.keyType == keyType }) { return .changed(file: other.file) }
        return .unknown
    }

    private func matches(_ entry: Entry, name: String) -> Bool {
        if let hashed = entry.hashed {
            return Self.hmacSHA1(key: hashed.salt, message: Array(name.utf8)) == hashed.hmac
        }
        // OpenSSH's match_hostname: a negated pattern that matches rules the line out; otherwise one positive match.
        var positive = false
        for pattern in entry.patterns ?? [] {
            if pattern.hasPrefix("!") {
                if Self.glob(Array(pattern.utf8.dropFirst()), Array(name.utf8)) { return false }
            } else if Self.glob(Array(pattern.utf8), Array(name.utf8)) {
                positive = true
            }
        }
        return positive
    }

    /// `*` any run, `?` one byte, anything else itself (OpenSSH's match_pattern), iteratively.
    static func glob(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
        var p = 0, t = 0, star = -1, resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1; t += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = p; resume = t; p += 1
            } else if star >= 0 {
                p = star + 1; resume += 1; t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }

    /// HMAC-SHA1, as `ssh-keygen -H` hashes names, through GLib's GHmac (loaded anyway, by chafa).
    static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        guard let hmac = key.withUnsafeBufferPointer({ g_hmac_new(G_CHECKSUM_SHA1, $0.baseAddress, gsize($0.count)) }) else { return [] }
        defer { g_hmac_unref(hmac) }
        message.withUnsafeBufferPointer { g_hmac_update(hmac, $0.baseAddress, gssize($0.count)) }
        var digest = [UInt8](repeating: 0, count: 20)
        var length = gsize(digest.count)
        digest.withUnsafeMutableBufferPointer { g_hmac_get_digest(hmac, $0.baseAddress, &length) }
        return Array(digest.prefix(Int(length)))
    }
}
