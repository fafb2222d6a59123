import Foundation
import LivePairing

/// One grid cell of a remote library: the paired item plus the download state of each of its files.
/// `item`'s paths are names relative to the listed directory; `localItem` points at the cached copies.
public struct RemoteItem: Sendable, Identifiable {
    public var id: ItemID { item.id }
    public var item: LibraryItem
    /// True until the headers were read and the item paired (the kind is then only guessed from names).
    public var isPlaceholder: Bool
    /// Where the files are: the listing's locations (its shared directory text plus each name), not a `URL`
    /// each, which was ~370 bytes per file of a 200,000-entry listing (issue 17 item 5).
    public var stillLocation: RemoteLocation?
    public var movieLocation: RemoteLocation?
    public var stillState: DownloadState
    public var movieState: DownloadState
    /// The still's media info was read from its own bytes (header probe or the downloaded copy), not guessed
    /// from its name: its picture can be made before pairing ends (orientation is known).
    public var stillInfoKnown = false
    /// The picture from the still's head range (its Exif thumbnail), before or instead of the whole still.
    public var preview: RemotePreviewState = .notTried

    /// The still's URL (made on each read from `stillLocation`).
    public var stillURL: URL? {
        get { stillLocation?.url }
        set { stillLocation = newValue.map(RemoteLocation.init) }
    }
    /// The movie's URL (made on each read from `movieLocation`).
    public var movieURL: URL? {
        get { movieLocation?.url }
        set { movieLocation = newValue.map(RemoteLocation.init) }
    }

    public init(item: LibraryItem, isPlaceholder: Bool, stillURL: URL?, movieURL: URL?,
                stillState: DownloadState = .notRequested, movieState: DownloadState = .notRequested) {
        self.init(item: item, isPlaceholder: isPlaceholder, stillLocation: stillURL.map(RemoteLocation.init),
                  movieLocation: movieURL.map(RemoteLocation.init), stillState: stillState, movieState: movieState)
    }

    public init(item: LibraryItem, isPlaceholder: Bool, stillLocation: RemoteLocation?, movieLocation: RemoteLocation?,
                stillState: DownloadState = .notRequested, movieState: DownloadState = .notRequested) {
        self.item = item
        self.isPlaceholder = isPlaceholder
        self.stillLocation = stillLocation
        self.movieLocation = movieLocation
        self.stillState = stillState
        self.movieState = movieState
    }

    /// A picture made now would be right: paired, or the still's own info known, or a video (its poster frame
    /// needs no info).
    public var canShowPicture: Bool {
        !isPlaceholder || stillInfoKnown || item.still == nil
    }

    /// Every file the item needs is on disk: for a Live Photo both halves, for a Motion Photo its still,
    /// for a video its movie. Stills are never "playable".
    public var isPlayable: Bool {
        switch item.kind {
        case .live: return stillState.isDownloaded && movieState.isDownloaded
        case .motion: return stillState.isDownloaded
        case .video: return movieState.isDownloaded
        case .still: return false
        }
    }

    /// Combined progress of the item's files (0...1), when any is downloading or done.
    public var fraction: Double? {
        let states = [stillLocation.map { _ in stillState }, movieLocation.map { _ in movieState }].compactMap { $0 }
        let parts = states.compactMap(\.fraction)
        guard !parts.isEmpty else { return nil }
        return parts.reduce(0, +) / Double(states.count)
    }

    /// The first failure among the item's files (the UI shows it and offers retry).
    public var failure: RemoteError? {
        for state in [stillState, movieState] {
            if case .failed(let error, _) = state { return error }
        }
        return nil
    }

    /// The item with local paths, once every file it has is downloaded: what the viewer and player open.
    public var localItem: LibraryItem? {
        var local = item
        if local.still != nil {
            guard let path = stillState.localPath else { return nil }
            local.still?.path = path
        }
        if local.movie != nil {
            guard let path = movieState.localPath else { return nil }
            local.movie?.path = path
        }
        return local
    }
}

/// What a `RemoteLibrary` tells its observers.
public enum RemoteLibraryEvent: Sendable {
    /// The listing arrived: items are placeholders, subdirectories are navigable.
    case listed(items: [RemoteItem], subdirectories: [RemoteEntry], rejected: [RejectedRemoteEntry])
    /// A paged listing's entries so far, while more pages are fetched (the browser's libraries only): shown at
    /// once; `.listed` follows with the whole listing. An item may change kind when its partner comes later.
    case listedSoFar(items: [RemoteItem], subdirectories: [RemoteEntry])
    /// More entries were listed than the library keeps (`RemoteLibrary.maxEntries`): only the first `kept` are
    /// shown. Comes just before `.listed`.
    case listingTruncated(kept: Int, limit: Int)
    /// Headers were read and items paired: this list replaces the placeholders.
    case paired([RemoteItem])
    /// `ProbePolicy.onDemand`: nothing more is read for the folder as a whole (right after `.listed`); the
    /// placeholders stay, each completed from its own files as they arrive (`.itemChanged`).
    case settled
    /// One item's download state changed.
    case itemChanged(RemoteItem)
    /// The aggregate download summary changed.
    case activity(DownloadActivity)
}
