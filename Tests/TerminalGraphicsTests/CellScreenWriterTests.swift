import GraphicsSettings
import Imaging
import TerminalGraphics
import XCTest

final class CellScreenWriterTests: XCTestCase {
    let red = CellColor(r: 255, g: 0, b: 0)
    let blue = CellColor(r: 0, g: 0, b: 255)
    let green = CellColor(r: 0, g: 128, b: 0)

    func image(_ cells: [TerminalCell], columns: Int, depth: ColorDepth = .truecolor) -> RenderedImage {
        RenderedImage(columns: columns, rows: cells.count / columns, mode: .symbols, colorDepth: depth, cells: cells)
    }

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testOneCombinedSGRAndNoRepeatForTheSameColours() {
        var writer = CellScreenWriter(colorDepth: .truecolor, screenColumns: 10, screenRows: 3)
        let cell = TerminalCell(character: "▀", foreground: red, background: blue)
        let out = writer.paint([CellPlacement(image: image([cell, cell, cell], columns: 3), x: 2, y: 1)])
        XCTAssertEqual(text(out), "\u{1B}[2;3H\u{1B}[0;38;2;255;0;0;48;2;0;0;255m▀▀▀")
    }

    func testOnlyTheColourThatChangesIsSent() {
        var writer = CellScreenWriter(colorDepth: .truecolor, screenColumns: 4, screenRows: 1)
        let cells = [TerminalCell(character: "▀", foreground: red, background: blue),
                     TerminalCell(character: "▀", foreground: green, background: blue),
                     TerminalCell(character: "▀", foreground: green, background: red)]
        let out = text(writer.paint([CellPlacement(image: image(cells, columns: 3), x: 0, y: 0)]))
        XCTAssertEqual(out, "\u{1B}[1;1H\u{1B}[0;38;2;255;0;0;48;2;0;0;255m▀\u{1B}[38;2;0;128;0m▀\u{1B}[48;2;255;0;0m▀")
    }

    func testASpaceSendsNoForegroundAndAFullBlockNoBackground() {
        var writer = CellScreenWriter(colorDepth: .truecolor, screenColumns: 4, screenRows: 1)
        let cells = [TerminalCell(character: " ", foreground: red, background: blue),
                     TerminalCell(character: "█", foreground: green, background: red),
                     TerminalCell(character: " ", foreground: green, background: blue)]
        let out = text(writer.paint([CellPlacement(image: image(cells, columns: 3), x: 0, y: 0)]))
        XCTAssertEqual(out, "\u{1B}[1;1H\u{1B}[0;48;2;0;0;255m \u{1B}[38;2;0;128;0m█ ")
    }

    func testAnUnchangedPictureCostsNothingAndOneChangedCellOnlyItself() {
        var writer = CellScreenWriter(colorDepth: .truecolor, screenColumns: 8, screenRows: 2)
        var cells = Array(repeating: TerminalCell(character: "▄", foreground: red, background: blue), count: 8)
        XCTAssertFalse(writer.paint([CellPlacement(image: image(cells, columns: 4), x: 0, y: 0)]).isEmpty)
        XCTAssertEqual(writer.paint([CellPlacement(image: image(cells, columns: 4), x: 0, y: 0)]), [])
        cells[6].character = "▌"
        let out = text(writer.paint([CellPlacement(image: image(cells, columns: 4), x: 0, y: 0)]))
        XCTAssertEqual(out, "\u{1B}[2;3H\u{1B}[0;38;2;255;0;0;48;2;0;0;255m▌")
        // Two changed cells on a row with an unchanged one between: a one-cell skip is `ESC[C`.
        cells[4].character = "▌"
        cells[6].character = "▐"
        let skip = text(writer.paint([CellPlacement(image: image(cells, columns: 4), x: 0, y: 0)]))
        XCTAssertEqual(skip, "\u{1B}[2;1H\u{1B}[0;38;2;255;0;0;48;2;0;0;255m▌\u{1B}[C▐")
    }

