import CChafa
import Foundation
import GraphicsSettings
import Imaging
import TerminalProtocol

/// libchafa behind `CellImageRenderer`. Owns its symbol map and one canvas, kept while the picture size
/// stays the same, and unrefs them in deinit. Not thread-safe, and not locked here: its one owner serialises
/// its use (a `Locked<ChafaRenderer>`, a `ChafaRendererPool` slot, a queue or a single worker), so each
/// renderer has exactly one lock, the owner's. Symbol mode reads cells back with get_char_at/get_colors_at;
/// pixel modes print the protocol bytes with a term info made for that protocol. Never writes to an fd.
/// @unchecked Sendable: owners hand a renderer between threads (a pool slot taken by one worker, then given
/// back); the owner's one lock or queue orders every use, which the compiler cannot see through chafa's pointers.
public final class ChafaRenderer: CellImageRenderer, @unchecked Sendable {
    public let mode: GraphicsMode
    public let colorDepth: ColorDepth
    /// The terminal's cell size in pixels when known: pixel protocols then get exact geometry.
    public let cellPixelSize: PixelSizeInCells?
    /// Sixels: the largest picture the terminal shows (XTSMGRAPHICS); every picture is fitted into fewer
    /// cells when their pixels would exceed it. Nil: no limit known.
    public let maxSixelSize: PixelSizeInCells?
    /// chafa's speed/quality trade-off (0...1, chafa's default 0.5); nil leaves chafa's default. Playback
    /// lowers it: a movie frame is seen for 33 ms, a thumbnail for minutes.
    public let workFactor: Float?
    private let symbolMap: OpaquePointer
    private let termInfo: OpaquePointer?
    /// Symbol mode: chafa's own printer's sequences, only for `chafaPrintedBytes` (made on first use).
    private var symbolTermInfo: OpaquePointer?
    /// kitty and iTerm2: livegrid's compressed payload instead of chafa's uncompressed one.
    private let compressedPayload: CompressedPayload.Encoder?
    private var cachedCanvas: (columns: Int, rows: Int, canvas: OpaquePointer)?
    /// kitty: the next pictures' PNGs made for speed (movie frames: `PNGCodec.encodeForSpeed`).
    public var fastPayload = false

    public init(mode: GraphicsMode, colorDepth: ColorDepth, cellPixelSize: PixelSizeInCells? = nil,
                maxSixelSize: PixelSizeInCells? = nil, workFactor: Float? = nil) {
        self.maxSixelSize = mode == .sixels ? maxSixelSize : nil
        self.workFactor = workFactor.map { min(1, max(0, $0)) }
        self.mode = mode
        self.colorDepth = colorDepth
        self.cellPixelSize = cellPixelSize
        symbolMap = chafa_symbol_map_new()
        // Blocks, borders and spaces, no wide glyphs: what every font has, and what chafa picks by default.
        // In a locale that is not UTF-8, ASCII only (chafa's `--symbols ascii`): anything else is garbage there.
        let tags = TerminalTextEncoding.asciiOnly
            ? CHAFA_SYMBOL_TAG_ASCII.rawValue
            : CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue
        chafa_symbol_map_add_by_tags(symbolMap, ChafaSymbolTags(rawValue: tags))
        chafa_symbol_map_remove_by_tags(symbolMap, CHAFA_SYMBOL_TAG_WIDE)
        compressedPayload = CompressedPayload.for(mode)
        termInfo = mode.isPixelProtocol ? Self.makeTermInfo(for: mode) : nil
    }

    deinit {
        chafa_symbol_map_unref(symbolMap)
        if let termInfo { chafa_term_info_unref(termInfo) }
        if let symbolTermInfo { chafa_term_info_unref(symbolTermInfo) }
        if let cachedCanvas { chafa_canvas_unref(cachedCanvas.canvas) }
    }

    public func render(_ frame: PixelFrame, maxColumns: Int, maxRows: Int) throws(RenderError) -> RenderedImage {
        guard maxColumns > 0, maxRows > 0, frame.width > 0, frame.height > 0 else { throw RenderError.emptyArea }
        let allowed = CellGeometry.sixelCells(columns: maxColumns, rows: maxRows, limit: maxSixelSize, cell: cellPixelSize)
        let (columns, rows) = CellGeometry.fit(pictureWidth: frame.width, pictureHeight: frame.height,
                                               maxColumns: allowed.columns, maxRows: allowed.rows, cell: cellPixelSize)
        return try render(frame, columns: columns, rows: rows)
    }

