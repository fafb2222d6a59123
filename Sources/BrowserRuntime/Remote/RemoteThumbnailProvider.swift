import BrowserCore
import Concurrent
import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import TerminalGraphics

/// Pictures of remote items: the renderer asks for a cell's picture as for a local item; this turns the ask
/// into a download of the item (visible cells at `.visible`, the next page at `.prefetch`) and, once the
/// still (or a video's movie) is on disk, into a request to the real provider with the local copy.
/// Cells scrolled away drop their downloads that have not started, so the queue follows the screen.
public final class RemoteThumbnailProvider: ThumbnailProvider {
    private let inner: ThumbnailProvider
    private let session: RemoteSession
    private var remoteItems = RemoteItemTable()
    private var directory: URL?
    /// Items whose download this provider asked for, at which priority.
    private var requested: [ItemID: Urgency] = [:]
    /// The kind each item had when its picture was asked for: pixel pictures carry the badge, so a kind that
    /// changes with pairing (a guessed Live Photo that is a lone still) makes the picture again.
    private var kindAtRequest: [ItemID: ItemKind] = [:]
    /// Items drawn from their preview (the Exif thumbnail in the still's head): drawn again from the still
    /// once it is here.
    private var shownFromPreview: Set<ItemID> = []
    /// Items whose still's download waits for their preview (symbols: a preview that covers the cell makes
    /// the whole still unnecessary; issue 28.1).
    private var stillDeferred: Set<ItemID> = []
    /// Items whose preview was asked for (once each: the library looks the item up in its whole listing).
    private var previewAsked: Set<ItemID> = []

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
            shownFromPreview.removeAll()
            stillDeferred.removeAll()
            previewAsked.removeAll()
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

    public func request(_ key: ThumbnailKey, item: LibraryItem, priority: Urgency) {
        guard let remoteItem = remoteItems[key.itemID] else { return }  // folder entries have no picture
        // A picture as soon as the still is on disk and its own info is known (its header probe, or the
        // downloaded copy read locally): never from a name-guessed placeholder, whose missing orientation would
        // be cached (in memory and in the freedesktop cache) under the same local path as the right picture.
        let id = key.itemID
        if remoteItem.canShowPicture, let local = Self.pictureItem(remoteItem) {
            if shownFromPreview.remove(id) != nil { inner.invalidate(itemIDs: [id]) }
            if kindAtRequest[id] == nil { kindAtRequest[id] = remoteItem.item.kind }
            inner.request(key, item: local, priority: priority)
        } else if let preview = remoteItem.preview.preview, remoteItem.stillState.localPath == nil {
            // The head's thumbnail, until (or instead of) the still: its own small file and facts.
            shownFromPreview.insert(id)
            inner.request(key, item: Self.previewItem(preview), priority: priority)
        }
        guard remoteItem.failure == nil, remoteItem.localItem == nil else { return }
        // A picture's download never ranks above `.visible`: `.play` (front of the queue, past the automatic size
        // cap) is for the user's own request.
        let wanted = min(priority, .visible)
        // Symbols: the head's thumbnail is drawn first (pixel modes would send the picture twice).
        if inner.pixelOutput == nil, remoteItem.stillState.localPath == nil, case .notTried = remoteItem.preview,
           previewAsked.insert(id).inserted {
            session.current.requestPreview(id)
        }
        let stillWaits = previewMayServe(remoteItem, key)
        if let asked = requested[id], asked >= wanted, stillDeferred.contains(id) == stillWaits { return }
        requested[id] = max(requested[id] ?? wanted, wanted)
        if stillWaits {
            stillDeferred.insert(id)
            session.current.downloadMovie(id, priority: wanted)
        } else {
            stillDeferred.remove(id)
            session.current.download(id, priority: wanted)
        }
    }

    /// Whether the still's download waits for (or is replaced by) its preview: in symbols, for a lone JPEG or
    /// HEIC still not already here (a Live Photo's still is fetched as before: playing needs it), while the preview
    /// is unknown, and for good when it replaces the still and covers what the cell can show
    /// (`CellPictureResolution.sufficientBox`). Pixel modes show every pixel: they fetch the still as before.
    private func previewMayServe(_ item: RemoteItem, _ key: ThumbnailKey) -> Bool {
        guard inner.pixelOutput == nil, key.movieFrame == nil, item.stillState == .notRequested, item.item.movie == nil,
              let still = item.item.still, RemotePreview.canExist(forName: still.path) else { return false }
        switch item.preview {
        case .notTried, .fetching:
            return true
        case .none:
            return false
        case .ready(let preview):
            // Shown already; whether it is all the still holds for a cell is being checked.
            guard let replaces = preview.replacesStill else { return true }
            guard replaces, let size = preview.uprightSize,
                  let box = CellPictureResolution.sufficientBox(mode: .symbols, columns: key.width, rows: key.height) else { return false }
            // The picture is fitted into the box: the preview serves when that needs no enlarging (10 % slack).
            let scale = min(Double(box.width) / Double(size.width), Double(box.height) / Double(size.height))
            return scale <= 1.1
        }
    }

    public func cancelAll(except keep: Set<ThumbnailKey>) {
        inner.cancelAll(except: keep)
        let kept = Set(keep.map(\.itemID))
        for (id, _) in requested where !kept.contains(id) {
            guard let item = remoteItems[id] else {
                requested[id] = nil
                stillDeferred.remove(id)
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

    public func invalidate(itemIDs: Set<ItemID>) { inner.invalidate(itemIDs: itemIDs) }
    public func picture(for key: ThumbnailKey) -> RenderedImage? { inner.picture(for: key) }
    public func hasFailed(_ key: ThumbnailKey) -> Bool { inner.hasFailed(key) }
    public func takeReadyKeys() -> [ThumbnailKey] { inner.takeReadyKeys() }
    public func setReadyHandler(_ handler: @escaping @Sendable () -> Void) { inner.setReadyHandler(handler) }
    public var pixelOutput: PixelOutput? { inner.pixelOutput }
    public var zoomCellPixels: ZoomCellPixels { inner.zoomCellPixels }

    /// A preview as the item the real provider draws (a still of its own small file).
    static func previewItem(_ preview: RemotePreview) -> LibraryItem {
        LibraryItem(kind: .still, still: MediaFile(path: preview.path, size: 0, modificationTime: 0, info: preview.info))
    }

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