    /// Issue 28 (bytes per picture): in truecolour a colour within 3 levels per channel of the pen's keeps the
    /// pen; each cell is compared with its own colour, so small steps never add up to a visible drift, and a
    /// repaint of the same picture still costs nothing.
    func testTruecolourKeepsThePenForAColourThatLooksTheSame() {
        var writer = CellScreenWriter(colorDepth: .truecolor, screenColumns: 8, screenRows: 1)
        let shades: [UInt8] = [100, 102, 103, 104, 106, 108]
        let cells = shades.map { TerminalCell(character: "▀", foreground: CellColor(r: $0, g: 50, b: 50), background: blue) }
        let first = writer.paint([CellPlacement(image: image(cells, columns: 6), x: 0, y: 0)])
        // 100 serves 102 and 103; 104 is 4 away from 100: a new SGR, which then serves 106; 108 is 4 from 104.
        XCTAssertEqual(text(first), "\u{1B}[1;1H\u{1B}[0;38;2;100;50;50;48;2;0;0;255m▀▀▀\u{1B}[38;2;104;50;50m▀▀\u{1B}[38;2;108;50;50m▀")
        XCTAssertEqual(writer.paint([CellPlacement(image: image(cells, columns: 6), x: 0, y: 0)]), [], "the same picture again")
        // A cell drawn with the pen's 100 for its 103 is drawn again when it wants 106 (6 from what it shows).
        var moved = cells
        moved[2].foreground = CellColor(r: 106, g: 50, b: 50)
        XCTAssertEqual(text(writer.paint([CellPlacement(image: image(moved, columns: 6), x: 0, y: 0)])),
                       "\u{1B}[1;3H\u{1B}[0;38;2;106;50;50;48;2;0;0;255m▀")
        // Indexed codes are never approximated: 196 and 197 are different colours.
        var indexed = CellScreenWriter(colorDepth: .indexed256, screenColumns: 2, screenRows: 1)
        let two = [196, 197].map { TerminalCell(character: "▀", foreground: red, background: blue, foregroundIndex: $0, backgroundIndex: 21) }
        XCTAssertEqual(text(indexed.paint([CellPlacement(image: image(two, columns: 2, depth: .indexed256), x: 0, y: 0)])),
                       "\u{1B}[1;1H\u{1B}[0;38;5;196;48;5;21m▀\u{1B}[38;5;197m▀")
    }

    func testIndexedDepthsUseTheirOwnCodes() {
        var writer256 = CellScreenWriter(colorDepth: .indexed256, screenColumns: 2, screenRows: 1)
        let indexed = TerminalCell(character: "▀", foreground: red, background: blue, foregroundIndex: 196, backgroundIndex: 21)
        XCTAssertEqual(text(writer256.paint([CellPlacement(image: image([indexed], columns: 1, depth: .indexed256), x: 1, y: 0)])),
                       "\u{1B}[1;2H\u{1B}[0;38;5;196;48;5;21m▀")
        var writer16 = CellScreenWriter(colorDepth: .indexed16, screenColumns: 2, screenRows: 1)
        let sixteen = [TerminalCell(character: "▀", foreground: red, background: blue, foregroundIndex: 9, backgroundIndex: 4),
                       TerminalCell(character: "▀", foreground: red, background: blue, foregroundIndex: 1, backgroundIndex: 12)]
        XCTAssertEqual(text(writer16.paint([CellPlacement(image: image(sixteen, columns: 2, depth: .indexed16), x: 0, y: 0)])),
                       "\u{1B}[1;1H\u{1B}[0;91;44m▀\u{1B}[31;104m▀")
    }

