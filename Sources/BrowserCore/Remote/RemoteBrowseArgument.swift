import Foundation

/// Recognises a remote directory on the command line: `livegrid https://host/photos/` (also http, dav, davs
/// and webdav/webdavs). Anything else is a local path, so local browsing is unchanged.
public enum RemoteBrowseArgument {
    public static let schemes: Set<String> = ["http", "https", "dav", "davs", "webdav", "webdavs"]

    /// The URL when `argument` names a remote directory, else nil.
    public static func url(_ argument: String) -> URL? {
        guard let colon = argument.firstIndex(of: ":"),
              schemes.contains(argument[..<colon].lowercased()),
              let url = URL(string: argument), url.host?.isEmpty == false else { return nil }
        return url
    }

    /// Why a remote-looking argument cannot be used ("http://" without a host...), else nil.
    public static func problem(_ argument: String) -> String? {
        guard let colon = argument.firstIndex(of: ":"), schemes.contains(argument[..<colon].lowercased()),
              argument[colon...].hasPrefix("://") else { return nil }
        return url(argument) == nil ? "'\(argument)' is not a usable URL (expected scheme://host/path/)" : nil
    }
}
