import XCTest
import BrowserRuntime
@testable import TerminalUI

final class PixelSequencesTests: XCTestCase {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testPositionedSavesMovesWritesAndRestores() {
        let out = PixelSequences.positioned(Array("\u{1B}Pq#0~\u{1B}\\".utf8), row: 4, column: 9)
        XCTAssertEqual(text(out), "\u{1B}7\u{1B}[5;10H\u{1B}Pq#0~\u{1B}\\\u{1B}8")
    }

    func testKittyTransmitAddsIDsQuietAndNoCursorMove() {
        let chafa = Array("\u{1B}_Ga=T,f=32,s=2,v=2,c=1,r=1,m=1\u{1B}\\\u{1B}_Gm=0;AAAA\u{1B}\\".utf8)
        XCTAssertEqual(text(PixelSequences.kittyTransmit(chafa, id: 7)),
                       "\u{1B}_Gi=7,p=1,q=2,C=1,a=T,f=32,s=2,v=2,c=1,r=1,m=1\u{1B}\\\u{1B}_Gm=0;AAAA\u{1B}\\")
        XCTAssertEqual(text(PixelSequences.kittyPlace(id: 7)), "\u{1B}_Ga=p,i=7,p=1,q=2,C=1\u{1B}\\")
        XCTAssertEqual(text(PixelSequences.kittyDelete(id: 7)), "\u{1B}_Ga=d,d=i,i=7,q=2\u{1B}\\")
    }

    func testTmuxPassthroughDoublesEscapes() {
        XCTAssertEqual(text(PixelSequences.tmuxPassthrough(Array("\u{1B}Pq\u{1B}\\".utf8))),
                       "\u{1B}Ptmux;\u{1B}\u{1B}Pq\u{1B}\u{1B}\\\u{1B}\\")
    }

    func testKittyIDsAreStableAndTheOldestIsFreedPastTheLimit() {
        var ids = KittyImageIDs(limit: 2)
        let a = ThumbnailKey(itemID: "a", width: 10, height: 5)
        let b = ThumbnailKey(itemID: "b", width: 10, height: 5)
        let c = ThumbnailKey(itemID: "c", width: 10, height: 5)
        let first = ids.id(for: a)
        XCTAssertTrue(first.isNew)
        XCTAssertEqual(ids.id(for: a).id, first.id)
        XCTAssertFalse(ids.id(for: a).isNew)
        _ = ids.id(for: b)
        let third = ids.id(for: c)
        XCTAssertEqual(third.evicted, first.id)
        XCTAssertNil(ids.existing(a))
    }

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
