import GraphicsSettings
import Imaging
import TerminalGraphics
import XCTest

final class LiveBadgeTests: XCTestCase {
    let playTriangles: Set<Unicode.Scalar> = ["\u{25B6}", "\u{25B7}", "\u{25BA}", "\u{23F5}", "\u{25B8}", "\u{25B9}"]

    func render(columns: Int = 30) throws -> RenderedImage {
        try ChafaRenderer(mode: .symbols, colorDepth: .truecolor)
            .render(PixelFrame(width: 300, height: 200, fill: (250, 250, 250, 255)), maxColumns: columns, maxRows: 20)
    }

    func testTextFormsAreDistinctAndNeverAPlayTriangle() {
        let texts = LiveBadge.Variant.allCases.map { String(String.UnicodeScalarView(LiveBadge($0).text(fitting: 40))) }
        XCTAssertEqual(texts, [" ◎ LIVE ", " ⊘ LIVE OFF ", " ▣ VIDEO "])
        for variant in LiveBadge.Variant.allCases {
            XCTAssertTrue(LiveBadge(variant).text(fitting: 40).allSatisfy { !playTriangles.contains($0) })
        }
        XCTAssertEqual(LiveBadge(.live).text(fitting: 4), [" ", "◎", " "])
    }

    func testBadgeGoesInItsCornerForEveryItem() throws {
        for corner in BadgeCorner.allCases {
            for columns in [30, 12] {
                let base = try render(columns: columns)
                let badged = base.compositing(LiveBadge(.live, corner: corner))
                let text = LiveBadge(.live).text(fitting: base.columns)
                let row = (corner == .topLeft || corner == .topRight) ? 0 : base.rows - 1
                let start = (corner == .topLeft || corner == .bottomLeft) ? 0 : base.columns - text.count
                for (i, scalar) in text.enumerated() {
                    XCTAssertEqual(badged.cell(column: start + i, row: row)?.character, scalar, "\(corner) \(columns)")
                }
                // Overlay style: white on a darkened copy of the picture, so it reads on a white photo.
                let cell = try XCTUnwrap(badged.cell(column: start + 1, row: row))
                XCTAssertEqual(cell.foreground, .white)
                XCTAssertLessThan(cell.background.brightness, 100)
                // Nothing else changed.
                XCTAssertEqual(badged.cell(column: base.columns / 2, row: base.rows / 2), base.cell(column: base.columns / 2, row: base.rows / 2))
            }
        }
    }

    func testPixelBadgeIsDrawnInTheCornerOnly() {
        let frame = PixelFrame(width: 400, height: 300, fill: (255, 255, 255, 255))
        for corner in BadgeCorner.allCases {
            let badged = frame.drawingBadge(LiveBadge(.live, corner: corner))
            func darkPixels(xs: Range<Int>, ys: Range<Int>) -> Int {
                var n = 0
                for y in ys { for x in xs where badged.rgba[(y * 400 + x) * 4] < 128 { n += 1 } }
                return n
            }
            let left = corner == .topLeft || corner == .bottomLeft
            let top = corner == .topLeft || corner == .topRight
            let inCorner = darkPixels(xs: left ? 0..<200 : 200..<400, ys: top ? 0..<150 : 150..<300)
            XCTAssertGreaterThan(inCorner, 100, "\(corner)")
            XCTAssertEqual(darkPixels(xs: 0..<400, ys: 0..<300), inCorner, "\(corner): marks outside its corner")
        }
    }

    func testSolidStyleAndLiveOffDifferFromLive() {
        let frame = PixelFrame(width: 400, height: 300, fill: (90, 120, 60, 255))
        let live = frame.drawingBadge(LiveBadge(.live))
        let off = frame.drawingBadge(LiveBadge(.liveOff))
        let solid = frame.drawingBadge(LiveBadge(.live, style: .solid))
        XCTAssertNotEqual(live.rgba, off.rgba)
        XCTAssertNotEqual(live.rgba, solid.rgba)
        XCTAssertEqual(frame.drawingBadge(LiveBadge(.video)).size, frame.size)
    }
}
