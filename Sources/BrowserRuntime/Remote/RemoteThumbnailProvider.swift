import BrowserCore
import Foundation
import Library
import LibrarySources
import LivePairing
import TerminalGraphics

/// Pictures of remote items: the renderer asks for a cell's picture as for a local item; this turns the ask
/// into a download of the item (visible cells at `.visible`, the next page at `.background`) and, once the
/// still (or a video's movie) is on disk, into a request to the real provider with the local copy.
/// Cells scrolled away drop their downloads that have not started, so the queue follows the screen.
public final class RemoteThumbnailProvider: ThumbnailProvider {
    private let inner: ThumbnailProvider
    private let session: RemoteSession
    private var remoteItems = RemoteItemTable()
    private var directory: URL?
    /// Items whose download this provider asked for, at which priority.
    private var requested: [String: DownloadPriority] = [:]
    /// The kind each item had when its picture was asked for: pixel pictures carry the badge, so a kind that
    /// changes with pairing (a guessed Live Photo that is a lone still) makes the picture again.
    private var kindAtRequest: [String: ItemKind] = [:]

    public init(inner: ThumbnailProvider, session: RemoteSession) {
        self.inner = inner
        self.session = session
    }

    /// Called before each frame with the state the renderer will draw.
    public func update(from state: BrowserState) {
        guard let remote = state.remote else { return }
        if remote.url != directory {
            directory = remote.url
            requested.removeAll()
            kindAtRequest.removeAll()
        }
        remoteItems = remote.itemsByID
        let changed = Set(kindAtRequest.compactMap { id, kind in
            remoteItems[id].map { $0.item.kind != kind } == true ? id : nil
        })
        if !changed.isEmpty {
            inner.invalidate(itemIDs: changed)
            for id in changed { kindAtRequest[id] = nil }
        }
    }

    /// Lets go of the state's item dictionary between frames: while this held a second reference, every
    /// `.itemChanged` copied the whole dictionary (200,000 items of 1.2 KB in a long listing) instead of
    /// changing one entry in place.
    public func frameEnded() { remoteItems = [:] }

    public var modeDescription: String { inner.modeDescription }

    public func request(_ key: ThumbnailKey, item: LibraryItem, priority: PicturePriority) {
        guard let remoteItem = remoteItems[key.itemID] else { return }  // folder entries have no picture
        // A picture as soon as the still is on disk and its own info is known (its header probe, or the
        // downloaded copy read locally): never from a name-guessed placeholder, whose missing orientation would
        // be cached (in memory and in the freedesktop cache) under the same local path as the right picture.
        if remoteItem.canShowPicture, let local = Self.pictureItem(remoteItem) {
            if kindAtRequest[key.itemID] == nil { kindAtRequest[key.itemID] = remoteItem.item.kind }
            inner.request(key, item: local, priority: priority)
        }
        guard remoteItem.failure == nil, remoteItem.localItem == nil else { return }
        let wanted: DownloadPriority = priority == .prefetch ? .background : .visible
        if let asked = requested[key.itemID], asked >= wanted { return }
        requested[key.itemID] = wanted
        session.current.download(key.itemID, priority: wanted)
    }

    public func cancelAll(except keep: Set<ThumbnailKey>) {
        inner.cancelAll(except: keep)
        let kept = Set(keep.map(\.itemID))
        for (id, _) in requested where !kept.contains(id) {
            guard let item = remoteItems[id] else {
                requested[id] = nil
                continue
            }
            // The manager's own state, not the last event's (which may still be on its way to the UI).
            let downloads = session.current.downloads
            let states = [item.stillURL, item.movieURL].compactMap { $0 }.map { ($0, downloads.state(of: $0)) }
            // Only an item none of whose files runs yet is dropped: a running transfer is progress the user saw.
            if states.contains(where: { $0.1 == .queued }), states.allSatisfy({ $0.1 == .queued || $0.1.isDownloaded }) {
                for (url, state) in states where state == .queued { downloads.cancel(url) }
                requested[id] = nil
            } else if states.allSatisfy({ !$0.1.isActive }) {
                requested[id] = nil  // finished, failed or dropped: nothing to follow
            }
        }
    }

    public func invalidate(itemIDs: Set<String>) { inner.invalidate(itemIDs: itemIDs) }
    public func picture(for key: ThumbnailKey) -> RenderedImage? { inner.picture(for: key) }
    public func hasFailed(_ key: ThumbnailKey) -> Bool { inner.hasFailed(key) }
    public func takeReadyKeys() -> [ThumbnailKey] { inner.takeReadyKeys() }
    public func setReadyHandler(_ handler: @escaping @Sendable () -> Void) { inner.setReadyHandler(handler) }
    public var pixelOutput: PixelOutput? { inner.pixelOutput }

    /// What the picture is made from: the local still as soon as it is downloaded (a Live Photo's thumbnail
    /// does not wait for its movie), or a video's local movie.
    public static func pictureItem(_ item: RemoteItem) -> LibraryItem? {
        if var still = item.item.still, let path = item.stillState.localPath {
            still.path = path
            return LibraryItem(kind: .still, still: still)
        }
        if item.item.still == nil, var movie = item.item.movie, let path = item.movieState.localPath {
            movie.path = path
            return LibraryItem(kind: .video, movie: movie)
        }
        return nil
    }
}
