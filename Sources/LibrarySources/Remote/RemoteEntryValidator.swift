import Foundation
import LibraryCore

/// Decides whether a listing entry is safe: a server (or a file name on it) must never make us reach a path
/// outside the listed directory, or create a cache/local name that is not one plain path segment.
public enum RemoteEntryValidator {
    /// Outcome for one href: an entry to keep, a navigation link to drop silently (the parent directory,
    /// the directory itself, Apache's sort links), or a refusal with its reason.
    public enum Verdict: Equatable {
        case accept(name: String, url: URL, isDirectory: Bool)
        case skip
        case reject(String)
    }

    /// Checks an `href` from an HTML or WebDAV listing against the directory `baseURL` (ending in `/`).
    /// Percent-decoding happens exactly once, on the last path segment; the URL keeps the server's encoding.
    public static func check(href rawHref: String, baseURL: URL) -> Verdict {
        let href = rawHref.trimmingCharacters(in: .whitespaces)
        if href.isEmpty { return .reject("empty link") }
        if href.hasPrefix("?") || href.hasPrefix("#") { return .skip }   // Apache column sort links
        if href.unicodeScalars.contains(where: isControl) { return .reject("control character in link") }
        let rawPath = href.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        if rawPath.split(separator: "/").contains(where: { $0.removingPercentEncoding == nil }) {
            return .reject("invalid percent-encoding")
        }
        let base = directoryURL(baseURL)
        guard let resolved = URL(string: href, relativeTo: base)?.absoluteURL,
              var parts = URLComponents(url: resolved, resolvingAgainstBaseURL: false) else {
            return .reject("malformed link")
        }
        guard resolved.scheme?.lowercased() == base.scheme?.lowercased(),
              resolved.host?.lowercased() == base.host?.lowercased(),
              effectivePort(resolved) == effectivePort(base) else {
            return .reject("link points to another server")
        }
        parts.query = nil
        parts.fragment = nil
        let basePath = base.path.isEmpty ? "/" : URLComponents(url: base, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "/"
        let path = parts.percentEncodedPath
        // Raw segments catch "..": URL resolution may already have removed them, so look at the href too.
        let rawSegments = href.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/", omittingEmptySubsequences: true) } ?? []
        let rawDotDot = rawSegments.contains { seg in
            let decoded = String(seg).removingPercentEncoding ?? String(seg)
            return decoded == ".."
        }
        if path == basePath || path + "/" == basePath { return .skip }            // the directory itself
        if isParent(path, of: basePath) { return .skip }                       // the parent link
        guard path.hasPrefix(basePath) else {
            return .reject(rawDotDot ? "'..' leads outside the listed directory" : "link leaves the listed directory")
        }
        if rawDotDot { return .reject("'..' in link") }
        var rest = String(path.dropFirst(basePath.count))
        let isDirectory = rest.hasSuffix("/")
        if isDirectory { rest.removeLast() }
        if rest.isEmpty { return .skip }
        if rest.contains("/") { return .reject("link goes deeper than one level") }
        switch checkName(encoded: rest) {
        case .success(let name):
            var clean = parts
            clean.user = nil
            clean.password = nil
            guard let url = clean.url else { return .reject("malformed link") }
            return .accept(name: name, url: url, isDirectory: isDirectory)
        case .failure(let reason):
            return .reject(reason.message)
        }
    }

    public struct NameProblem: Error, Equatable { public var message: String }

    /// Decodes a percent-encoded segment once and checks the result as a name.
    public static func checkName(encoded: String) -> Result<String, NameProblem> {
        guard let decoded = encoded.removingPercentEncoding else {
            return .failure(NameProblem(message: "invalid percent-encoding"))
        }
        return checkName(decoded: decoded)
    }

    /// Checks an already decoded name (nginx JSON, WebDAV displayname).
    public static func checkName(decoded name: String) -> Result<String, NameProblem> {
        if name.isEmpty { return .failure(NameProblem(message: "empty name")) }
        if name == "." || name == ".." { return .failure(NameProblem(message: "'\(name)' is not a file name")) }
        if name.contains("/") { return .failure(NameProblem(message: "slash in name")) }
        if name.contains("\\") { return .failure(NameProblem(message: "backslash in name")) }
        if name.unicodeScalars.contains(where: isControl) {
            return .failure(NameProblem(message: "control character in name"))
        }
        if name.utf8.count > 255 { return .failure(NameProblem(message: "name longer than 255 bytes")) }
        return .success(name)
    }

    /// URL of a checked name below `baseURL` (used by listings that give names, not links).
    public static func url(forName name: String, isDirectory: Bool, in baseURL: URL) -> URL? {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#;%&+=")
        guard let encoded = name.addingPercentEncoding(withAllowedCharacters: allowed),
              var parts = URLComponents(url: directoryURL(baseURL), resolvingAgainstBaseURL: false) else { return nil }
        parts.user = nil
        parts.password = nil
        parts.percentEncodedPath += encoded + (isDirectory ? "/" : "")
        return parts.url
    }

    /// The URL with a trailing slash on its path (a directory): `RemoteLocation.directoryURL`.
    public static func directoryURL(_ url: URL) -> URL { RemoteLocation.directoryURL(url) }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || s.value == 0x7F || (0x80...0x9F).contains(s.value) || s == "\u{2028}" || s == "\u{2029}"
    }

    private static func effectivePort(_ url: URL) -> Int {
        if let p = url.port { return p }
        return LibrarySourceTable.wire(of: url) == .https ? 443 : 80
    }

    private static func isParent(_ path: String, of basePath: String) -> Bool {
        var trimmed = basePath
        if trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return false }
        let parent = String(trimmed[...slash])
        return path == parent || path + "/" == parent
    }
}