    /// Renders `frame` stretched to exactly `columns` x `rows` cells (the caller chose them for its aspect).
    /// Movie frames come here with pixels already at the size chafa samples, so nothing is resampled twice.
    public func render(_ frame: PixelFrame, columns requestedColumns: Int, rows requestedRows: Int) throws(RenderError) -> RenderedImage {
        guard requestedColumns > 0, requestedRows > 0, frame.width > 0, frame.height > 0 else { throw RenderError.emptyArea }
        // A sixel bigger than the terminal's limit would show nothing: fewer cells (the caller centres by
        // the picture's own cells).
        let (columns, rows) = CellGeometry.sixelCells(columns: requestedColumns, rows: requestedRows,
                                                      limit: maxSixelSize, cell: cellPixelSize)
        // Pixel protocols: the cells' pixels at the picture's own aspect ratio, filling their width or their
        // height (`sizedForCells`; thumbnails and movie frames arrive at that size already).
        let box = CellGeometry.pixelBox(columns: columns, rows: rows, cell: cellPixelSize)
        let pixels = box.fitted(frame.size)
        if let compressedPayload {
            let sized = frame.size == pixels ? frame : frame.resized(to: pixels)
            return RenderedImage(columns: columns, rows: rows, mode: mode, colorDepth: colorDepth,
                                 bytes: try compressedPayload(sized, columns, rows, box, fastPayload),
                                 pixelSize: PixelSize(width: sized.width, height: sized.height))
        }
        let canvas = try canvas(columns: columns, rows: rows, sixelPixels: mode == .sixels ? pixels : nil)
        frame.rgba.withUnsafeBufferPointer { px in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, px.baseAddress,
                                         Int32(frame.width), Int32(frame.height), Int32(frame.rowBytes))
        }
        if mode == .symbols {
            return RenderedImage(columns: columns, rows: rows, mode: mode, colorDepth: colorDepth,
                                 cells: readCells(canvas, columns: columns, rows: rows))
        }
        guard let termInfo else { throw RenderError.chafa("no \(mode.rawValue) output") }
        let printed = try Self.print(canvas, termInfo: termInfo)
        return RenderedImage(columns: columns, rows: rows, mode: mode, colorDepth: colorDepth,
                             bytes: mode == .sixels && pixels.width * pixels.height <= SixelCompactor.pixelLimit
                                 ? SixelCompactor.compact(printed) : printed)
    }

    /// What chafa's own printer writes for the picture `render` made last at this size (symbol mode: the
    /// yardstick `CellScreenWriter` is measured against, same cells, same colour depth).
    public func chafaPrintedBytes(_ frame: PixelFrame, columns: Int, rows: Int) throws(RenderError) -> [UInt8] {
        _ = try render(frame, columns: columns, rows: rows)
        guard let canvas = cachedCanvas?.canvas else { throw RenderError.chafa("no canvas") }
        if termInfo == nil, symbolTermInfo == nil { symbolTermInfo = Self.makeTermInfo(for: .symbols) }
        guard let info = termInfo ?? symbolTermInfo else { throw RenderError.chafa("no term info") }
        return try Self.print(canvas, termInfo: info)
    }

    private static func print(_ canvas: OpaquePointer, termInfo: OpaquePointer) throws(RenderError) -> [UInt8] {
        guard let printed = chafa_canvas_print(canvas, termInfo) else { throw RenderError.chafa("no output") }
        defer { g_string_free(printed, 1) }
        let length = Int(printed.pointee.len)
        var bytes = [UInt8](repeating: 0, count: length)
        if length > 0, let str = printed.pointee.str {
            bytes.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: str, count: length)) }
        }
        return bytes
    }

    /// The canvas for this geometry: built once and reused while the size stays (a movie plays at one size;
    /// building the config and canvas, with its symbol tables, for every frame cost more than drawing small
    /// ones).
    ///
    /// `sixelPixels`: a sixel picture's size in pixels. chafa makes a sixel image of geometry x cell size, so
    /// the canvas is one "cell" of exactly those pixels: a picture at its own aspect ratio, not stretched over
    /// whole rows of cells.
    private func canvas(columns: Int, rows: Int, sixelPixels: PixelSize? = nil) throws(RenderError) -> OpaquePointer {
        let key = sixelPixels.map { (columns: -$0.width, rows: -$0.height) } ?? (columns: columns, rows: rows)
        if let cached = cachedCanvas, cached.columns == key.columns, cached.rows == key.rows { return cached.canvas }
        if let old = cachedCanvas { chafa_canvas_unref(old.canvas) }
        cachedCanvas = nil
        guard let config = chafa_canvas_config_new() else { throw RenderError.chafa("cannot allocate a canvas config") }
        defer { chafa_canvas_config_unref(config) }
        // The same cell shape the picture was decoded for (CellGeometry.pixelBox), known or assumed, so pixel
        // protocols get every decoded pixel and symbol mode the right aspect ratio.
        let cell = cellPixelSize.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil } ?? CellGeometry.defaultCellPixelSize
        if let sixelPixels {
            chafa_canvas_config_set_geometry(config, 1, 1)
            chafa_canvas_config_set_cell_geometry(config, Int32(sixelPixels.width), Int32(sixelPixels.height))
        } else {
            chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
            chafa_canvas_config_set_cell_geometry(config, Int32(cell.width), Int32(cell.height))
        }
        chafa_canvas_config_set_canvas_mode(config, canvasMode)
        chafa_canvas_config_set_pixel_mode(config, pixelMode)
        chafa_canvas_config_set_symbol_map(config, symbolMap)
        if let workFactor { chafa_canvas_config_set_work_factor(config, workFactor) }
        // No dithering at any depth, as chafa's own tool (`chafa -c 16`, `-c 8`): ordered dithering of 16 or 8
        // colours drew a regular grid of dashes over every flat area (compared side by side in xterm).
        guard let canvas = chafa_canvas_new(config) else { throw RenderError.chafa("cannot allocate a canvas") }
        cachedCanvas = (key.columns, key.rows, canvas)
        return canvas
    }

    private func readCells(_ canvas: OpaquePointer, columns: Int, rows: Int) -> [TerminalCell] {
        var cells: [TerminalCell] = []
        cells.reserveCapacity(columns * rows)
        let indexed = colorDepth != .truecolor
        for y in 0..<rows {
            for x in 0..<columns {
                let c = chafa_canvas_get_char_at(canvas, Int32(x), Int32(y))
                var fg: Int32 = 0, bg: Int32 = 0
                chafa_canvas_get_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                var fgIndex: Int?, bgIndex: Int?
                if indexed {
                    var rawFg: Int32 = 0, rawBg: Int32 = 0
                    chafa_canvas_get_raw_colors_at(canvas, Int32(x), Int32(y), &rawFg, &rawBg)
                    fgIndex = rawFg >= 0 && rawFg < 256 ? Int(rawFg) : nil
                    bgIndex = rawBg >= 0 && rawBg < 256 ? Int(rawBg) : nil
                }
                cells.append(TerminalCell(character: Unicode.Scalar(c) ?? " ",
                                          foreground: fg < 0 ? .black : CellColor(packed: fg),
                                          background: bg < 0 ? .black : CellColor(packed: bg),
                                          foregroundIndex: fgIndex, backgroundIndex: bgIndex))
            }
        }
        return cells
    }

    private var canvasMode: ChafaCanvasMode {
        switch colorDepth {
        case .truecolor: return CHAFA_CANVAS_MODE_TRUECOLOR
        // 240: the 16 user-configurable colours of a 256 palette are unknown, chafa skips them.
        case .indexed256: return CHAFA_CANVAS_MODE_INDEXED_240
        case .indexed16: return CHAFA_CANVAS_MODE_INDEXED_16
        case .indexed8: return CHAFA_CANVAS_MODE_INDEXED_8
        }
    }

    private var pixelMode: ChafaPixelMode {
        switch mode {
        case .symbols: return CHAFA_PIXEL_MODE_SYMBOLS
        case .sixels: return CHAFA_PIXEL_MODE_SIXELS
        case .kitty: return CHAFA_PIXEL_MODE_KITTY
        case .iterm: return CHAFA_PIXEL_MODE_ITERM2
        }
    }

    /// chafa 1.12 keeps protocol sequences in a ChafaTermInfo; ask its database for a terminal known to speak
    /// the chosen protocol (the mode was already decided by `TerminalCapabilities`).
    static func makeTermInfo(for mode: GraphicsMode) -> OpaquePointer? {
        let environment: [String]
        switch mode {
        case .symbols: environment = ["TERM=xterm-256color", "COLORTERM=truecolor"]
        case .sixels: environment = ["TERM=foot"]
        case .kitty: environment = ["TERM=xterm-kitty"]
        case .iterm: environment = ["TERM=xterm-256color", "TERM_PROGRAM=iTerm.app"]
        }
        var strings: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) }
        strings.append(nil)
        defer { for s in strings { free(s) } }
        guard let db = chafa_term_db_get_default() else { return nil }
        return strings.withUnsafeMutableBufferPointer { chafa_term_db_detect(db, $0.baseAddress) }
    }
}
