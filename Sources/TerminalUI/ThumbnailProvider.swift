import LivePairing
import TerminalGraphics

/// Which picture of which item at which size: the signature a request is cached and cancelled by.
public struct ThumbnailKey: Sendable, Hashable {
    public var itemID: String
    public var width: Int
    public var height: Int
    /// Set on a playing movie's frames (pixel modes): each frame is its own picture for the tty writer.
    public var movieFrame: Int?
    public init(itemID: String, width: Int, height: Int, movieFrame: Int? = nil) {
        self.itemID = itemID
        self.width = width
        self.height = height
        self.movieFrame = movieFrame
    }
}

/// Visible cells first, the next page after, full-size viewer pictures before everything.
public enum PicturePriority: Int, Sendable, Comparable {
    case prefetch = 0
    case visible = 1
    case selected = 2
    public static func < (a: PicturePriority, b: PicturePriority) -> Bool { a.rawValue < b.rawValue }
}

/// Makes cell pictures (symbol-mode `RenderedImage`s, sized to fit the key's cells) in the background. The UI thread calls every method and never waits on a decode:
/// `picture(for:)` answers from memory or says nil (the cell shows a placeholder), and the UI polls
/// `takeReadyKeys()` each loop turn to know what to redraw.
public protocol ThumbnailProvider: AnyObject {
    /// Why pictures look the way they do ("symbols: TERM=xterm-256color"), for the status bar.
    var modeDescription: String { get }
    /// Asks for a picture; repeating a request already queued only updates its priority.
    func request(_ key: ThumbnailKey, item: LibraryItem, priority: PicturePriority)
    /// Cancels every queued or running request whose key is not in `keep` (cells scrolled away).
    func cancelAll(except keep: Set<ThumbnailKey>)
    /// A finished picture, if there is one in memory.
    func picture(for key: ThumbnailKey) -> RenderedImage?
    /// True when the picture could not be made (corrupt or unsupported file): the placeholder says so.
    func hasFailed(_ key: ThumbnailKey) -> Bool
    /// Keys finished since the last call.
    func takeReadyKeys() -> [ThumbnailKey]
    /// True while requests are queued or running (the loop then polls input with a short timeout).
    var hasPendingWork: Bool { get }
    /// Set when pictures are pixel-protocol bytes (sixel/kitty/iTerm2) the tty writer places after curses.
    var pixelOutput: PixelOutput? { get }
    /// Starts making pictures of `width`x`height` cells for the item ids `stills` returns (evaluated in the
    /// background) before they are requested: the first screen while the scan runs. Best effort.
    func prewarm(stills: @escaping @Sendable () -> [String], width: Int, height: Int)
    /// Forgets every picture of these items: their files changed (rotated in place, replaced), so the
    /// pictures in memory are stale. The freedesktop cache notices by itself (its entries carry the mtime).
    func invalidate(itemIDs: Set<String>)
    /// These live items' movies could not be played: pictures with a badge drawn in (pixel modes) are made
    /// again with LIVE OFF.
    func markLiveOff(itemIDs: Set<String>)
}

extension ThumbnailProvider {
    public var pixelOutput: PixelOutput? { nil }
    public func prewarm(stills: @escaping @Sendable () -> [String], width: Int, height: Int) {}
    public func invalidate(itemIDs: Set<String>) {}
    public func markLiveOff(itemIDs: Set<String>) {}
}

/// The provider used when pictures are off (`graphics.mode = "none"`) or no renderer is available:
/// every cell keeps its placeholder.
public final class PlaceholderThumbnailProvider: ThumbnailProvider {
    public let modeDescription: String
    public init(reason: String) { modeDescription = reason }
    public func request(_ key: ThumbnailKey, item: LibraryItem, priority: PicturePriority) {}
    public func cancelAll(except keep: Set<ThumbnailKey>) {}
    public func picture(for key: ThumbnailKey) -> RenderedImage? { nil }
    public func hasFailed(_ key: ThumbnailKey) -> Bool { false }
    public func takeReadyKeys() -> [ThumbnailKey] { [] }
    public var hasPendingWork: Bool { false }
}
