import Foundation
import LibraryCore

extension RemoteError {
    /// A URL no kind of library serves; the sentence names the schemes that are (the scheme table is here,
    /// with the kinds, while the error value lives in LibraryCore for the reducer to carry).
    public static func unsupportedURL(_ url: String) -> RemoteError {
        .unsupportedURL(url, supportedSchemes: LibrarySourceTable.remoteSchemes.sorted())
    }
}
