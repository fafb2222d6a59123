import Imaging
import TerminalProtocol

extension PixelFrame {
    /// For a pixel protocol: the frame resampled to the pixels of the cells it will cover when fitted into
    /// `columns` x `rows`, at its own aspect ratio (it fills the cells' width or their height, and no more: a
    /// 4:3 photo in 23x9 cells of 10x20 px is 230x173, not stretched to 230x180, which cost 4 % more bytes
    /// and drew it 4 % too tall), with `badge` drawn into its corner at that size (so the badge keeps its size
    /// whatever the source resolution, and a movie frame covers exactly the cells its key photo did).
    public func sizedForCells(columns: Int, rows: Int, cell: PixelSizeInCells?, badge: LiveBadge?) -> PixelFrame {
        let cells = CellGeometry.fit(pictureWidth: width, pictureHeight: height, maxColumns: columns, maxRows: rows,
                                     cell: cell)
        let box = CellGeometry.pixelBox(columns: cells.columns, rows: cells.rows, cell: cell).fitted(size)
        let sized = width == box.width && height == box.height ? self : resized(to: box)
        return badge.map { sized.drawingBadge($0) } ?? sized
    }
}

extension PixelSize {
    /// `picture`'s aspect ratio fitted into this box (up or down), touching its width or its height: the
    /// pixels a picture of that shape takes in these cells.
    public func fitted(_ picture: PixelSize) -> PixelSize {
        let fitted = picture.fitting(inside: self)
        // Within a pixel of the box is the box: rounding must not leave a one-pixel seam.
        return PixelSize(width: width - fitted.width <= 1 ? width : fitted.width,
                         height: height - fitted.height <= 1 ? height : fitted.height)
    }
}
