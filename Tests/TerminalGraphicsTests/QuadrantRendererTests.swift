import Imaging
import TerminalGraphics
import XCTest

final class QuadrantRendererTests: XCTestCase {
    /// A 2x2-pixel-per-cell frame from per-sample colours (row-major, 2 * columns wide).
    func frame(columns: Int, rows: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> PixelFrame {
        var f = PixelFrame(width: columns * 2, height: rows * 2)
        for y in 0..<(rows * 2) {
            for x in 0..<(columns * 2) {
                let (r, g, b) = color(x, y)
                let i = (y * f.width + x) * 4
                f.rgba[i] = r; f.rgba[i + 1] = g; f.rgba[i + 2] = b
            }
        }
        return f
    }

    func testEachCellTakesTheSplitOfItsFourSamples() throws {
        let renderer = QuadrantRenderer(colorDepth: .truecolor)
        // Cell 0: top red, bottom blue (▀). Cell 1: left green, right white (▌). Cell 2: all grey (space).
        // Cell 3: only the bottom-right sample differs (▗ is the same split, drawn as its inverse ▛).
        let image = try renderer.render(frame(columns: 4, rows: 1) { x, y in
            switch x / 2 {
            case 0: return y == 0 ? (255, 0, 0) : (0, 0, 255)
            case 1: return x % 2 == 0 ? (0, 255, 0) : (255, 255, 255)
            case 2: return (128, 128, 128)
            default: return x % 2 == 1 && y == 1 ? (0, 0, 0) : (200, 200, 0)
            }
        }, columns: 4, rows: 1)
        XCTAssertEqual(image.cells.map(\.character), ["▀", "▌", " ", "▛"])
        XCTAssertEqual(image.cells[0].foreground, CellColor(r: 255, g: 0, b: 0))
        XCTAssertEqual(image.cells[0].background, CellColor(r: 0, g: 0, b: 255))
        XCTAssertEqual(image.cells[2].background, CellColor(r: 128, g: 128, b: 128))
        XCTAssertEqual(image.cells[3].foreground, CellColor(r: 200, g: 200, b: 0))
        XCTAssertEqual(image.cells[3].background, CellColor(r: 0, g: 0, b: 0))
    }

    func testTheGridKeepsThePicturesAspectAndThePixelBoxMatchesIt() throws {
        let box = QuadrantRenderer.pixelBox(columns: 40, rows: 15, cell: nil)
        XCTAssertEqual(box, PixelSize(width: 80, height: 60))
        let image = try QuadrantRenderer(colorDepth: .truecolor).render(PixelFrame(width: 80, height: 60), maxColumns: 40, maxRows: 30)
        XCTAssertEqual(image.columns, 40)
        XCTAssertEqual(image.rows, 15)
        XCTAssertThrowsError(try QuadrantRenderer(colorDepth: .truecolor).render(PixelFrame(width: 0, height: 0), maxColumns: 4, maxRows: 4))
    }
}
