import TerminalProtocol
import XCTest

/// Issue 31: a terminal's replies to the start-up probes are never read as keys, whenever they arrive and
/// however they are split. A "delay" here is a `flushPending()` between two reads: what the reader does when no
/// byte followed for its Escape timeout.
final class LateReplyDecodingTests: XCTestCase {
    /// Every reply a probe of livegrid's can bring back, and two it does not ask for today.
    static let replies: [(name: String, bytes: [UInt8])] = [
        ("kitty graphics", "\u{1B}_Gi=31;OK\u{1B}\\"),
        ("kitty graphics error", "\u{1B}_Gi=31;EINVAL:Zero width/height not allowed\u{1B}\\"),
        ("cell size", "\u{1B}[6;20;10t"),
        ("text area size", "\u{1B}[4;600;800t"),
        ("kitty keyboard flags", "\u{1B}[?1u"),
        ("DA1 with sixel", "\u{1B}[?62;4;c"),
        ("DECRQSS", "\u{1B}P1$r0;38:2::1:2:3m\u{1B}\\"),
        ("XTGETTCAP", "\u{1B}P1+r524742=382F382F38\u{1B}\\"),
        ("XTVERSION", "\u{1B}P>|kitty(0.31.0)\u{1B}\\"),
        ("OSC colour, ST", "\u{1B}]11;rgb:0000/0000/0000\u{1B}\\"),
        ("OSC colour, BEL", "\u{1B}]10;rgb:ffff/ffff/ffff\u{07}"),
        ("DECRPM", "\u{1B}[?2026;2$y"),
        ("cursor position (the link meter's round trip)", "\u{1B}[12;40R"),
        ("XTSMGRAPHICS sixel geometry", "\u{1B}[?2;0;800;480S"),
        ("XTSMGRAPHICS colour registers", "\u{1B}[?1;0;1024S"),
        ("XTSMGRAPHICS error", "\u{1B}[?2;3;0S"),
    ].map { ($0.0, Array($0.1.utf8)) }

    /// Feeds the pieces with a flush (a pause longer than the Escape timeout) after each, as a reader does.
    private func decodeLate(_ pieces: [[UInt8]]) -> [InputEvent] {
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        for piece in pieces {
            events += decoder.feed(piece)
            events += decoder.flushPending()
        }
        return events
    }

    private func keys(_ events: [InputEvent]) -> [Key] {
        events.compactMap { if case .key(let key) = $0 { return key.key } else { return nil } }
    }

    func testEveryReplyWholeIsNoKey() {
        for (name, bytes) in Self.replies {
            let events = decodeLate([bytes])
            XCTAssertEqual(keys(events), [], name)
            XCTAssertEqual(events.count, 1, "\(name): one reply, \(events)")
            XCTAssertFalse(events.allSatisfy(\.isInput), name)
        }
    }

    func testAReplySplitAtEveryByteWithAPauseBetweenIsNoKey() {
        for (name, bytes) in Self.replies {
            for cut in 1..<bytes.count {
                let events = decodeLate([Array(bytes[..<cut]), Array(bytes[cut...])])
                // Cut right after its ESC, the ESC alone was the Escape key by the time the rest came (no reader
                // can know better); the rest is still the reply, not keys.
                XCTAssertEqual(keys(events), cut == 1 ? [.escape] : [], "\(name) cut at \(cut): \(events)")
                XCTAssertEqual(events.filter { !$0.isInput }.count, 1, "\(name) cut at \(cut): \(events)")
            }
        }
    }

    func testAReplySplitTwiceWithPausesIsNoKey() {
        for (name, bytes) in Self.replies {
            for first in 1..<bytes.count {
                for second in (first + 1)..<max(first + 1, bytes.count) {
                    let events = decodeLate([Array(bytes[..<first]), Array(bytes[first..<second]), Array(bytes[second...])])
                    // Cut after its ESC and again after the next byte, both late: that byte alone after an Escape
                    // is a key the user typed (`[` after Esc). The one split no reader can tell from typing.
                    if first == 1, second == 2 { continue }
                    XCTAssertEqual(keys(events), first == 1 ? [.escape] : [], "\(name) cut at \(first), \(second): \(events)")
                    XCTAssertEqual(events.filter { !$0.isInput }.count, 1, "\(name) cut at \(first), \(second)")
                }
            }
        }
    }

