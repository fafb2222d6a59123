import BrowserCore
import Foundation
import Concurrent
import Imaging
import LivePairing
import TerminalGraphics

/// Which picture of which item at which size: the signature a request is cached, scheduled and cancelled by,
/// and the outputs place pictures by. Every field is typed (issue 27 item 5: no ids built from strings).
public struct ThumbnailKey: Sendable, Hashable {
    /// Which picture of the item.
    public enum Variant: Sendable, Hashable {
        /// The item's picture: its still, or a movie's poster frame.
        case picture
        /// A frame of the item's playing movie: each frame is its own picture for the tty writer.
        case movieFrame(Int)
        /// A frame of the studio's sharing-effect preview of the item (not the item's own picture).
        case effectPreviewFrame(Int)
        /// The viewer's 1:1 zoom: the crop of the full-size image shown (a new key per crop position, so the
        /// outputs send again only when the crop moves).
        case zoom(ZoomedPicture)
    }

    public var itemID: ItemID
    /// The cells the picture fits in.
    public var width: Int
    public var height: Int
    public var variant: Variant
    public init(itemID: ItemID, width: Int, height: Int, variant: Variant = .picture) {
        self.itemID = itemID
        self.width = width
        self.height = height
        self.variant = variant
    }

    /// The serial of a movie's (or effect preview's) frame: the outputs replace such pictures in place.
    public var movieFrame: Int? {
        switch variant {
        case .movieFrame(let serial), .effectPreviewFrame(let serial): return serial
        case .picture, .zoom: return nil
        }
    }
    public var zoom: ZoomedPicture? {
        if case .zoom(let zoom) = variant { return zoom } else { return nil }
    }
}

/// The 1:1 zoom of a viewer picture: the crop's centre (in ten-thousandths of the upright image's width and
/// height, so equal positions make equal keys) and the image pixels per cell.
public struct ZoomedPicture: Sendable, Hashable {
    public var centerX: Int
    public var centerY: Int
    public var cell: ZoomCellPixels
    public init(_ zoom: ViewerZoom, cell: ZoomCellPixels) {
        centerX = Int((zoom.centerX * 10_000).rounded())
        centerY = Int((zoom.centerY * 10_000).rounded())
        self.cell = cell
    }

    /// The crop of a full-size image of this size that the key's cells show.
    public func crop(imageWidth: Int, imageHeight: Int, columns: Int, rows: Int) -> ZoomCrop {
        ViewerZoom.crop(centerX: Double(centerX) / 10_000, centerY: Double(centerY) / 10_000, imageWidth: imageWidth,
                        imageHeight: imageHeight, columns: columns, rows: rows, cell: cell)
    }
}

/// Makes cell pictures (symbol-mode `RenderedImage`s, sized to fit the key's cells) in the background. The UI thread calls every method and never waits on a decode:
/// `picture(for:)` answers from memory or says nil (the cell shows a placeholder), and the provider wakes
/// the loop (`setReadyHandler`), which takes `takeReadyKeys()` to know what to redraw.
public protocol ThumbnailProvider: AnyObject {
    /// Why pictures look the way they do ("symbols: TERM=xterm-256color"), for the status bar.
    var modeDescription: String { get }
    /// Asks for a picture; repeating a request already queued only updates its priority.
    func request(_ key: ThumbnailKey, item: LibraryItem, priority: Urgency)
    /// Cancels every queued or running request whose key is not in `keep` (cells scrolled away).
    func cancelAll(except keep: Set<ThumbnailKey>)
    /// A finished picture, if there is one in memory.
    func picture(for key: ThumbnailKey) -> RenderedImage?
    /// True when the picture could not be made (corrupt or unsupported file): the placeholder says so.
    func hasFailed(_ key: ThumbnailKey) -> Bool
    /// Keys finished since the last call.
    func takeReadyKeys() -> [ThumbnailKey]
    /// Called (on any thread) whenever a key becomes ready for `takeReadyKeys`: wakes the event loop.
    func setReadyHandler(_ handler: @escaping @Sendable () -> Void)
    /// Set when pictures are pixel-protocol bytes (sixel/kitty/iTerm2) the tty writer places after curses.
    var pixelOutput: PixelOutput? { get }
    /// Image pixels per cell at the viewer's 100 % (the pixel cell's size in pixel modes).
    var zoomCellPixels: ZoomCellPixels { get }
    /// Starts making pictures of `width`x`height` cells for the item ids `stills` returns (evaluated in the
    /// background) before they are requested: the first screen while the scan runs. Best effort.
    func prewarm(stills: @escaping @Sendable () -> [ItemID], width: Int, height: Int)
    /// Forgets every picture of these items: their files changed (rotated in place, replaced), so the
    /// pictures in memory are stale. The freedesktop cache notices by itself (its entries carry the mtime).
    func invalidate(itemIDs: Set<ItemID>)
    /// These live items' movies could not be played: pictures with a badge drawn in (pixel modes) are made
    /// again with LIVE OFF.
    func markLiveOff(itemIDs: Set<ItemID>)

