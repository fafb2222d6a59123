import TerminalProtocol
import XCTest

/// Replies as they arrive on stdin after `TerminalReplies.probeSequence`, recorded from real terminals.
final class TerminalRepliesTests: XCTestCase {
    let esc = "\u{1B}"

    func replies(_ s: String) -> TerminalReplies { TerminalReplies.parse(Array(s.utf8)) }

    /// One probe answers both questions: the kitty keyboard flags reply comes in the same round trip.
    func testKeyboardProtocolFlagsComeWithTheGraphicsProbe() {
        XCTAssertTrue(TerminalReplies.probeSequence.hasSuffix("\(esc)[?u\(esc)[?2;1;0S\(esc)[c"), "DA1 stays last")
        let kitty = replies("\(esc)_Gi=31;OK\(esc)\\\(esc)[6;18;9t\(esc)[?0u\(esc)[?62;c")
        XCTAssertEqual(kitty.keyboardProtocolFlags, 0)
        XCTAssertEqual(kitty.cellPixelSize, PixelSizeInCells(width: 9, height: 18))
        XCTAssertEqual(replies("\(esc)[?31u\(esc)[?62;4c").keyboardProtocolFlags, 31)
        XCTAssertNil(replies("\(esc)[?62;4c").keyboardProtocolFlags, "xterm: no keyboard protocol")
    }

    func testRepliesParserIgnoresNoiseAndTruncation() {
        XCTAssertEqual(replies("abc\(esc)[?6"), TerminalReplies())
        XCTAssertEqual(replies("\(esc)_Gi=31;EINVAL:bad\(esc)\\").kittyGraphicsOK, false)
        XCTAssertEqual(replies("\(esc)[6;0;0t").cellPixelSize, nil)
    }

    func testXtermAndKittyReplies() {
        let xterm = replies("\(esc)[6;20;10t\(esc)[4;800;1200t\(esc)[?63;1;2;4;6;9;15;16;22;28c")
        XCTAssertTrue(xterm.supportsSixel)
        XCTAssertEqual(xterm.cellPixelSize, PixelSizeInCells(width: 10, height: 20))
        XCTAssertEqual(xterm.windowPixelSize, PixelSizeInCells(width: 1200, height: 800))
        XCTAssertFalse(xterm.kittyGraphicsOK)
        XCTAssertTrue(replies("\(esc)_Gi=31;OK\(esc)\\\(esc)[?62;c").kittyGraphicsOK)
        XCTAssertFalse(replies("\(esc)[?62;c").supportsSixel)
    }

    /// xterm -ti vt340 refuses a sixel bigger than its maxGraphicSize and says how big with XTSMGRAPHICS; the
    /// probe asks before DA1 (so the answer is in before the wait ends), in the passthrough probe too.
    func testTheMaximumSixelSizeIsAskedAndRead() {
        for probe in [TerminalReplies.probeSequence, TerminalReplies.passthroughProbeSequence] {
            XCTAssertTrue(probe.hasSuffix("\(esc)[?2;1;0S\(esc)[c"), probe.debugDescription)
        }
        let xterm = replies("\(esc)[6;18;9t\(esc)[?2;0;800;480S\(esc)[?63;1;2;4;6;9;15;16;22;28c")
        XCTAssertEqual(xterm.maxSixelSize, PixelSizeInCells(width: 800, height: 480))
        XCTAssertTrue(xterm.supportsSixel)
        XCTAssertNil(replies("\(esc)[?2;3;0S\(esc)[?62;4c").maxSixelSize, "status 3: failure, no limit")
        XCTAssertNil(replies("\(esc)[?1;0;1024S\(esc)[?62;4c").maxSixelSize, "colour registers are not a size")
        XCTAssertNil(replies("\(esc)[?2;0;0;0S").maxSixelSize)
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed(Array("\(esc)[?2;0;1000;1000S".utf8)),
                       [.graphicsAttribute(item: 2, status: 0, values: [1000, 1000])])
        XCTAssertEqual(decoder.feed(Array("\(esc)[1;2S".utf8)), [.key(KeyEvent(.function(4), modifiers: .shift))],
                       "without `?` it is still Shift-F4")
    }
}