    func testBoldOffResetsAndKeepsTheColours() {
        var writer = CellScreenWriter(colorDepth: .indexed16, screenColumns: 2, screenRows: 1)
        let cells = [TerminalCell(character: "L", foreground: red, background: blue, foregroundIndex: 1, backgroundIndex: 4, bold: true),
                     TerminalCell(character: "▀", foreground: red, background: blue, foregroundIndex: 1, backgroundIndex: 4)]
        XCTAssertEqual(text(writer.paint([CellPlacement(image: image(cells, columns: 2, depth: .indexed16), x: 0, y: 0)])),
                       "\u{1B}[1;1H\u{1B}[0;1;31;44mL\u{1B}[0;31;44m▀")
    }

    func testForgottenOrUncoveredCellsAreWrittenAgain() {
        var writer = CellScreenWriter(colorDepth: .truecolor, screenColumns: 3, screenRows: 2)
        let picture = CellPlacement(image: image(Array(repeating: TerminalCell(character: "▀", foreground: red, background: blue), count: 6), columns: 3), x: 0, y: 0)
        let first = writer.paint([picture])
        XCTAssertEqual(writer.knownCellCount, 6)
        writer.forget(row: 1)
        XCTAssertEqual(text(writer.paint([picture])), "\u{1B}[2;1H\u{1B}[0;38;2;255;0;0;48;2;0;0;255m▀▀▀")
        // A frame without the picture (curses drew text there): next time it comes back in full.
        XCTAssertEqual(writer.paint([]), [])
        XCTAssertEqual(writer.knownCellCount, 0)
        XCTAssertEqual(writer.paint([picture]), first)
        writer.forgetAll()
        XCTAssertEqual(writer.paint([picture]), first)
    }

    /// badge34: the cells uncovered by text that went are written before curses' update, the rest after; each
    /// cell once, and what the writer knows of the others kept.
    func testAPartPaintedFirstIsNotWrittenAgainAndTheRestIsKept() {
        var writer = CellScreenWriter(colorDepth: .truecolor, screenColumns: 3, screenRows: 2)
        let red6 = CellPlacement(image: image(Array(repeating: TerminalCell(character: "▀", foreground: red, background: blue), count: 6), columns: 3), x: 0, y: 0)
        _ = writer.paint([red6])
        // Text covered row 1 for a frame; then the text went and the top row changed colour.
        _ = writer.paint([red6], isOwned: { _, y in y == 0 })
        XCTAssertEqual(writer.knownCellCount, 3)
        let green6 = CellPlacement(image: image(Array(repeating: TerminalCell(character: "▀", foreground: green, background: blue), count: 3)
                                                + Array(repeating: TerminalCell(character: "▀", foreground: red, background: blue), count: 3),
                                                columns: 3), x: 0, y: 0)
        let uncovered = writer.paint([green6], onlyWhere: { _, y in y == 1 })
        XCTAssertEqual(text(uncovered), "\u{1B}[2;1H\u{1B}[0;38;2;255;0;0;48;2;0;0;255m▀▀▀", "the uncovered row only")
        XCTAssertEqual(writer.knownCellCount, 6, "the top row's cells are still known")
        XCTAssertEqual(text(writer.paint([green6])), "\u{1B}[1;1H\u{1B}[0;38;2;0;128;0;48;2;0;0;255m▀▀▀",
                       "then the changed top row, not the uncovered row again")
    }

    func testClippedToTheScreenAndToItsBox() {
        var writer = CellScreenWriter(colorDepth: .truecolor, screenColumns: 2, screenRows: 1)
        let cells = Array(repeating: TerminalCell(character: "▀", foreground: red, background: blue), count: 6)
        let out = text(writer.paint([CellPlacement(image: image(cells, columns: 3), x: 1, y: 0)]))
        XCTAssertEqual(out, "\u{1B}[1;2H\u{1B}[0;38;2;255;0;0;48;2;0;0;255m▀")
        var boxed = CellScreenWriter(colorDepth: .truecolor, screenColumns: 5, screenRows: 2)
        XCTAssertEqual(text(boxed.paint([CellPlacement(image: image(cells, columns: 3), x: 0, y: 0, width: 1, height: 1)])),
                       "\u{1B}[1;1H\u{1B}[0;38;2;255;0;0;48;2;0;0;255m▀")
    }
}

