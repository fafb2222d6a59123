import BrowserCore
import LivePairing
import TerminalProtocol
import XCTest
import BrowserRuntime
@testable import TerminalUI

/// When to probe and what the replies decide (the escape-sequence writers are tested in TerminalProtocolTests).
final class GraphicsModeDecisionTests: XCTestCase {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testProbeOnlyWhenAPixelProtocolIsPossible() {
        let xterm = ["TERM": "xterm-256color"]
        XCTAssertTrue(GraphicsModeDecision.shouldProbe(setting: .auto, environment: xterm))
        XCTAssertFalse(GraphicsModeDecision.shouldProbe(setting: .symbols, environment: xterm))
        XCTAssertFalse(GraphicsModeDecision.shouldProbe(setting: .auto, environment: ["TERM": "tmux-256color", "TMUX": "/tmp/x"]))
        XCTAssertTrue(GraphicsModeDecision.shouldProbe(setting: .sixel, environment: ["TERM": "tmux-256color", "TMUX": "/tmp/x"]))
    }

    func testDecisionUsesTheRepliesForAutoAndKeepsSymbolsInTmux() {
        let sixelReply = TerminalRepliesFixture.xtermSixel
        let auto = GraphicsModeDecision.decide(setting: .auto, environment: ["TERM": "xterm-256color"]) { sixelReply }
        XCTAssertEqual(auto.capabilities.graphicsMode, .sixels)
        XCTAssertEqual(auto.capabilities.cellPixelSize?.width, 7)
        XCTAssertTrue(auto.pixelDescription.hasPrefix("sixels, 7x15 px cells"), auto.pixelDescription)
        var probed = false
        let tmux = GraphicsModeDecision.decide(setting: .auto, environment: ["TERM": "screen", "TMUX": "x"]) {
            probed = true
            return sixelReply
        }
        XCTAssertFalse(probed)
        XCTAssertEqual(tmux.capabilities.graphicsMode, .symbols)
        let forced = GraphicsModeDecision.decide(setting: .kitty, environment: ["TERM": "xterm"]) { .none }
        XCTAssertEqual(forced.capabilities.graphicsMode, .kitty)
    }
}

import TerminalGraphics

enum TerminalRepliesFixture {
    /// What xterm -ti vt340 answers to the probe: no kitty reply, cell 15x7, DA1 with attribute 4.
    static let xtermSixel = TerminalReplies.parse(Array("\u{1B}[6;15;7t\u{1B}[4;600;840t\u{1B}[?63;1;2;4;6;9;15;16;22;28c".utf8))
}

/// A one-row scroll in kitty mode, through the ledger and the image store: every picture moves, none is sent
/// again; the bytes are placements only.
final class KittyScrollBytesTests: XCTestCase {
    func testAOneRowScrollPlacesStoredImagesByIDOnly() {
        var ledger = ImagePlacementLedger<ThumbnailKey>(erasure: .deleteByID)
        var store = KittyImageStore<ThumbnailKey>()
        let screen = TerminalSize(columns: 120, rows: 40)
        let payload = [UInt8](repeating: UInt8(ascii: "A"), count: 40_000)
        func grid(firstRow: Int) -> [ImagePlacement<ThumbnailKey>] {
            var placements: [ImagePlacement<ThumbnailKey>] = []
            for row in firstRow..<(firstRow + 3) {
                for column in 0..<5 {
                    let key = ThumbnailKey(itemID: ItemID("\(row)-\(column)"), width: 22, height: 10)
                    let rect = CellRect(x: column * 24, y: (row - firstRow) * 12, width: 22, height: 10)
                    placements.append(ImagePlacement(key: key, rect: rect))
                }
            }
            return placements
        }
        func frame(_ wanted: [ImagePlacement<ThumbnailKey>]) -> [UInt8] {
            let plan = ledger.plan(wanted: wanted, overlays: [], screen: screen)
            let onScreen = Set(ledger.placed.map(\.key))
            var out: [UInt8] = []
            for placement in plan.draw {
                let decision = store.place(placement.key, pixelBytes: 40_000, onScreen: onScreen)
                let bytes = decision.transmit ? PixelSequences.kittyTransmit(Array("\u{1B}_G".utf8) + payload, id: decision.id)
                                              : PixelSequences.kittyPlace(id: decision.id)
                out += PixelSequences.positioned(bytes, row: placement.rect.y, column: placement.rect.x)
            }
            return out
        }
        let first = frame(grid(firstRow: 0))
        XCTAssertGreaterThan(first.count, 15 * 40_000)
        _ = frame(grid(firstRow: 1))                       // one row down: 10 moved, 5 new
        let back = frame(grid(firstRow: 0))                // and back up: 10 moved, 5 seen before
        let text = String(decoding: back, as: UTF8.self)
        XCTAssertFalse(text.contains("a=T"), "no picture is transmitted again on a scroll back")
        XCTAssertEqual(text.components(separatedBy: "a=p,").count - 1, 15)
        XCTAssertLessThan(back.count, 1_000, "a scroll back costs placements only: \(back.count) bytes")
    }
}
