import Foundation
import LibraryCore

extension RemoteLocation.Prefix {
    /// The prefix of the entries listed in `directory` (password, query and fragment removed; the user too,
    /// except for SFTP, whose entries connect as the listing's user, `SFTPListingParser.entryURL`).
    public static func listing(_ directory: URL) -> RemoteLocation.Prefix {
        var parts = URLComponents(url: RemoteLocation.directoryURL(directory), resolvingAgainstBaseURL: false)
        if !RemoteHTTPClient.isSFTP(directory) { parts?.user = nil }
        parts?.password = nil
        return RemoteLocation.Prefix(text: parts?.string ?? directory.absoluteString)
    }
}
