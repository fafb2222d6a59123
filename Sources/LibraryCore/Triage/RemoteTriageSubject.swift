import Foundation
import LivePairing

/// A remote item as the triage store keys it: its primary file's location (see `location(ofRemote:)`) and what
/// the listing said about that file. (`TriageStore.RemoteSubject`; here so the browser's state names it
/// without the SQLite index below it.)
public struct RemoteTriageSubject: Sendable, Hashable {
    public var itemID: ItemID
    public var location: String
    public var file: MediaFile
    public var displayName: String
    public init(itemID: ItemID, location: String, file: MediaFile, displayName: String) {
        self.itemID = itemID
        self.location = location
        self.file = file
        self.displayName = displayName
    }

    /// The key of a remote file: its URL as shown (no user or password: `BrowserState.displayString`) with
    /// percent-escapes decoded, so `scan`'s paths (the shown URL of the folder plus decoded names) and the
    /// browser's URLs name a file alike.
    public static func location(ofRemote shown: String) -> String { shown.removingPercentEncoding ?? shown }
}

/// Why a rating went to livegrid's index instead of a sidecar beside the file (`TriageStore`'s reasons, here so
/// the browser's state names them without the SQLite index below it).
public enum TriageIndexReason {
    /// The reason a remote library's ratings are kept in the index.
    public static let remote = "livegrid never writes to a remote library"
    public static let readOnly = "this folder is read-only"
}
