import TerminalProtocol
import XCTest

/// The escape-sequence writers: cursor save/move/restore around a picture, kitty transmit/place/delete, and
/// the tmux passthrough wrapping (single, nested, split below tmux's buffer limit). Pure bytes, exact.
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

    func testPictureIsPlacedAtThePanesAbsolutePositionInsideTheWrapper() {
        let target = TmuxPassthroughTarget(depth: 1, originRow: 4, originColumn: 61)
        let out = PixelSequences.positionedThroughTmux(Array("\u{1B}Pq#0~\u{1B}\\".utf8), row: 2, column: 3, target: target)
        XCTAssertEqual(String(decoding: out, as: UTF8.self),
                       "\u{1B}Ptmux;\u{1B}\u{1B}7\u{1B}\u{1B}[7;65H\u{1B}\u{1B}Pq#0~\u{1B}\u{1B}\\\u{1B}\u{1B}8\u{1B}\\")
    }

    func testSixelPixelsAreErasedOnTheOuterTerminalCellByCell() {
        let target = TmuxPassthroughTarget(depth: 2, originRow: 1, originColumn: 30)
        let out = PixelSequences.eraseThroughTmux([CellBox(x: 2, y: 3, width: 12, height: 2)], target: target)
        let once = "\u{1B}7\u{1B}[0m\u{1B}[5;33H\u{1B}[12X\u{1B}[6;33H\u{1B}[12X\u{1B}8"
        XCTAssertEqual(out, TmuxPassthrough.wrap(Array(once.utf8), depth: 2))
        XCTAssertEqual(PixelSequences.eraseThroughTmux([], target: target), [], "nothing gone, nothing sent")
    }
}

final class TmuxPassthroughTests: XCTestCase {
    let esc = "\u{1B}"
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testWrapOnceDoublesEveryEscape() {
        let sixel = Array("\(esc)Pq#0~\(esc)\\".utf8)
        XCTAssertEqual(text(TmuxPassthrough.wrap(sixel, depth: 1)), "\(esc)Ptmux;\(esc)\(esc)Pq#0~\(esc)\(esc)\\\(esc)\\")
        XCTAssertEqual(TmuxPassthrough.wrap(sixel, depth: 0), sixel)
        XCTAssertEqual(TmuxPassthrough.wrap([], depth: 2), [])
    }

    func testNestedTmuxWrapsTwiceSoEachLevelUnwrapsOne() {
        let query = Array("\(esc)[c".utf8)
        let twice = TmuxPassthrough.wrap(query, depth: 2)
        // The inner tmux unwraps the outer wrapper: what it sends on is the single-wrapped sequence.
        XCTAssertEqual(text(twice), "\(esc)Ptmux;\(esc)\(esc)Ptmux;\(esc)\(esc)\(esc)\(esc)[c\(esc)\(esc)\\\(esc)\\")
        XCTAssertEqual(Self.unwrapOnce(twice), TmuxPassthrough.wrap(query, depth: 1))
        XCTAssertEqual(Self.unwrapOnce(Self.unwrapOnce(twice)), query)
    }

    func testLongKittyRunsAreSplitAtSequenceBoundariesBelowTheLimit() {
        let chunk = "\(esc)_Gm=1;" + String(repeating: "A", count: 4000) + "\(esc)\\"
        let bytes = Array(("\(esc)7\(esc)[3;5H" + String(repeating: chunk, count: 10) + "\(esc)8").utf8)
        let pieces = TmuxPassthrough.wrapInPieces(bytes, depth: 2, limit: 10_000)
        XCTAssertGreaterThan(pieces.count, 4)
        XCTAssertTrue(pieces.allSatisfy { $0.count <= 10_000 }, pieces.map(\.count).description)
        XCTAssertEqual(pieces.flatMap { Self.unwrapOnce(Self.unwrapOnce($0)) }, bytes, "nothing lost or reordered")
        XCTAssertEqual(TmuxPassthrough.wrapInPieces(Array("x".utf8), depth: 1).count, 1)
    }

    func testSplitSequencesKeepsEachEscapeWhole() {
        let pieces = TmuxPassthrough.splitSequences(Array("\(esc)7\(esc)[12;4H\(esc)Pq#0\(esc)\\\(esc)8".utf8))
        XCTAssertEqual(pieces.map { text(Array($0)) }, ["\(esc)7", "\(esc)[12;4H", "\(esc)Pq#0\(esc)\\", "\(esc)8"])
    }

    /// What one tmux does with a passthrough sequence: strips `ESC P tmux;` and `ESC \`, halves the escapes.
    static func unwrapOnce(_ bytes: [UInt8]) -> [UInt8] {
        let prefix = Array("\u{1B}Ptmux;".utf8)
        guard bytes.count >= prefix.count + 2, Array(bytes.prefix(prefix.count)) == prefix else { return bytes }
        var out: [UInt8] = []
        var i = prefix.count
        let end = bytes.count - 2
        while i < end {
            if bytes[i] == 0x1B, i + 1 < end, bytes[i + 1] == 0x1B { i += 1 }
            out.append(bytes[i])
            i += 1
        }
        return out
    }
}
