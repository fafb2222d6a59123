import Foundation
import LibraryCore
import LivePairing
import MediaFormats

/// What the browser knows about a remote directory (`livegrid https://host/photos/`): the download state of
/// every item, its subdirectories and the transfer summary. `BrowserState.items` holds the items as the grid
/// shows them (names relative to the directory, plus folder entries); this holds everything remote about them.
public struct RemoteBrowseState: Sendable {
    /// The directory shown (credentials removed: this is displayed).
    public var url: URL
    /// How many subdirectories below the command-line URL (0 = the root; Backspace/Esc go up while > 0).
    public var depth = 0
    /// The directories above this one, nearest last.
    public var parents: [URL] = []
    /// Why the directory could not be listed (its sentence is shown in the empty grid).
    public var listingError: RemoteError?
    /// The folder entry to select once the listing arrives (the one just left, after going up).
    public var selectAfterListing: ItemID?
    /// Remote state by item id (the id of `BrowserState.items`' entries).
    public var itemsByID = RemoteItemTable()
    /// Folder entries of the grid by their item id (`name/`, and `../` below the root).
    public var directoriesByID: [ItemID: RemoteEntry] = [:]
    /// True between the listing and the end of pairing (items are placeholders guessed from names).
    public var isPairing = false
    public var activity: DownloadActivity = .idle
    /// The transfer panel (`a`).
    public var showsActivityPanel = false
    /// Space was pressed on an item whose files are still downloading: playback starts when it is playable
    /// (if the key is still held).
    public var pendingPlayID: ItemID?

    /// The id of the parent folder entry shown first below the root.
    public static let parentID: ItemID = "../"

    public init(url: URL) {
        self.url = url
    }

    public func isDirectory(_ id: ItemID) -> Bool { directoriesByID[id] != nil || id == Self.parentID }

    /// Grid entries for folders (before the items): a `LibraryItem` whose only file is `name/`, so the grid,
    /// filter and selection treat it like any cell; the renderer draws it as a folder.
    static func folderItems(_ directories: [RemoteEntry], depth: Int) -> [LibraryItem] {
        var paths = depth > 0 ? [parentID.rawValue] : []
        paths += directories.map { $0.name.hasSuffix("/") ? $0.name : $0.name + "/" }
        return paths.map { path in
            LibraryItem(kind: .still, still: MediaFile(path: path, size: 0, modificationTime: 0,
                                                       info: MediaInfo(format: .unknown)))
        }
    }
}

/// Things the remote library tells the browser, and remote-only keys.
public enum RemoteAction: Sendable {
    /// An event of the library listing `directory` (events of a directory left since are ignored).
    case event(directory: URL, RemoteLibraryEvent)
    case listingFailed(directory: URL, RemoteError)
    /// `R`: retry the selected item's failed downloads.
    case retry
    /// `a`: show or hide the transfer panel.
    case toggleActivityPanel
    /// Backspace: the parent directory (no-op at the root and for local folders).
    case parent
}

/// Work for the remote front end (network calls never run in the reducer).
public enum RemoteEffect: Sendable, Equatable {
    case openDirectory(RemoteEntry)
    case openParent
    case retry(itemID: ItemID)
    /// Move the item's files (its movie above all) to the front of the download queue.
    case requestPlay(itemID: ItemID)
}