    /// What is wrong with an item's file, once its picture failed or showed only part of a damaged file.
    func pictureNote(for itemID: ItemID) -> PictureNote?
}

extension ThumbnailProvider {
    public var pixelOutput: PixelOutput? { nil }
    public var zoomCellPixels: ZoomCellPixels { .symbols }
    public func pictureNote(for itemID: ItemID) -> PictureNote? { nil }
    public func prewarm(stills: @escaping @Sendable () -> [ItemID], width: Int, height: Int) {}
    public func invalidate(itemIDs: Set<ItemID>) {}
    public func markLiveOff(itemIDs: Set<ItemID>) {}
    public func setReadyHandler(_ handler: @escaping @Sendable () -> Void) {}
}

/// The provider used when pictures are off (`graphics.mode = "none"`) or no renderer is available:
/// every cell keeps its placeholder.
public final class PlaceholderThumbnailProvider: ThumbnailProvider {
    public let modeDescription: String
    public init(reason: String) { modeDescription = reason }
    public func request(_ key: ThumbnailKey, item: LibraryItem, priority: Urgency) {}
    public func cancelAll(except keep: Set<ThumbnailKey>) {}
    public func picture(for key: ThumbnailKey) -> RenderedImage? { nil }
    public func hasFailed(_ key: ThumbnailKey) -> Bool { false }
    public func takeReadyKeys() -> [ThumbnailKey] { [] }
}

/// Why an item's picture is missing or partial, for the cell's mark and the info panel (issue 15.5/15.6).
public struct PictureNote: Sendable, Equatable {
    /// Where making the picture failed: reading the file, or drawing its decoded pixels into the cells.
    public enum Failure: Sendable, Equatable {
        case decode(ImagingError)
        /// The pixels were decoded but chafa (or the pixel protocol's encoder) could not draw them (issue 27.6).
        case render(RenderError)
    }
    public var failure: Failure
    /// True when a picture is shown (what decoded of a damaged file), false when there is none.
    public var shownInPart: Bool
    public init(error: ImagingError, shownInPart: Bool) {
        failure = .decode(error)
        self.shownInPart = shownInPart
    }
    public init(renderFailure: RenderError) {
        failure = .render(renderFailure)
        shownInPart = false
    }

    /// The decode failure, when the file is what failed.
    public var error: ImagingError? {
        if case .decode(let error) = failure { return error }
        return nil
    }

    /// The few words a grid cell has room for.
    public var shortLabel: String {
        guard case .decode(let error) = failure else { return "cannot draw" }
        switch error.problem {
        case .damaged: return "damaged"
        case .notAPicture: return "not a picture"
        case .unsupported: return "unsupported"
        case .tooLarge: return "too large"
        case .unreadable: return "unreadable"
        case .needsLibrary: return "needs a library"
        default: return "cannot show"
        }
    }

    /// Info panel lines: the sentence, then the library's detail (the panel is where it belongs).
    public var infoLines: [(label: String, value: String)] {
        switch failure {
        case .render(let why):
            return [(label: "Warning", value: "the picture was decoded but cannot be drawn: \(why.description)")]
        case .decode(let error):
            var lines = [(label: "Warning", value: error.description + (shownInPart ? " (shown as far as it decodes)" : ""))]
            if let detail = error.detail { lines.append((label: "Detail", value: detail)) }
            return lines
        }
    }
}

/// Notes by item id, written by decode workers, read by the UI thread.
public final class PictureNotes: Sendable {
    private let notes = Locked<[ItemID: PictureNote]>([:])
    public func set(_ note: PictureNote?, for itemID: ItemID) { notes.withLockedValue { $0[itemID] = note } }
    public func note(for itemID: ItemID) -> PictureNote? { notes.withLockedValue { $0[itemID] } }
}