/// Bytes against chafa's own printer on the same canvas (issue 18.2): a full paint, a one-row shift of the
/// picture (what a scroll writes when the cells are rewritten in place) and a changed movie frame.
final class CellScreenWriterAgainstChafaTests: XCTestCase {
    /// A detailed picture: rings, a gradient and deterministic noise, `shift` pixels down.
    static func detailed(width: Int, height: Int, shift: Int = 0) -> PixelFrame {
        var frame = PixelFrame(width: width, height: height, fill: (0, 0, 0, 255))
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let noise = Int((seed >> 16) & 0x1F)
                let sy = y + shift
                let dx = x - width / 2, dy = sy - height / 2
                let ring = ((dx * dx + dy * dy) / 300) % 2 == 0 ? 200 : 40
                let i = (y * width + x) * 4
                frame.rgba[i] = UInt8(min(255, ring + noise))
                frame.rgba[i + 1] = UInt8(min(255, (x * 255) / width / 2 + noise))
                frame.rgba[i + 2] = UInt8(min(255, (sy * 255) / height % 256))
            }
        }
        return frame
    }

    func testAFullPaintIsNoLargerThanChafasAtEveryDepth() throws {
        for depth in [ColorDepth.truecolor, .indexed256, .indexed16] {
            let renderer = ChafaRenderer(mode: .symbols, colorDepth: depth)
            let frame = Self.detailed(width: 640, height: 384)
            let image = try renderer.render(frame, columns: 80, rows: 24)
            let chafa = try renderer.chafaPrintedBytes(frame, columns: 80, rows: 24)
            var writer = CellScreenWriter(colorDepth: depth, screenColumns: 80, screenRows: 24)
            let ours = writer.paint([CellPlacement(image: image, x: 0, y: 0)])
            print("bytes full paint 80x24 \(depth.rawValue): livegrid \(ours.count), chafa \(chafa.count)")
            XCTAssertLessThanOrEqual(ours.count, chafa.count, "\(depth): \(ours.count) bytes against chafa's \(chafa.count)")
            XCTAssertGreaterThan(ours.count, 80 * 24, "\(depth): every cell written")
        }
    }

    func testAChangedFrameCostsLessThanChafasReprint() throws {
        let renderer = ChafaRenderer(mode: .symbols, colorDepth: .truecolor)
        var writer = CellScreenWriter(colorDepth: .truecolor, screenColumns: 80, screenRows: 24)
        let first = Self.detailed(width: 640, height: 384)
        _ = writer.paint([CellPlacement(image: try renderer.render(first, columns: 80, rows: 24), x: 0, y: 0)])
        // The lower half of the picture changes, the upper half stays.
        var second = first
        let moved = Self.detailed(width: 640, height: 384, shift: 16)
        second.rgba.replaceSubrange((192 * 640 * 4)..., with: moved.rgba[(192 * 640 * 4)...])
        let image = try renderer.render(second, columns: 80, rows: 24)
        let chafa = try renderer.chafaPrintedBytes(second, columns: 80, rows: 24)
        let ours = writer.paint([CellPlacement(image: image, x: 0, y: 0)])
        print("bytes changed frame 80x24 (lower half changed): livegrid \(ours.count), chafa (reprint) \(chafa.count)")
        XCTAssertLessThan(ours.count, chafa.count * 3 / 4, "\(ours.count) bytes against chafa's \(chafa.count)")
    }

    /// A grid scrolled by 6 rows: livegrid scrolls the region and writes the 6 new rows; chafa's share is the
    /// same 6 rows of its print of the same canvas (the terminal scrolling as chafa's output goes on).
    func testAScrollIsNoLargerThanChafasNewRows() throws {
        for depth in [ColorDepth.truecolor, .indexed256] {
            let renderer = ChafaRenderer(mode: .symbols, colorDepth: depth)
            let frame = Self.detailed(width: 640, height: 480)
            let tall = try renderer.render(frame, columns: 80, rows: 30)
            let printed = try renderer.chafaPrintedBytes(frame, columns: 80, rows: 30)
            let lines = printed.split(separator: 0x0A, omittingEmptySubsequences: false)
            let chafaNewRows = lines[24..<30].reduce(0) { $0 + $1.count + 1 }
            func rows(_ range: Range<Int>) -> RenderedImage {
                RenderedImage(columns: 80, rows: range.count, mode: .symbols, colorDepth: depth,
                              cells: Array(tall.cells[(range.lowerBound * 80)..<(range.upperBound * 80)]))
            }
            var writer = CellScreenWriter(colorDepth: depth, screenColumns: 80, screenRows: 24)
            _ = writer.paint([CellPlacement(image: rows(0..<24), x: 0, y: 0)])
            let next = [CellPlacement(image: rows(6..<30), x: 0, y: 0)]
            let scroll = try XCTUnwrap(writer.bestScroll(for: next))
            XCTAssertEqual(scroll.shift, 6)
            let ours = writer.scroll(band: scroll.band, shift: scroll.shift).count + writer.paint(next).count
            print("bytes 6-row scroll 80x24 \(depth.rawValue): livegrid \(ours), chafa (new rows) \(chafaNewRows)")
            XCTAssertLessThanOrEqual(ours, chafaNewRows, "\(depth)")
        }
    }
}

