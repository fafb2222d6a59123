import Imaging
import TerminalGraphics

/// Sizes and bytes shared by the browser's playback and `livegrid play`.
public enum PlaybackGeometry {
    /// Pixels to decode for a picture of `columns` x `rows` cells: in symbol mode what chafa samples (8 px per
    /// column, 16 per row: every extra pixel is scaling work for nothing), in pixel modes what the cells cover.
    public static func pixelBox(columns: Int, rows: Int, mode: GraphicsMode, cell: PixelSizeInCells?) -> PixelSize {
        mode == .symbols ? CellGeometry.symbolPixelBox(columns: columns, rows: rows)
            : CellGeometry.pixelBox(columns: columns, rows: rows, cell: cell)
    }

    /// One frame drawn in place from the top-left corner: each row positioned explicitly (no newline can
    /// scroll), nothing cleared, so the terminal only repaints what it is sent.
    public static func inPlaceBytes(_ image: RenderedImage, insideTmux: Bool) -> [UInt8] {
        if image.mode != .symbols {
            return Array("\u{1B}[H".utf8) + (insideTmux ? image.bytesWrappedForTmux : image.bytes)
        }
        var text = ""
        text.reserveCapacity(image.columns * image.rows * 24)
        for (row, line) in image.ansiLines().enumerated() {
            text += "\u{1B}[\(row + 1);1H"
            text += line
        }
        return Array(text.utf8)
    }
}
