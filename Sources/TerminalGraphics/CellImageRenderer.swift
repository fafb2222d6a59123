import GraphicsSettings
import Imaging
import TerminalProtocol

/// Turns pixels into something a terminal shows, fitted into a box of cells (aspect ratio kept).
public protocol CellImageRenderer: AnyObject {
    var mode: GraphicsMode { get }
    var colorDepth: ColorDepth { get }
    func render(_ frame: PixelFrame, maxColumns: Int, maxRows: Int) throws(RenderError) -> RenderedImage
}

public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyArea
    case chafa(String)
    /// A compressed payload (kitty PNG, iTerm2 JPEG/PNG) could not be made.
    case encoding(String)
    public var description: String {
        switch self {
        case .emptyArea: return "cannot render into an empty area"
        case .chafa(let why): return "chafa: \(why)"
        case .encoding(let why): return "cannot compress the picture: \(why)"
        }
    }
}

/// Cell geometry: how many cells a picture takes when fitted into a box, given the cell's pixel shape.
public enum CellGeometry {
    /// Cells are about twice as tall as wide when the terminal does not say.
    public static let defaultCellPixelSize = PixelSizeInCells(width: 10, height: 20)

    /// The largest columns x rows with the picture's aspect ratio inside `maxColumns` x `maxRows`.
    public static func fit(pictureWidth: Int, pictureHeight: Int, maxColumns: Int, maxRows: Int,
                           cell: PixelSizeInCells?) -> (columns: Int, rows: Int)
    {
        guard pictureWidth > 0, pictureHeight > 0, maxColumns > 0, maxRows > 0 else {
            return (max(0, maxColumns), max(0, maxRows))
        }
        let cell = cell.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil } ?? defaultCellPixelSize
        // Picture aspect in cells: (w / cellW) : (h / cellH).
        let aspect = (Double(pictureWidth) / Double(cell.width)) / (Double(pictureHeight) / Double(cell.height))
        var columns = Double(maxColumns)
        var rows = columns / aspect
        if rows > Double(maxRows) {
            rows = Double(maxRows)
            columns = rows * aspect
        }
        return (max(1, min(maxColumns, Int(columns.rounded()))), max(1, min(maxRows, Int(rows.rounded()))))
    }

    /// Pixels worth decoding for symbol mode: chafa matches symbols on 8x8 samples per cell, so a picture
    /// fitted into `columns` x `rows` cells needs 8 px per column; 16 px per row leaves room for tall cells.
    public static func symbolPixelBox(columns: Int, rows: Int) -> PixelSize {
        PixelSize(width: max(1, columns * 8), height: max(1, rows * 16))
    }

    /// The part of a box of cells a sixel picture may cover when the terminal shows no sixel bigger than
    /// `limit` (XTSMGRAPHICS; xterm shows nothing at all of a bigger one): whole cells, at most the limit's
    /// width and, in pixels, its height rounded down to a whole sixel band of 6 rows (a picture's last band
    /// is 6 rows tall whatever its height). Fitting a picture into these cells keeps it within the limit.
    /// Nil limit: the box unchanged.
    public static func sixelCells(columns: Int, rows: Int, limit: PixelSizeInCells?,
                                  cell: PixelSizeInCells?) -> (columns: Int, rows: Int) {
        guard let limit, limit.width > 0, limit.height > 0 else { return (columns, rows) }
        let cell = cell.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil } ?? defaultCellPixelSize
        let bandedHeight = limit.height - limit.height % 6
        return (min(columns, max(1, limit.width / cell.width)), min(rows, max(1, bandedHeight / cell.height)))
    }

    /// Pixels a box of cells covers (what to decode for a pixel-exact picture).
    public static func pixelBox(columns: Int, rows: Int, cell: PixelSizeInCells?) -> PixelSize {
        let cell = cell.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil } ?? defaultCellPixelSize
        return PixelSize(width: max(1, columns * cell.width), height: max(1, rows * cell.height))
    }
}
