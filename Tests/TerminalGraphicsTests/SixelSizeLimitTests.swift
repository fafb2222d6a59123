import Imaging
import TerminalGraphics
import TerminalProtocol
import XCTest

/// xterm shows nothing at all of a sixel bigger than its maxGraphicSize (1000x1000 by default, 800x480 for
/// some terminal ids), which it reports with XTSMGRAPHICS: every sixel picture is fitted within it.
final class SixelSizeLimitTests: XCTestCase {
    let xtermCell = PixelSizeInCells(width: 9, height: 18)

    /// The raster size of a sixel picture (`"1;1;W;H` after its `q`).
    static func rasterSize(_ bytes: [UInt8]) -> PixelSizeInCells? {
        let text = String(decoding: bytes.prefix(200), as: UTF8.self)
        guard let quote = text.firstIndex(of: "\"") else { return nil }
        let fields = text[text.index(after: quote)...].prefix { "0123456789;".contains($0) }.split(separator: ";")
        guard fields.count >= 4, let width = Int(fields[2]), let height = Int(fields[3]) else { return nil }
        return PixelSizeInCells(width: width, height: height)
    }

    func testTheCellsShrinkToTheLimitInWholeCellsAndSixelBands() {
        // The viewer in xterm 150x45 of 9x18 px: 150x42 cells, 1350x756 px; the vt340 limit 800x480.
        let cells = CellGeometry.sixelCells(columns: 150, rows: 42, limit: PixelSizeInCells(width: 800, height: 480),
                                            cell: xtermCell)
        XCTAssertEqual(cells.columns, 88, "88 x 9 = 792 px ≤ 800")
        XCTAssertEqual(cells.rows, 26, "26 x 18 = 468 px ≤ 480")
        // A height that is no whole sixel band: 1000 → 996 (its last band would reach 1002), 55 rows of 18.
        XCTAssertEqual(CellGeometry.sixelCells(columns: 150, rows: 60, limit: PixelSizeInCells(width: 1000, height: 1000),
                                               cell: PixelSizeInCells(width: 10, height: 20)).rows, 49)
        XCTAssertEqual(CellGeometry.sixelCells(columns: 20, rows: 8, limit: PixelSizeInCells(width: 800, height: 480),
                                               cell: xtermCell).columns, 20, "a box within the limit is kept")
        XCTAssertEqual(CellGeometry.sixelCells(columns: 150, rows: 42, limit: nil, cell: xtermCell).columns, 150)
    }

    func testAViewerSizedSixelStaysWithinTheTerminalsLimit() throws {
        let frame = PixelFrame(width: 1350, height: 756, fill: (200, 120, 40, 255))
        let limit = PixelSizeInCells(width: 800, height: 480)
        let capped = try ChafaRenderer(mode: .sixels, colorDepth: .truecolor, cellPixelSize: xtermCell, maxSixelSize: limit)
            .render(frame, maxColumns: 150, maxRows: 42)
        let raster = try XCTUnwrap(Self.rasterSize(capped.bytes), String(decoding: capped.bytes.prefix(40), as: UTF8.self))
        XCTAssertLessThanOrEqual(raster.width, limit.width)
        XCTAssertLessThanOrEqual(raster.height, limit.height)
        XCTAssertGreaterThanOrEqual(raster.width, 780, "as big as the limit allows, at the picture's aspect: \(raster)")
        XCTAssertLessThanOrEqual(capped.columns * xtermCell.width, limit.width)
        XCTAssertLessThanOrEqual(capped.rows * xtermCell.height, limit.height)
        // The cells the picture claims are the cells it covers (the viewer centres it by them).
        XCTAssertEqual(capped.columns, Int((Double(raster.width) / Double(xtermCell.width)).rounded(.up)))
        // Without a limit the same picture is the whole 1350 px wide area (what xterm refused to show).
        let free = try ChafaRenderer(mode: .sixels, colorDepth: .truecolor, cellPixelSize: xtermCell)
            .render(frame, maxColumns: 150, maxRows: 42)
        XCTAssertEqual(Self.rasterSize(free.bytes)?.width, 1350)
        // Movie frames come with cells chosen by the caller: capped the same way.
        let movie = try ChafaRenderer(mode: .sixels, colorDepth: .truecolor, cellPixelSize: xtermCell, maxSixelSize: limit)
            .render(frame, columns: 150, rows: 42)
        let movieRaster = try XCTUnwrap(Self.rasterSize(movie.bytes))
        XCTAssertLessThanOrEqual(movieRaster.width, limit.width)
        XCTAssertLessThanOrEqual(movieRaster.height, limit.height)
    }

    func testOtherProtocolsIgnoreTheSixelLimit() throws {
        let frame = PixelFrame(width: 1350, height: 756, fill: (200, 120, 40, 255))
        let kitty = try ChafaRenderer(mode: .kitty, colorDepth: .truecolor, cellPixelSize: xtermCell,
                                      maxSixelSize: PixelSizeInCells(width: 800, height: 480))
            .render(frame, maxColumns: 150, maxRows: 42)
        XCTAssertEqual(kitty.columns, 150)
    }

    func testTheCapabilitiesCarryTheLimitTheTerminalReported() {
        let replies = TerminalReplies.parse(Array("\u{1B}[6;18;9t\u{1B}[?2;0;800;480S\u{1B}[?63;4c".utf8))
        let capabilities = TerminalCapabilities.detect(environment: ["TERM": "xterm"], replies: replies)
        XCTAssertEqual(capabilities.graphicsMode, .sixels)
        XCTAssertEqual(capabilities.maxSixelSize, PixelSizeInCells(width: 800, height: 480))
        XCTAssertTrue(capabilities.why.contains("sixel limit: 800x480 px"), capabilities.why)
    }
}
