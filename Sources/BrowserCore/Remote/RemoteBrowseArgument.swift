import Foundation

/// Recognises a remote directory on the command line: `livegrid https://host/photos/` (also http, dav, davs,
/// webdav/webdavs, sftp and ssh), and scp's `[user@]host:path` when no local file has that name. Anything
/// else is a local path, so local browsing is unchanged.
public enum RemoteBrowseArgument {
    public static let schemes: Set<String> = ["http", "https", "dav", "davs", "webdav", "webdavs", "sftp", "ssh"]

    /// The URL when `argument` names a remote directory, else nil. `ssh://` becomes `sftp://`; scp-style
    /// paths are relative to the login's home directory (`/~/` in an SFTP URL) unless they start with `/`.
    public static func url(_ argument: String, localPathExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) })
        -> URL? {
        if let colon = argument.firstIndex(of: ":"), schemes.contains(argument[..<colon].lowercased()) {
            guard var parts = URLComponents(string: argument), parts.host?.isEmpty == false else { return nil }
            if parts.scheme?.lowercased() == "ssh" { parts.scheme = "sftp" }
            return parts.url
        }
        return scpStyleURL(argument, localPathExists: localPathExists)
    }

    /// `[user@]host:path` → `sftp://[user@]host/~/path` (or `/path` when absolute). Unambiguous only: no
    /// `://`, no `/` before the colon, a plain host name, and no local file or directory of that name.
    public static func scpStyleURL(_ argument: String, localPathExists: (String) -> Bool) -> URL? {
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

    /// Why a remote-looking argument cannot be used ("http://" without a host...), else nil.
    public static func problem(_ argument: String) -> String? {
        guard let colon = argument.firstIndex(of: ":"), schemes.contains(argument[..<colon].lowercased()),
              argument[colon...].hasPrefix("://") else { return nil }
        return url(argument) == nil ? "'\(argument)' is not a usable URL (expected scheme://host/path/)" : nil
    }
}
