import Imaging
import TerminalProtocol

/// How many pixels a picture needs for a box of cells in each output mode, and so which embedded thumbnail
/// (Exif IFD1, HEIF thumbnail item) may stand in for the full picture.
///
/// Symbol mode: chafa resamples the picture to 8x8 samples per cell (CHAFA_SYMBOL_WIDTH/HEIGHT_PIXELS) and
/// then shows each cell as two colours and one symbol. The symbols livegrid allows (blocks, borders, space;
/// see `ChafaRenderer`) split a cell into at most 2 x 2 regions of their own colour (quadrants; sextants
/// would be 2 x 3): finer symbols (eighth blocks, lines) only move an edge between the same two colours.
/// Two samples per region edge keep each region's mean colour and the edge's position within a sample, so a
/// picture with `symbolSamplesPerColumn` pixels per column (and as many per half row) looks the same in
/// symbols as the full decode: measured by `SymbolThumbnailLookTests` (DECISIONS.md).
/// Pixel modes (sixel, kitty, iTerm) show every pixel of the cells: they need the full pixel box.
public enum CellPictureResolution {
    /// Pixels per cell column a symbol picture needs (2 regions x 2 samples); rows get the same density
    /// in pixels per half cell height, i.e. twice as many per row for the usual 1:2 cells.
    public static let symbolSamplesPerColumn = 4
    public static let symbolSamplesPerRow = 8

    /// The box to decode into: what the mode can use, no more (symbols: chafa's 8 samples per column).
    public static func decodeBox(mode: GraphicsMode, columns: Int, rows: Int, cell: PixelSizeInCells?) -> PixelSize {
        mode == .symbols ? CellGeometry.symbolPixelBox(columns: columns, rows: rows)
                         : CellGeometry.pixelBox(columns: columns, rows: rows, cell: cell)
    }

    /// The smallest picture (fitted into this box) the mode shows as well as a bigger one; nil for pixel modes,
    /// which need `decodeBox`.
    public static func sufficientBox(mode: GraphicsMode, columns: Int, rows: Int) -> PixelSize? {
        guard mode == .symbols else { return nil }
        return PixelSize(width: max(1, columns * symbolSamplesPerColumn), height: max(1, rows * symbolSamplesPerRow))
    }

    /// Decode options for a picture shown in `columns` x `rows` cells in `mode`: an embedded thumbnail serves
    /// when it covers the sufficient box (symbols), or the whole pixel box (pixel modes).
    public static func decodeOptions(mode: GraphicsMode, columns: Int, rows: Int,
                                     base: DecodeOptions = .default) -> DecodeOptions {
        var options = base
        options.embeddedThumbnailSufficientBox = sufficientBox(mode: mode, columns: columns, rows: rows)
        return options
    }
}
