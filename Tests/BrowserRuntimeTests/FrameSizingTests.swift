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

/// Movie frames sized to the render's cost too (issue 28.4, part 2): kitty playback at 20 Mbit/s showed 4 of 22
/// frames because each frame's render came late, not because of the link. Render times are injected.
final class FrameSizingRenderTimeTests: XCTestCase {
    private let fastLink = ThroughputWindow.Estimate(bytesPerSecond: 50_000_000, isSlow: false)

    func testARenderSlowerThanTheFrameTimeShrinksTheNextFrames() {
        // 18 frames a second leave 44 ms of render a frame (0.8 of 55.6 ms); a whole frame took 120 ms.
        let sizing = FrameSizing().following(bytesPerFrame: 300_000, framesPerSecond: 18, link: fastLink,
                                             renderSeconds: 0.120, columns: 80, rows: 24)
        // sqrt(0.0444 / 0.120) = 0.61: stepped down to 0.6.
        XCTAssertEqual(sizing.scale, 0.6, accuracy: 1e-9)
        // Without any link measured, the render alone decides the same.
        XCTAssertEqual(FrameSizing().following(bytesPerFrame: 300_000, framesPerSecond: 18, link: nil,
                                               renderSeconds: 0.120, columns: 80, rows: 24), sizing)
    }

    func testAtTheSizeThatFitsTheSizingStays() {
        let sizing = FrameSizing().following(bytesPerFrame: 300_000, framesPerSecond: 18, link: fastLink,
                                             renderSeconds: 0.120, columns: 80, rows: 24)
        let cells = sizing.cells(columns: 80, rows: 24)
        let share = Double(cells.columns * cells.rows) / Double(80 * 24)
        // The render follows the cells: 120 ms a whole frame, that share of it now.
        XCTAssertEqual(sizing.following(bytesPerFrame: 100_000, framesPerSecond: 18, link: fastLink,
                                        renderSeconds: 0.120 * share, columns: 80, rows: 24), sizing)
    }

    func testARenderThatKeepsUpDrawsTheWholeArea() {
        XCTAssertEqual(FrameSizing(scale: 0.5).following(bytesPerFrame: 100_000, framesPerSecond: 18, link: fastLink,
                                                         renderSeconds: 0.005, columns: 80, rows: 24), FrameSizing())
    }

    func testTheSlowerOfLinkAndRenderCounts() {
        let link = ThroughputWindow.Estimate(bytesPerSecond: 2_500_000, isSlow: true)
        // The link fits 0.7 of the area (the symbols figure above); a render of 60 ms at 18 fps fits 0.85.
        let byLink = FrameSizing().following(bytesPerFrame: 209_000, framesPerSecond: 18, link: link,
                                             renderSeconds: 0.060, columns: 160, rows: 48)
        XCTAssertEqual(byLink.scale, 0.7, accuracy: 1e-9)
        // A render of 400 ms fits 0.33: it decides.
        let byRender = FrameSizing().following(bytesPerFrame: 209_000, framesPerSecond: 18, link: link,
                                               renderSeconds: 0.400, columns: 160, rows: 48)
        XCTAssertEqual(byRender.scale, 0.3, accuracy: 1e-9)
    }

    /// One pass gives the sizing and whether the link is what shrank the frames (the player asked twice per
    /// frame, the second time without the render): the same answers as the two calls, over many figures.
    func testTheReasonComesWithTheSizingAndMatchesAskingWithoutTheRender() {
        let link = ThroughputWindow.Estimate(bytesPerSecond: 2_500_000, isSlow: true)
        let byRender = FrameSizing().followingWithReason(bytesPerFrame: 100_000, framesPerSecond: 18, link: link,
                                                         renderSeconds: 0.400, columns: 160, rows: 48)
        XCTAssertEqual(byRender.sizing.scale, 0.3, accuracy: 1e-9)
        XCTAssertFalse(byRender.forTheLink, "the link carries these frames: the render shrank them")
        let byLink = FrameSizing().followingWithReason(bytesPerFrame: 209_000, framesPerSecond: 18, link: link,
                                                       renderSeconds: 0.010, columns: 160, rows: 48)
        XCTAssertEqual(byLink.sizing.scale, 0.7, accuracy: 1e-9)
        XCTAssertTrue(byLink.forTheLink)
        var compared = 0, forTheLink = 0
        for scale in [1, 0.9, 0.7, 0.5, 0.3] {
            for bytes in [0, 50_000, 150_000, 209_000, 400_000, 1_660_000] {
                for estimate in [nil, link, ThroughputWindow.Estimate(bytesPerSecond: 12_000_000, isSlow: false)] {
                    for render in [nil, 0.005, 0.040, 0.400] {
                        let sizing = FrameSizing(scale: scale)
                        let answer = sizing.followingWithReason(bytesPerFrame: bytes, framesPerSecond: 18, link: estimate,
                                                                renderSeconds: render, columns: 160, rows: 48)
                        XCTAssertEqual(answer.sizing, sizing.following(bytesPerFrame: bytes, framesPerSecond: 18, link: estimate,
                                                                       renderSeconds: render, columns: 160, rows: 48))
                        let askedWithoutRender = sizing.following(bytesPerFrame: bytes, framesPerSecond: 18, link: estimate,
                                                                  columns: 160, rows: 48).scale < 1
                        XCTAssertEqual(answer.forTheLink, askedWithoutRender, "scale \(scale), \(bytes) B, render \(render ?? 0)")
                        compared += 1
                        if answer.forTheLink { forTheLink += 1 }
                    }
                }
            }
        }
        XCTAssertEqual(compared, 360)
        XCTAssertGreaterThan(forTheLink, 0, "some figures are the link's")
        XCTAssertLessThan(forTheLink, compared, "and some are not")
    }
}
