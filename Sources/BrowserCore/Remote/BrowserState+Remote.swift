import Foundation
import LibraryCore
import LivePairing

extension BrowserState {
    /// Makes this a remote browser; the listing starts with the first `scanStarted` (the grid says
    /// "scanning…" until the listing arrives).
    /// `libraryURL` must be the `RemoteLibrary`'s own `url` (events are matched against it).
    public mutating func beginRemote(libraryURL: URL) {
        remote = RemoteBrowseState(url: libraryURL)
        rootPath = Self.displayString(libraryURL)
    }

    /// The remote state of a grid item, if the browser shows a remote directory.
    public func remoteItem(id: ItemID) -> RemoteItem? { remote?.itemsByID[id] }

    /// What the player should open for `id`: the downloaded copy of a remote item (nil while it is not
    /// playable), or the local item itself.
    public func playableItem(id: ItemID) -> LibraryItem? {
        if let remote {
            guard let item = remote.itemsByID[id], item.isPlayable else { return nil }
            return item.localItem
        }
        return items.first { $0.id == id }
    }

    /// True while something remote can change the screen without a key: a listing, transfers, or the
    /// activity line waiting to go away.
    public func remoteNeedsPolling(at now: Date = Date()) -> Bool {
        guard let remote else { return false }
        return isScanning || remote.activity.isVisible(at: now, linger: Self.activityLinger)
    }

    /// When the screen changes next without an event: the transfer line goes away `activityLinger` seconds
    /// after the last transfer finished (everything else remote arrives as events). nil: no such moment.
    public func remoteRedrawDeadline(at now: Date = Date()) -> Date? {
        guard let activity = remote?.activity, activity.isIdle, let finishedAt = activity.finishedAt,
              activity.isVisible(at: now, linger: Self.activityLinger) else { return nil }
        return finishedAt.addingTimeInterval(Self.activityLinger)
    }

    /// How long the activity line stays after the last transfer finished.
    public static let activityLinger: TimeInterval = 3

    /// A URL as shown on screen: never with its password.
    public static func displayString(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        parts.user = nil
        parts.password = nil
        return parts.string ?? url.absoluteString
    }

    // MARK: reducer hooks

    mutating func reduceRemote(_ action: RemoteAction) -> [BrowserEffect] {
        guard remote != nil else { return [] }
        switch action {
        case .event(let directory, let event):
            guard directory == remote?.url else { return [] }
            return apply(event)
        case .listingFailed(let directory, let error):
            guard directory == remote?.url else { return [] }
            isScanning = false
            remote?.isPairing = false
            remote?.listingError = error
            message = "cannot list \(rootPath): \(error.description)"
        case .retry:
            guard let item = selectedItem, let remoteItem = remote?.itemsByID[item.id] else { break }
            if remoteItem.failure != nil {
                message = "retrying \(item.displayName)…"
                return [.remote(.retry(itemID: item.id))]
            }
            message = "\(item.displayName) has not failed: nothing to retry"
        case .toggleActivityPanel:
            remote?.showsActivityPanel.toggle()
        case .parent:
            return openRemoteParent() ?? []
        }
        return []
    }

    private mutating func apply(_ event: RemoteLibraryEvent) -> [BrowserEffect] {
        switch event {
        case .listed(let listed, let directories, let rejected):
            let firstOfFolder = remote?.itemsByID.isEmpty ?? true
            remote?.isPairing = true
            remote?.listingError = nil
            remote?.directoriesByID = Dictionary(directories.map { (Self.folderID($0), $0) }, uniquingKeysWith: { a, _ in a })
            showRemote(listed, directories: directories, keepingShown: true)
            scanWarnings = rejected.map { "skipped \($0)" }
            // Ids are names within the folder shown: another folder's IMG_1.JPG is not this one (a paged
            // listing's earlier pages already loaded this folder's).
            if firstOfFolder { triage.states = [:] }
            return remoteTriageLoad()
        case .listedSoFar(let listed, let directories):
            let firstOfFolder = remote?.itemsByID.isEmpty ?? true
            remote?.listingError = nil
            remote?.directoriesByID = Dictionary(directories.map { (Self.folderID($0), $0) }, uniquingKeysWith: { a, _ in a })
            showRemote(listed, directories: directories, keepingShown: true)
            if firstOfFolder { triage.states = [:] }
            return remoteTriageLoad()
        case .paired(let paired):
            remote?.isPairing = false
            isScanning = false
            let directories = remote.map { Array($0.directoriesByID.values) } ?? []
            showRemote(paired, directories: directories)
            return remoteTriageLoad()
        case .settled:
            remote?.isPairing = false
            isScanning = false
        case .listingTruncated(let kept, let limit):
            message = Self.truncationMessage(kept: kept, limit: limit)
        case .itemChanged(let item):
            remote?.itemsByID[item.id] = item
            if remote?.pendingPlayID == item.id, item.isPlayable {
                remote?.pendingPlayID = nil
                // Still held: play now. Released meanwhile: nothing (the user let go).
                if playback.phase == .pressed(itemID: item.id), selectedItem?.id == item.id {
                    playback.phase = .loading(itemID: item.id, purpose: .hold)
                    return [.startPlayback(itemID: item.id)]
                }
            }
        case .activity(let activity):
            remote?.activity = activity
        }
        return []
    }

