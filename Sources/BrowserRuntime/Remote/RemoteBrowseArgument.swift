import Foundation
import LibrarySources

/// Recognises a remote directory on the command line: `livegrid https://host/photos/` (any scheme of a remote
/// kind in `LibrarySourceTable`: http, https, dav, davs, webdav/webdavs, sftp, ssh), and the table's short
/// forms (scp's `[user@]host:path`) when no local file has that name. Anything else is a local path, so
/// local browsing is unchanged.
public enum RemoteBrowseArgument {
    public static var schemes: Set<String> { LibrarySourceTable.remoteSchemes }

    /// The URL when `argument` names a remote directory, else nil. `ssh://` becomes `sftp://`; scp-style
    /// paths are relative to the login's home directory (`/~/` in an SFTP URL) unless they start with `/`.
    public static func url(_ argument: String, localPathExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) })
        -> URL? {
        if let colon = argument.firstIndex(of: ":"), schemes.contains(argument[..<colon].lowercased()) {
            guard let parts = URLComponents(string: argument), parts.host?.isEmpty == false, let url = parts.url else { return nil }
            return LibrarySourceTable.canonical(url)
        }
        return scpStyleURL(argument, localPathExists: localPathExists)
    }

    /// `[user@]host:path` → `sftp://[user@]host/~/path` (or `/path` when absolute): the table's short form
    /// (`SFTPSource.url(fromSCPForm:)`).
    public static func scpStyleURL(_ argument: String, localPathExists: (String) -> Bool) -> URL? {
        LibrarySourceTable.url(fromShortForm: argument, localPathExists: localPathExists)
    }

    /// Why a remote-looking argument cannot be used ("http://" without a host...), else nil.
    public static func problem(_ argument: String) -> String? {
        guard let colon = argument.firstIndex(of: ":"), schemes.contains(argument[..<colon].lowercased()),
              argument[colon...].hasPrefix("://") else { return nil }
        return url(argument) == nil ? "'\(argument)' is not a usable URL (expected scheme://host/path/)" : nil
    }
}
