import GraphicsSettings
import Imaging
import TerminalProtocol

/// Movie frames as quadrant-block cells (▘▝▖▗▀▄▌▐▚▞▛▜▙▟ and space), each cell split in 2x2 samples and
/// given the two-colour split of its samples that leaves the least error, the method timg uses for video.
///
/// Why not chafa for movie frames (DECISIONS.md): chafa's symbol search costs 16-30 ms of CPU for one
/// 160x48 frame on the 2-core target, whatever the symbol map and work factor, more than decoding the frame;
/// this costs well under a millisecond, because libswscale has already averaged each sample (the frame is
/// decoded at 2x2 pixels per cell, `pixelBox`). Stills and thumbnails keep chafa, whose larger symbol set
/// shows more detail where a picture stays on screen.
public final class QuadrantRenderer: CellImageRenderer {
    public let mode = GraphicsMode.symbols
    public let colorDepth: ColorDepth
    /// The terminal's cell size when known (the cells' aspect ratio), as `ChafaRenderer` has it.
    public let cellPixelSize: PixelSizeInCells?

    public init(colorDepth: ColorDepth, cellPixelSize: PixelSizeInCells? = nil) {
        self.colorDepth = colorDepth
        self.cellPixelSize = cellPixelSize
    }

    /// Pixels worth decoding for `columns` x `rows` cells: two samples across and two down per cell, in
    /// square pixels for the cell's shape (a 1:2 cell: 2x4 pixels, each sample the average of 1x2).
    public static func pixelBox(columns: Int, rows: Int, cell: PixelSizeInCells?) -> PixelSize {
        let cell = cell.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil } ?? CellGeometry.defaultCellPixelSize
        let tall = max(1, Int((2 * Double(cell.height) / Double(cell.width)).rounded()))
        return PixelSize(width: max(1, columns * 2), height: max(1, rows * tall))
    }

    public func render(_ frame: PixelFrame, maxColumns: Int, maxRows: Int) throws(RenderError) -> RenderedImage {
        guard maxColumns > 0, maxRows > 0, frame.width > 0, frame.height > 0 else { throw RenderError.emptyArea }
        let (columns, rows) = CellGeometry.fit(pictureWidth: frame.width, pictureHeight: frame.height,
                                               maxColumns: maxColumns, maxRows: maxRows, cell: cellPixelSize)
        return try render(frame, columns: columns, rows: rows)
    }

    /// `frame` stretched over exactly `columns` x `rows` cells.
    public func render(_ frame: PixelFrame, columns: Int, rows: Int) throws(RenderError) -> RenderedImage {
        guard columns > 0, rows > 0, frame.width > 0, frame.height > 0,
              frame.rgba.count >= frame.width * frame.height * 4 else { throw RenderError.emptyArea }
        var cells: [TerminalCell] = []
        cells.reserveCapacity(columns * rows)
        // Sample edges in pixels: sample i of 2 * columns spans xs[i]..<xs[i + 1] (at least one pixel).
        let xs = Self.edges(count: columns * 2, over: frame.width)
        let ys = Self.edges(count: rows * 2, over: frame.height)
        frame.rgba.withUnsafeBufferPointer { px in
            var samples = [SIMD4<Int32>](repeating: .zero, count: 4)
            for row in 0..<rows {
                for column in 0..<columns {
                    for q in 0..<4 {
                        let sx = column * 2 + (q & 1), sy = row * 2 + (q >> 1)
                        samples[q] = Self.average(px, width: frame.width, x0: xs[sx], x1: xs[sx + 1], y0: ys[sy], y1: ys[sy + 1])
                    }
                    cells.append(Self.cell(for: samples))
                }
            }
        }
        return RenderedImage(columns: columns, rows: rows, mode: .symbols, colorDepth: colorDepth, cells: cells)
    }

    static func edges(count: Int, over length: Int) -> [Int] {
        (0...count).map { i in min(length, max(0, (i * length) / count)) }
    }

    private static func average(_ px: UnsafeBufferPointer<UInt8>, width: Int, x0: Int, x1: Int, y0: Int, y1: Int) -> SIMD4<Int32> {
        let x1 = max(x1, x0 + 1), y1 = max(y1, y0 + 1)
        var sum = SIMD4<Int32>.zero
        var n: Int32 = 0
        for y in y0..<y1 {
            var i = (y * width + x0) * 4
            for _ in x0..<x1 {
                guard i + 3 < px.count else { break }
                sum &+= SIMD4(Int32(px[i]), Int32(px[i + 1]), Int32(px[i + 2]), 0)
                n += 1
                i += 4
            }
        }
        return n > 0 ? sum / SIMD4(repeating: n) : .zero
    }

    /// Quadrant bits: 1 top-left, 2 top-right, 4 bottom-left, 8 bottom-right; set = foreground. The splits
    /// tried all put the top-left sample in the foreground (the others are the same splits, colours swapped).
    // Ties keep the first: one colour, then halves, then corners, then the diagonal.
    private static let splits: [UInt8] = [0b1111, 0b0011, 0b0101, 0b0111, 0b1011, 0b1101, 0b0001, 0b1001]
    private static let glyphs: [Unicode.Scalar] = [
        " ", "\u{2598}", "\u{259D}", "\u{2580}", "\u{2596}", "\u{258C}", "\u{259E}", "\u{259B}",
        "\u{2597}", "\u{259A}", "\u{2590}", "\u{259C}", "\u{2584}", "\u{2599}", "\u{259F}", "\u{2588}",
    ]

    static func cell(for samples: [SIMD4<Int32>]) -> TerminalCell {
        var best: (error: Int32, mask: UInt8, fg: SIMD4<Int32>, bg: SIMD4<Int32>) = (.max, 0b1111, .zero, .zero)
        for mask in splits {
            var fgSum = SIMD4<Int32>.zero, bgSum = SIMD4<Int32>.zero
            var fgCount: Int32 = 0, bgCount: Int32 = 0
            for q in 0..<4 {
                if mask & (1 << q) != 0 { fgSum &+= samples[q]; fgCount += 1 } else { bgSum &+= samples[q]; bgCount += 1 }
            }
            let fg = fgSum / SIMD4(repeating: max(1, fgCount)), bg = bgSum / SIMD4(repeating: max(1, bgCount))
            var error: Int32 = 0
            for q in 0..<4 {
                let d = samples[q] &- (mask & (1 << q) != 0 ? fg : bg)
                error &+= (d &* d).wrappedSum()
            }
            if error < best.error { best = (error, mask, fg, bg) }
        }
        func color(_ v: SIMD4<Int32>) -> CellColor {
            CellColor(r: UInt8(clamping: v[0]), g: UInt8(clamping: v[1]), b: UInt8(clamping: v[2]))
        }
        // One colour: a space in the background colour (the cheapest cell to send).
        if best.mask == 0b1111 { return TerminalCell(character: " ", foreground: color(best.fg), background: color(best.fg)) }
        return TerminalCell(character: glyphs[Int(best.mask)], foreground: color(best.fg), background: color(best.bg))
    }
}
