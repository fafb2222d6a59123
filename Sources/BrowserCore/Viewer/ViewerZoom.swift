import LivePairing
import MediaFormats

/// Image pixels one terminal cell shows at 100 %: the cell's pixel size in pixel modes (one image pixel per
/// terminal pixel); in symbols mode 2x4, what chafa's finest symbols (sextants, octants, braille) resolve in a
/// cell, so the crop is as sharp as symbols get.
public struct ZoomCellPixels: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// The most cells a 1:1 picture may cover (a sixel terminal's size limit, XTSMGRAPHICS), nil: no limit.
    public var maxColumns: Int?
    public var maxRows: Int?
    public init(width: Int, height: Int, maxColumns: Int? = nil, maxRows: Int? = nil) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.maxColumns = maxColumns.map { max(1, $0) }
        self.maxRows = maxRows.map { max(1, $0) }
    }
    public static let symbols = ZoomCellPixels(width: 2, height: 4)
}

/// A rectangle of image pixels: the part of the full-size image the zoomed viewer shows.
public struct ZoomCrop: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// The viewer's 1:1 zoom (`z`, as Lightroom's Z): which item, and where the crop's centre is, as a fraction of
/// the upright image's width and height (the state rarely knows the image's pixels; the picture pipeline does).
public struct ViewerZoom: Sendable, Hashable {
    public var itemID: ItemID
    public var centerX: Double
    public var centerY: Double

    public init(itemID: ItemID, centerX: Double = 0.5, centerY: Double = 0.5) {
        self.itemID = itemID
        self.centerX = min(max(centerX, 0), 1)
        self.centerY = min(max(centerY, 0), 1)
    }

    /// The crop of a `imageWidth`x`imageHeight` image that fills `columns`x`rows` cells at 100 %, around the
    /// centre, kept inside the image (an image smaller than the area is shown whole along that axis).
    public func crop(imageWidth: Int, imageHeight: Int, columns: Int, rows: Int, cell: ZoomCellPixels) -> ZoomCrop {
        Self.crop(centerX: centerX, centerY: centerY, imageWidth: imageWidth, imageHeight: imageHeight, columns: columns,
                  rows: rows, cell: cell)
    }

    /// The same crop around any centre (no item needed: the picture pipeline's zoomed key, the visible part).
    public static func crop(centerX: Double, centerY: Double, imageWidth: Int, imageHeight: Int, columns: Int, rows: Int,
                            cell: ZoomCellPixels) -> ZoomCrop {
        let width = min(max(0, imageWidth), max(1, columns) * cell.width)
        let height = min(max(0, imageHeight), max(1, rows) * cell.height)
        let x = origin(center: min(max(centerX, 0), 1), span: width, total: imageWidth)
        let y = origin(center: min(max(centerY, 0), 1), span: height, total: imageHeight)
        return ZoomCrop(x: x, y: y, width: width, height: height)
    }

    private static func origin(center: Double, span: Int, total: Int) -> Int {
        let wanted = Int((center * Double(total) - Double(span) / 2).rounded())
        return min(max(0, wanted), max(0, total - span))
    }

    /// Moves the centre by `dx`/`dy` quarters of the visible part, never past the image's edges (with the
    /// image's size unknown, the centre stays inside the image and the crop is clamped where it is made).
    mutating func pan(dx: Int, dy: Int, visibleWidth: Double?, visibleHeight: Double?) {
        centerX = Self.moved(centerX, by: dx, visible: visibleWidth)
        centerY = Self.moved(centerY, by: dy, visible: visibleHeight)
    }

    private static func moved(_ center: Double, by steps: Int, visible: Double?) -> Double {
        guard let visible else { return min(max(center + Double(steps) * 0.05, 0), 1) }
        guard visible < 1 else { return 0.5 }
        let half = visible / 2
        return min(max(center + Double(steps) * visible / 4, half), 1 - half)
    }

    /// Moves the picture `columns`x`rows` cells with the pointer: the crop moves the other way by the image
    /// pixels those cells show at 100 %, never past the image's edges. Without the image's size, a cell
    /// moves the centre by 1 % of the image.
    mutating func drag(columns: Int, rows: Int, cell: ZoomCellPixels, imageSize: (width: Int, height: Int)?,
                       visibleWidth: Double?, visibleHeight: Double?) {
        centerX = Self.dragged(centerX, cells: columns, pixelsPerCell: cell.width, total: imageSize?.width, visible: visibleWidth)
        centerY = Self.dragged(centerY, cells: rows, pixelsPerCell: cell.height, total: imageSize?.height, visible: visibleHeight)
    }

    private static func dragged(_ center: Double, cells: Int, pixelsPerCell: Int, total: Int?, visible: Double?) -> Double {
        let moved = total.map { center - Double(cells * pixelsPerCell) / Double(max(1, $0)) } ?? center - Double(cells) * 0.01
        guard let visible else { return min(max(moved, 0), 1) }
        guard visible < 1 else { return 0.5 }
        return min(max(moved, visible / 2), 1 - visible / 2)
    }

    /// Keeps the centre where the crop can be (after a resize or once the image's size is known).
    mutating func clamp(visibleWidth: Double?, visibleHeight: Double?) {
        pan(dx: 0, dy: 0, visibleWidth: visibleWidth, visibleHeight: visibleHeight)
    }
}

extension LibraryItem {
    /// The upright pixel size of the still, when the probe read it (EXIF orientations 5-8 swap the axes).
    public var uprightPixelSize: (width: Int, height: Int)? {
        guard let info = still?.info, let width = info.pixelWidth, let height = info.pixelHeight, width > 0, height > 0
        else { return nil }
        return (5...8).contains(info.orientation ?? 1) ? (height, width) : (width, height)
    }
}
