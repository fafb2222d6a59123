import Foundation

extension RemoteLocation {
    /// The URL with a trailing slash on its path (a directory).
    public static func directoryURL(_ url: URL) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        if parts.percentEncodedPath.isEmpty { parts.percentEncodedPath = "/" }
        if !parts.percentEncodedPath.hasSuffix("/") { parts.percentEncodedPath += "/" }
        parts.query = nil
        parts.fragment = nil
        return parts.url ?? url
    }
}