    func testTheSameReplyTwiceSoonOrLateIsNoKey() {
        for (name, bytes) in Self.replies {
            XCTAssertEqual(keys(decodeLate([bytes + bytes])), [], name)
            XCTAssertEqual(keys(decodeLate([bytes, [], bytes])), [], name)
            let cut = bytes.count / 2
            XCTAssertEqual(keys(decodeLate([bytes + bytes[..<cut], Array(bytes[cut...])])), [], name)
        }
    }

    func testKeysAroundALateSplitReplyStayTheKeysTyped() {
        for (name, bytes) in Self.replies {
            let cut = bytes.count / 2
            let events = decodeLate([Array("j".utf8) + bytes[..<cut], Array(bytes[cut...]) + Array("k".utf8)])
            XCTAssertEqual(keys(events), [.character("j"), .character("k")], name)
            let together = decodeLate([Array("/".utf8) + bytes + Array("IMG".utf8)])
            XCTAssertEqual(keys(together), ["/", "I", "M", "G"].map { Key.character($0) }, name)
        }
    }

    /// The reply of issue 31, read by livegrid 0.x as `G` (last), `=` (zoom), `3` and `1` (ratings).
    func testTheKittyReplyOfTheReportIsNeverGOrDigits() {
        let reply = Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8)
        for cut in 0...reply.count {
            var decoder = InputDecoder()
            var events = decoder.feed(Array(reply[..<cut]))
            events += decoder.flushPending()
            events += decoder.flushPending()
            events += decoder.feed(Array(reply[cut...]))
            events += decoder.flushPending()
            let characters = keys(events).filter { if case .character = $0 { return true } else { return false } }
            XCTAssertEqual(characters, [], "cut at \(cut): \(events)")
        }
    }

    func testUnknownSequencesAreDroppedNotTyped() {
        XCTAssertEqual(keys(decodeLate([Array("\u{1B}[99z".utf8)])), [])
        XCTAssertEqual(keys(decodeLate([Array("\u{1B}[".utf8), Array("99z".utf8)])), [])
        XCTAssertEqual(keys(decodeLate([Array("\u{1B}[>1;10;0c".utf8)])), [], "DA2")
    }

    func testEscapeAndAltKeysAreStillKeys() {
        XCTAssertEqual(keys(decodeLate([[0x1B]])), [.escape])
        XCTAssertEqual(keys(decodeLate([[0x1B], Array("j".utf8)])), [.escape, .character("j")])
        XCTAssertEqual(keys(decodeLate([[0x1B], Array("[".utf8)])), [.escape, .character("[")], "Esc, then rotate")
        XCTAssertEqual(keys(decodeLate([Array("\u{1B}Pj".utf8)])), [.character("P"), .character("j")], "Alt-P, j")
        XCTAssertEqual(keys(decodeLate([Array("\u{1B}]x".utf8)])), [.character("]"), .character("x")], "Alt-], x")
        XCTAssertEqual(keys(decodeLate([Array("\u{1B}_a".utf8)])), [.character("_"), .character("a")], "Alt-_, a")
    }

    /// Sequences curses used to decode, now the decoder's: none of their bytes may become keys.
    func testOldMouseReportsAndConsoleFunctionKeysAreNotLetters() {
        var decoder = InputDecoder()
        let click = decoder.feed(Array("\u{1B}[M !!\u{1B}[M#!!".utf8))
        XCTAssertEqual(click, [.mouse(MouseEvent(button: .left, kind: .press, column: 0, row: 0)),
                               .mouse(MouseEvent(button: .left, kind: .release, column: 0, row: 0))])
        XCTAssertEqual(keys(decodeLate([Array("\u{1B}[[A".utf8)])), [.function(1)])
        XCTAssertEqual(keys(decodeLate([Array("\u{1B}[[".utf8), Array("E".utf8)])), [.function(5)])
    }

    func testAReplyThatNeverEndsIsDroppedNotTyped() {
        var decoder = InputDecoder()
        decoder.maxSequenceLength = 64
        var events = decoder.feed(Array("\u{1B}_Gi=31;".utf8))
        events += decoder.flushPending()
        events += decoder.feed(Array(repeating: UInt8(ascii: "3"), count: 100))
        XCTAssertEqual(keys(events), [])
        XCTAssertFalse(decoder.hasPending, "dropped, not hoarded")
        XCTAssertEqual(keys(decoder.feed(Array("j".utf8))), [.character("j")], "keys after it are keys again")
    }
}
