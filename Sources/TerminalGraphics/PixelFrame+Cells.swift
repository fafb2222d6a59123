import Imaging
import TerminalProtocol

extension PixelFrame {
    /// For a pixel protocol: the frame resampled to exactly the pixels of the cells it will cover when fitted
    /// into `columns` x `rows`, with `badge` drawn into its corner at that size (so the badge keeps its size
    /// whatever the source resolution, and a movie frame covers exactly the cells its key photo did).
    public func sizedForCells(columns: Int, rows: Int, cell: PixelSizeInCells?, badge: LiveBadge?) -> PixelFrame {
        let cells = CellGeometry.fit(pictureWidth: width, pictureHeight: height, maxColumns: columns, maxRows: rows,
                                     cell: cell)
        let box = CellGeometry.pixelBox(columns: cells.columns, rows: cells.rows, cell: cell)
        let sized = width == box.width && height == box.height ? self : resized(to: box)
        return badge.map { sized.drawingBadge($0) } ?? sized
    }
}
