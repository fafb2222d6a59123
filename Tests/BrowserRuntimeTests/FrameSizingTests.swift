@testable import BrowserRuntime
import XCTest

/// Movie frames sized to the link (issue 28.4): the figures are the audit's (train.mov held at 20 Mbit/s).
final class FrameSizingTests: XCTestCase {
    private let link20 = ThroughputWindow.Estimate(bytesPerSecond: 2_500_000, isSlow: true)

    func testNothingMeasuredDrawsTheWholeArea() {
        let sizing = FrameSizing(scale: 0.5).following(bytesPerFrame: 209_000, framesPerSecond: 18, link: nil,
                                                       columns: 160, rows: 48)
        XCTAssertEqual(sizing, FrameSizing())
        XCTAssertTrue(sizing.cells(columns: 160, rows: 48) == (160, 48))
    }

    func testAFrameTheLinkCannotCarryShrinksTheNextOnesUntilTheyFit() {
        // Symbols at 160x48, truecolour: 209 KB a frame, 18 frames a second = 3.8 MB/s on a 2.5 MB/s link.
        let sizing = FrameSizing().following(bytesPerFrame: 209_000, framesPerSecond: 18, link: link20, columns: 160, rows: 48)
        XCTAssertEqual(sizing.scale, 0.7, accuracy: 1e-9)
        let cells = sizing.cells(columns: 160, rows: 48)
        XCTAssertTrue(cells == (112, 34), "\(cells)")
        // At that size the frames fit: the sizing stays.
        let smaller = 209_000 * cells.columns * cells.rows / (160 * 48)
        XCTAssertTrue(link20.carries(bytesPerFrame: smaller, framesPerSecond: 18))
        XCTAssertEqual(sizing.following(bytesPerFrame: smaller, framesPerSecond: 18, link: link20, columns: 160, rows: 48), sizing)
    }

    func testAFrameFarTooBigForTheLinkStopsAtTheSmallestShare() {
        // kitty at 80x24, raw RGBA: 1.66 MB a frame.
        let sizing = FrameSizing().following(bytesPerFrame: 1_660_000, framesPerSecond: 18, link: link20, columns: 80, rows: 24)
        XCTAssertEqual(sizing.scale, FrameSizing.smallest, accuracy: 1e-9)
        XCTAssertTrue(FrameSizing(scale: 0.1).cells(columns: 10, rows: 4) == (6, 3), "never below the smallest playable area")
    }

    func testFramesGrowBackOnlyWhenTheLinkCarriesClearlyMore() {
        let shrunk = FrameSizing(scale: 0.5)
        let drawn = 209_000 / 4   // a quarter of the cells
        let slightlyFaster = ThroughputWindow.Estimate(bytesPerSecond: 1_500_000, isSlow: true)   // 0.55 would fit
        XCTAssertEqual(shrunk.following(bytesPerFrame: drawn, framesPerSecond: 18, link: slightlyFaster, columns: 160, rows: 48),
                       shrunk, "a noisy estimate a little higher: no flapping between sizes")
        let fast = ThroughputWindow.Estimate(bytesPerSecond: 20_000_000, isSlow: false)
        XCTAssertEqual(shrunk.following(bytesPerFrame: drawn, framesPerSecond: 18, link: fast, columns: 160, rows: 48),
                       FrameSizing(), "a link that carries the whole frame: the whole area again")
    }
}