    /// The ratings and flags of the listed items, from livegrid's index (issue 31.5).
    private func remoteTriageLoad() -> [BrowserEffect] {
        let subjects = allItems.compactMap(remoteTriageSubject)
        return subjects.isEmpty ? [] : [.triage(.loadRemoteStates(subjects))]
    }

    /// How livegrid's index keys a remote item: its primary file's URL as shown (no password), decoded.
    func remoteTriageSubject(_ item: LibraryItem) -> RemoteTriageSubject? {
        guard let remoteItem = remote?.itemsByID[item.id],
              let url = item.still != nil ? remoteItem.stillURL : remoteItem.movieURL else { return nil }
        return RemoteTriageSubject(itemID: item.id, location: RemoteTriageSubject.location(ofRemote: Self.displayString(url)),
                                         file: item.primary, displayName: item.displayName)
    }

    /// `keepingShown`: an item already shown with the same files keeps the state its events brought (a
    /// listing's copy may have been taken before an event that already arrived); items no longer listed go.
    private mutating func showRemote(_ remoteItems: [RemoteItem], directories: [RemoteEntry], keepingShown: Bool = false) {
        guard let depth = remote?.depth else { return }
        // Built in place (no intermediate arrays of pairs or items): a listing may hold 200,000 items of 1.2 KB.
        if keepingShown, var table = remote?.itemsByID, !table.isEmpty {
            remote?.itemsByID = [:]
            table.update(with: remoteItems) { shown, listed in
                shown.stillLocation == listed.stillLocation && shown.movieLocation == listed.movieLocation
            }
            remote?.itemsByID = table
        } else {
            remote?.itemsByID = [:]
            remote?.itemsByID = RemoteItemTable(remoteItems)
        }
        let sortedDirectories = directories.sorted { NaturalOrder.less($0.name, $1.name) }
        var shown = RemoteBrowseState.folderItems(sortedDirectories, depth: depth)
        shown.reserveCapacity(shown.count + remoteItems.count)
        for item in remoteItems { shown.append(remote?.itemsByID[item.id]?.item ?? item.item) }
        setItems(shown)
        if let id = remote?.selectAfterListing, let index = items.firstIndex(where: { $0.id == id }) {
            selectIndex(index)
            remote?.selectAfterListing = nil
        }
    }

    /// What the user reads when a listing was cut (status bar, `scan` warnings).
    public static func truncationMessage(kept: Int, limit: Int) -> String {
        "this folder lists more than \(limit) entries: only the first \(kept) are shown (raise remote.max_entries or --max-entries)"
    }

    static func folderID(_ entry: RemoteEntry) -> ItemID { ItemID(entry.name.hasSuffix("/") ? entry.name : entry.name + "/") }

    /// Enter on a folder entry opens it (nil: the selection is not a folder, open the viewer as usual).
    mutating func openRemoteDirectoryIfSelected() -> [BrowserEffect]? {
        guard let remote, let id = selectedItem?.id, remote.isDirectory(id) else { return nil }
        if id == RemoteBrowseState.parentID { return openRemoteParent() ?? [] }
        guard let entry = remote.directoriesByID[id] else { return [] }
        self.remote?.parents.append(remote.url)
        self.remote?.depth += 1
        enterRemoteDirectory(RemoteLocation.directoryURL(entry.url), selecting: nil)
        return [.remote(.openDirectory(entry))]
    }

    /// Esc in the grid with nothing else to close, or Backspace: up one directory (nil at the root).
    mutating func openRemoteParent() -> [BrowserEffect]? {
        guard let remote, let parent = remote.parents.last else { return nil }
        let leaving = remote.url.lastPathComponent + "/"
        self.remote?.parents.removeLast()
        self.remote?.depth -= 1
        enterRemoteDirectory(parent, selecting: ItemID(leaving))
        return [.remote(.openParent)]
    }

    private mutating func enterRemoteDirectory(_ url: URL, selecting id: ItemID?) {
        remote?.url = url
        remote?.itemsByID = [:]
        remote?.directoriesByID = [:]
        remote?.listingError = nil
        remote?.pendingPlayID = nil
        remote?.selectAfterListing = id
        rootPath = Self.displayString(url)
        isScanning = true
        selection = 0
        scrollRow = 0
        mode = .grid
        setFilter("")
        setItems([])
    }

    /// Space on a remote item that cannot play yet: its files go to the front of the queue and the status bar
    /// shows their progress; playback starts if it becomes playable while the key is held.
    mutating func waitForRemotePlayback(_ item: LibraryItem) -> [BrowserEffect]? {
        guard let remote, let remoteItem = remote.itemsByID[item.id], !remoteItem.isPlayable else { return nil }
        self.remote?.pendingPlayID = item.id
        return [.remote(.requestPlay(itemID: item.id))]
    }
}
