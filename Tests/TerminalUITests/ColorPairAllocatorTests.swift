@testable import TerminalUI
import TerminalGraphics
import XCTest

/// The pair bookkeeping behind picture cells: a pair a cell of the current frame uses is never redefined,
/// however many pictures and colours a frame holds.
final class ColorPairAllocatorTests: XCTestCase {
    /// What the terminal shows for a cell drawn with `grant`, given the pair definitions so far.
    struct Screen {
        var definitions: [Int32: (Int, Int)] = [:]
        mutating func apply(_ grant: ColorPairAllocator.Grant) -> (fg: Int, bg: Int) {
            if let define = grant.define { definitions[grant.pair] = (define.foreground, define.background) }
            let (a, b) = definitions[grant.pair] ?? (-1, -1)
            return grant.reversed ? (b, a) : (a, b)
        }
    }

    /// TERM=xterm: 64 pairs, the interface takes 1...9. Every 8-colour combination, several times per frame
    /// (40 pictures), over many frames: every cell drawn in a frame still shows its colours at the end of it.
    func testEightColoursOnSixtyFourPairsNeverRecolourACellOfTheFrame() {
        var allocator = ColorPairAllocator(firstPair: 10, pairLimit: 64, paletteSize: 8)
        XCTAssertTrue(allocator.foldsReversed, "54 pairs cannot hold 64 ordered combinations")
        var screen = Screen()
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            allocator.beginFrame()
            var drawn: [(pair: Int32, reversed: Bool, fg: Int, bg: Int)] = []
            for _ in 0..<(40 * 12) {
                let fg = Int.random(in: 0..<8, using: &random), bg = Int.random(in: 0..<8, using: &random)
                guard let grant = allocator.pair(foreground: fg, background: bg) else { return XCTFail("no pair") }
                let shown = screen.apply(grant)
                XCTAssertEqual(shown.fg, fg)
                XCTAssertEqual(shown.bg, bg)
                drawn.append((grant.pair, grant.reversed, fg, bg))
            }
            for cell in drawn {
                let (a, b) = screen.definitions[cell.pair] ?? (-1, -1)
                XCTAssertEqual(cell.reversed ? (b, a) == (cell.fg, cell.bg) : (a, b) == (cell.fg, cell.bg), true,
                               "pair \(cell.pair) was redefined while on screen")
            }
        }
    }

    func testSixteenColoursFitTwoHundredFiftySixPairsWithoutFolding() {
        let allocator = ColorPairAllocator(firstPair: 10, pairLimit: 256, paletteSize: 16)
        XCTAssertTrue(allocator.foldsReversed, "246 pairs < 256 ordered combinations: fold")
        XCTAssertFalse(ColorPairAllocator(firstPair: 10, pairLimit: 65_535, paletteSize: 16).foldsReversed)
        XCTAssertFalse(ColorPairAllocator(firstPair: 10, pairLimit: 65_535, paletteSize: nil).foldsReversed)
    }

    /// Direct colour with more colour combinations in one frame than pairs: the overflow borrows a
    /// neighbour's pair instead of redefining one drawn earlier in the frame.
    func testOverflowBorrowsInsteadOfRedefining() {
        var allocator = ColorPairAllocator(firstPair: 10, pairLimit: 20, paletteSize: nil)
        var screen = Screen()
        allocator.beginFrame()
        var granted: [(Int32, Int, Int)] = []
        for i in 0..<30 {
            guard let grant = allocator.pair(foreground: i, background: 1000 + i) else { return XCTFail("no pair") }
            _ = screen.apply(grant)
            if grant.define != nil { granted.append((grant.pair, i, 1000 + i)) }
        }
        XCTAssertEqual(granted.count, 10)
        for (pair, fg, bg) in granted {
            XCTAssertTrue(screen.definitions[pair]! == (fg, bg), "pair \(pair) redefined within the frame")
        }
        // The next frame may reuse them.
        allocator.beginFrame()
        let grant = allocator.pair(foreground: 500, background: 501)
        XCTAssertNotNil(grant?.define)
    }

    func testKnownPairsAreReusedAcrossFrames() {
        var allocator = ColorPairAllocator(firstPair: 10, pairLimit: 64, paletteSize: 8)
        allocator.beginFrame()
        let first = allocator.pair(foreground: 7, background: 0)
        allocator.beginFrame()
        let again = allocator.pair(foreground: 7, background: 0)
        XCTAssertNotNil(first?.define)
        XCTAssertNil(again?.define)
        XCTAssertEqual(first?.pair, again?.pair)
        // Folded: (0, 7) is the same pair, reversed.
        let swapped = allocator.pair(foreground: 0, background: 7)
        XCTAssertEqual(swapped?.pair, first?.pair)
        XCTAssertNotEqual(swapped?.reversed, first?.reversed)
    }
}
