import Imaging
@testable import TerminalGraphics
import TerminalProtocol
import XCTest

/// The graphics decision inside tmux as a table of recorded situations (the passthrough wrapping itself is
/// tested in TerminalProtocolTests).
final class TmuxGraphicsDecisionTests: XCTestCase {
    let esc = "\u{1B}"
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    // MARK: the decision inside tmux, as a table

    struct Row {
        var name: String
        var chain: TmuxChain?
        var replies: String
        var forced: GraphicsMode? = nil
        var mode: GraphicsMode
        var depth: Int
        var hint: String? = nil
        var why: String
    }

    func testGraphicsDecisionInsideTmux() {
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        let xterm = TmuxFacts(version: "3.3a", allowsPassthrough: true, clientTermname: "xterm-256color",
                              clientTermtype: "XTerm(379)")
        var off = xterm
        off.allowsPassthrough = false
        var old = xterm
        old.version = "3.2a"
        var kittyClient = xterm
        kittyClient.clientTermname = "xterm-kitty"
        kittyClient.clientTermtype = "kitty(0.26.5)"
        var detached = xterm
        detached.clientTermname = ""
        var detachedOff = detached
        detachedOff.allowsPassthrough = false
        var nestedInner = xterm
        nestedInner.clientTermname = "tmux-256color"
        let sixelDA1 = "\(esc)[6;20;10t\(esc)[?63;1;2;4;6;9;15;16;22;28c"
        let rows: [Row] = [
            Row(name: "no tmux facts: symbols as before", chain: nil, replies: sixelDA1, mode: .symbols, depth: 0,
                why: "inside tmux"),
            Row(name: "xterm with sixel through passthrough", chain: TmuxChain(levels: [xterm]), replies: sixelDA1,
                mode: .sixels, depth: 1, why: "XTerm(379)) reports sixel graphics through passthrough"),
            Row(name: "kitty answers the query", chain: TmuxChain(levels: [kittyClient]),
                replies: "\(esc)_Gi=31;OK\(esc)\\\(esc)[?62;c", mode: .kitty, depth: 1, why: "kitty graphics query"),
            Row(name: "kitty by client_termname, no reply", chain: TmuxChain(levels: [kittyClient]), replies: "",
                mode: .kitty, depth: 1, why: "client_termname"),
            Row(name: "xterm without sixel", chain: TmuxChain(levels: [xterm]), replies: "\(esc)[?1;2c",
                mode: .symbols, depth: 0, why: "offers no graphics protocol"),
            Row(name: "passthrough off", chain: TmuxChain(levels: [off]), replies: "", mode: .symbols, depth: 0,
                hint: "tmux passthrough is off: set -g allow-passthrough on", why: "passthrough is off"),
            Row(name: "outer tmux passthrough off", chain: TmuxChain(levels: [nestedInner, off]), replies: "",
                mode: .symbols, depth: 0, hint: "the outer tmux passthrough is off: set -g allow-passthrough on",
                why: "outer tmux passthrough is off"),
            Row(name: "tmux too old", chain: TmuxChain(levels: [old]), replies: "", mode: .symbols, depth: 0,
                hint: "tmux 3.2a: pictures need tmux 3.3+", why: "3.3 or later"),
            Row(name: "no client attached", chain: TmuxChain(levels: [detached]), replies: "", mode: .symbols,
                depth: 0, why: "no client attached"),
            Row(name: "passthrough off but no client: no hint nobody would read", chain: TmuxChain(levels: [detachedOff]),
                replies: "", mode: .symbols, depth: 0, why: "no client attached"),
            Row(name: "nested, sixel through both", chain: TmuxChain(levels: [nestedInner, xterm]), replies: sixelDA1,
                mode: .sixels, depth: 2, why: "sixel"),
            Row(name: "nested over ssh: one more wrapper", chain: TmuxChain(levels: [nestedInner], outerLevelUnknown: true),
                replies: sixelDA1, mode: .sixels, depth: 2, why: "sixel"),
            Row(name: "forced sixel with passthrough off", chain: TmuxChain(levels: [off]), replies: "", forced: .sixels,
                mode: .sixels, depth: 1, why: "forced"),
            Row(name: "forced kitty, nested", chain: TmuxChain(levels: [nestedInner, xterm]), replies: "", forced: .kitty,
                mode: .kitty, depth: 2, why: "forced"),
        ]
        for row in rows {
            let replies = TerminalReplies.parse(Array(row.replies.utf8))
            let caps = TerminalCapabilities.detect(environment: env, replies: replies, tmux: row.chain, forcedMode: row.forced)
            XCTAssertEqual(caps.graphicsMode, row.mode, row.name)
            XCTAssertEqual(caps.tmuxPassthroughDepth, row.depth, row.name)
            XCTAssertEqual(caps.graphicsHint, row.hint, row.name)
            XCTAssertTrue(caps.why.contains(row.why), "\(row.name): \(caps.why)")
        }
    }
}

/// A sixel too big for tmux's passthrough buffer is sent as stacked pieces that start on cell rows.
final class SixelBandsTests: XCTestCase {
    func testSplitsAtCellRowsAndKeepsThePaletteAndEveryBand() throws {
        let image = try ChafaSixel.render(width: 60, height: 96)
        let pieces = SixelBands.split(image, cellHeight: 20, maxBytes: image.count / 3)
        XCTAssertGreaterThan(pieces.count, 1)
        // lcm(6, 20) = 60 px = 3 cells: every piece starts on a multiple of 3 rows.
        XCTAssertEqual(pieces.first?.rowOffset, 0)
        XCTAssertTrue(pieces.allSatisfy { $0.rowOffset % 3 == 0 }, pieces.map(\.rowOffset).description)
        let layout = try XCTUnwrap(SixelBands.Layout(image))
        var heights = 0
        var bands = 0
        for piece in pieces {
            let part = try XCTUnwrap(SixelBands.Layout(piece.bytes), "each piece is a sixel image itself")
            XCTAssertEqual(part.palette, layout.palette, "each piece carries the palette")
            XCTAssertEqual(part.width, layout.width)
            XCTAssertEqual(piece.rowOffset * 20, heights, "a piece starts where the previous ended")
            heights += part.height
            bands += part.bands.count
        }
        XCTAssertEqual(heights, layout.height)
        XCTAssertEqual(bands, layout.bands.count, "no band lost or repeated")
    }

    func testSmallImagesAndForeignBytesStayWhole() throws {
        let image = try ChafaSixel.render(width: 30, height: 24)
        XCTAssertEqual(SixelBands.split(image, cellHeight: 20, maxBytes: 1_000_000), [SixelBands.Piece(rowOffset: 0, bytes: image)])
        let junk: [UInt8] = Array("not a sixel at all, but long".utf8)
        XCTAssertEqual(SixelBands.split(junk, cellHeight: 20, maxBytes: 4).first?.bytes, junk)
    }
}

/// A real chafa sixel of a colourful test picture.
enum ChafaSixel {
    static func render(width: Int, height: Int) throws -> [UInt8] {
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                rgba[i] = UInt8((x * 255) / max(1, width - 1))
                rgba[i + 1] = UInt8((y * 255) / max(1, height - 1))
                rgba[i + 2] = UInt8(((x ^ y) * 7) & 0xFF)
            }
        }
        let renderer = ChafaRenderer(mode: .sixels, colorDepth: .truecolor,
                                     cellPixelSize: PixelSizeInCells(width: 10, height: 20))
        let image = try renderer.render(PixelFrame(width: width, height: height, rgba: rgba), maxColumns: width / 10, maxRows: height / 20 + 1)
        return image.bytes
    }
}