final class CellScreenWriterScrollTests: XCTestCase {
    /// A picture whose rows are each one colour (row i: grey level i * 20), `rows` tall.
    func stripes(columns: Int, rows: Int, from first: Int = 0) -> RenderedImage {
        var cells: [TerminalCell] = []
        for row in 0..<rows {
            let level = UInt8((first + row) * 20 % 256)
            cells += Array(repeating: TerminalCell(character: "▀", foreground: CellColor(r: level, g: 0, b: 0),
                                                   background: CellColor(r: 0, g: level, b: 0)), count: columns)
        }
        return RenderedImage(columns: columns, rows: rows, mode: .symbols, colorDepth: .truecolor, cells: cells)
    }

    func testAGridMovedUpIsScrolledAndOnlyTheNewRowsWritten() {
        var writer = CellScreenWriter(colorDepth: .truecolor, screenColumns: 20, screenRows: 12)
        _ = writer.paint([CellPlacement(image: stripes(columns: 20, rows: 10), x: 0, y: 1)])
        // The content moved up by 3 rows; 3 new rows at the bottom.
        let moved = [CellPlacement(image: stripes(columns: 20, rows: 10, from: 3), x: 0, y: 1)]
        let scroll = writer.bestScroll(for: moved)
        XCTAssertEqual(scroll?.band, 1...10)
        XCTAssertEqual(scroll?.shift, 3)
        let scrolled = String(decoding: writer.scroll(band: 1...10, shift: 3), as: UTF8.self)
        XCTAssertEqual(scrolled, "\u{1B}[0m\u{1B}[2;11r\u{1B}[3S\u{1B}[r")
        let rest = writer.paint(moved)
        let full = CellScreenWriter(colorDepth: .truecolor, screenColumns: 20, screenRows: 12)
        var fresh = full
        XCTAssertLessThan(rest.count, fresh.paint(moved).count / 2, "only the 3 rows scrolled in are written")
        XCTAssertTrue(String(decoding: rest, as: UTF8.self).hasPrefix("\u{1B}[9;1H"), "first written row is the first new one")
    }

    func testNothingMovedNoScroll() {
        var writer = CellScreenWriter(colorDepth: .truecolor, screenColumns: 20, screenRows: 12)
        let same = [CellPlacement(image: stripes(columns: 20, rows: 10), x: 0, y: 1)]
        _ = writer.paint(same)
        XCTAssertNil(writer.bestScroll(for: same))
    }
}
