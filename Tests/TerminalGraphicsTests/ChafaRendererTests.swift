import GraphicsSettings
import Imaging
import TerminalGraphics
import TerminalProtocol
import XCTest

final class ChafaRendererTests: XCTestCase {
    /// Left half red, right half blue.
    func splitFrame(width: Int = 160, height: Int = 120) -> PixelFrame {
        var f = PixelFrame(width: width, height: height, fill: (255, 0, 0, 255))
        for y in 0..<height {
            for x in (width / 2)..<width {
                let i = (y * width + x) * 4
                f.rgba[i] = 0; f.rgba[i + 2] = 255
            }
        }
        return f
    }

    func testSymbolGridSizeKeepsTheAspectRatio() throws {
        let renderer = ChafaRenderer(mode: .symbols, colorDepth: .truecolor)
        // 4:3 picture, cells twice as tall as wide: 40 columns -> 15 rows.
        let image = try renderer.render(splitFrame(), maxColumns: 40, maxRows: 30)
        XCTAssertEqual(image.columns, 40)
        XCTAssertEqual(image.rows, 15)
        XCTAssertEqual(image.cells.count, 40 * 15)
        XCTAssertEqual(image.ansiLines().count, 15)
        // Height-limited box.
        let short = try renderer.render(splitFrame(), maxColumns: 200, maxRows: 10)
        XCTAssertEqual(short.rows, 10)
        XCTAssertEqual(short.columns, 27)
    }

    func testCellsCarryThePictureColours() throws {
        let image = try ChafaRenderer(mode: .symbols, colorDepth: .truecolor).render(splitFrame(), maxColumns: 20, maxRows: 20)
        let left = try XCTUnwrap(image.cell(column: 2, row: 3))
        let right = try XCTUnwrap(image.cell(column: 17, row: 3))
        func dominant(_ c: TerminalCell) -> CellColor { c.character == " " ? c.background : c.foreground }
        XCTAssertGreaterThan(Int(dominant(left).r), 200)
        XCTAssertGreaterThan(Int(dominant(right).b), 200)
    }

    func testIndexedColourDepths() throws {
        for depth in [ColorDepth.indexed256, .indexed16, .indexed8] {
            let image = try ChafaRenderer(mode: .symbols, colorDepth: depth).render(splitFrame(), maxColumns: 10, maxRows: 10)
            let line = try XCTUnwrap(image.ansiLines().first)
            XCTAssertFalse(line.contains("38;2;"), "\(depth) must not emit truecolour: \(line)")
            if depth == .indexed256 { XCTAssertTrue(line.contains("38;5;")) }
        }
    }

    func testPixelProtocolsProduceTheirEscapeSequences() throws {
        let cell = PixelSizeInCells(width: 8, height: 16)
        let expectations: [(GraphicsMode, String)] = [(.sixels, "\u{1B}P"), (.kitty, "\u{1B}_G"), (.iterm, "\u{1B}]1337;File=")]
        for (mode, prefix) in expectations {
            let image = try ChafaRenderer(mode: mode, colorDepth: .truecolor, cellPixelSize: cell)
                .render(splitFrame(), maxColumns: 20, maxRows: 20)
            XCTAssertTrue(image.cells.isEmpty)
            let text = String(decoding: image.bytes, as: UTF8.self)
            XCTAssertTrue(text.contains(prefix), "\(mode): \(text.prefix(40).debugDescription)")
            // 4:3 picture with 8x16 cells: 20 columns x 7.5 -> 8 rows.
            XCTAssertEqual(image.columns, 20)
            XCTAssertEqual(image.rows, 8)
        }
    }

    func testEmptyAreaIsAnError() {
        XCTAssertThrowsError(try ChafaRenderer(mode: .symbols, colorDepth: .truecolor).render(splitFrame(), maxColumns: 0, maxRows: 5))
    }
}

final class RenderedImageTmuxTests: XCTestCase {
    func testPassthroughDoublesEscapes() {
        let image = RenderedImage(columns: 1, rows: 1, mode: .kitty, colorDepth: .truecolor,
                                  bytes: Array("\u{1B}_Ga=T;AAAA\u{1B}\\".utf8))
        XCTAssertEqual(String(decoding: image.bytesWrappedForTmux, as: UTF8.self),
                       "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T;AAAA\u{1B}\u{1B}\\\u{1B}\\")
    }
}
