@testable import BrowserRuntime
import Imaging
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
        // A link that carries the whole frame: the whole area again, 0.1 more of the width and height a frame
        // (one wrong estimate must not send a whole frame down a slow link).
        var sizing = shrunk
        var steps: [Double] = []
        while sizing != FrameSizing(), steps.count < 20 {
            let cells = sizing.cells(columns: 160, rows: 48)
            sizing = sizing.following(bytesPerFrame: 209_000 * cells.columns * cells.rows / (160 * 48), framesPerSecond: 18,
                                      link: fast, columns: 160, rows: 48)
            steps.append(sizing.scale)
        }
        XCTAssertEqual(steps.count, 5, "\(steps)")
        XCTAssertEqual(steps.first ?? 0, 0.6, accuracy: 1e-9)
        XCTAssertEqual(sizing, FrameSizing())
    }

    func testShrinkingIsAtOnce() {
        let whole = FrameSizing()
        XCTAssertEqual(whole.following(bytesPerFrame: 1_660_000, framesPerSecond: 18, link: link20, columns: 80, rows: 24).scale,
                       FrameSizing.smallest, accuracy: 1e-9)
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
        XCTAssertEqual(FrameSizing(scale: 0.9).following(bytesPerFrame: 100_000, framesPerSecond: 18, link: fastLink,
                                                         renderSeconds: 0.005, columns: 80, rows: 24), FrameSizing())
        XCTAssertEqual(FrameSizing(scale: 0.5).following(bytesPerFrame: 100_000, framesPerSecond: 18, link: fastLink,
                                                         renderSeconds: 0.005, columns: 80, rows: 24), FrameSizing(scale: 0.6),
                       "growing a step at a time")
    }

    func testTheSlowerOfLinkAndRenderCounts() {
        let link = ThroughputWindow.Estimate(bytesPerSecond: 2_500_000, isSlow: true)
        // The link fits 0.7 of the area (the symbols figure above); a render of 60 ms at 18 fps fits 0.85.
        let byLink = FrameSizing().following(bytesPerFrame: 209_000, framesPerSecond: 18, link: link,
                                             renderSeconds: 0.060, columns: 160, rows: 48)
        XCTAssertEqual(byLink.scale, 0.7, accuracy: 1e-9)
        // A render of 400 ms fits 0.33: it decides, down to the readable floor.
        let byRender = FrameSizing().following(bytesPerFrame: 209_000, framesPerSecond: 18, link: link,
                                               renderSeconds: 0.400, columns: 160, rows: 48)
        XCTAssertEqual(byRender.scale, FrameSizing.smallest, accuracy: 1e-9)
    }
}

/// Below a readable size kitty frames keep fewer colour bits instead of shrinking further (issue 28.4): the
/// figures are train.mov's kitty frames in an 80x24 terminal at 20 Mbit/s (PNG, 352 KB a whole frame at all 8
/// bits, 470 KB in base64, 18 frames a second, ~2.3 MB/s of payload on the link).
final class FrameSizingColourTests: XCTestCase {
    private let link20 = ThroughputWindow.Estimate(bytesPerSecond: 2_300_000, isSlow: true)
    private let wholeFrame = 470_000

    func testAFrameTooBigAtTheReadableSizeKeepsFewerColoursInsteadOfShrinkingFurther() {
        // A whole frame carries 2.3 / (0.47 * 18 * 1.25) = 0.217 of itself: 0.47 of the width at 8 bits, under
        // the floor. At 6 bits (0.7 of the bytes) 0.557 fits: drawn at 0.55 with 6 bits.
        let sizing = FrameSizing().following(bytesPerFrame: wholeFrame, framesPerSecond: 18, link: link20,
                                             fewerColours: true, columns: 80, rows: 24)
        XCTAssertEqual(sizing, FrameSizing(scale: 0.55, colourBits: 6))
        // Without colour steps (sixel, symbols, iTerm2) the frames stop at the floor at full colour: the player
        // drops what the link cannot carry.
        XCTAssertEqual(FrameSizing().following(bytesPerFrame: wholeFrame, framesPerSecond: 18, link: link20,
                                               columns: 80, rows: 24), FrameSizing(scale: FrameSizing.smallest))
    }

    func testAtTheColoursAndSizeChosenTheFramesFitAndTheSizingStays() {
        let sizing = FrameSizing().following(bytesPerFrame: wholeFrame, framesPerSecond: 18, link: link20,
                                             fewerColours: true, columns: 80, rows: 24)
        let cells = sizing.cells(columns: 80, rows: 24)
        let drawn = Int(Double(wholeFrame * cells.columns * cells.rows) / Double(80 * 24) * 0.7)
        XCTAssertTrue(link20.carries(bytesPerFrame: drawn, framesPerSecond: 18), "\(drawn) B a frame")
        XCTAssertEqual(sizing.following(bytesPerFrame: drawn, framesPerSecond: 18, link: link20, fewerColours: true,
                                        columns: 80, rows: 24), sizing)
    }

    func testALinkSlowerStillDropsToFiveBitsAndThenStaysAtTheFloor() {
        let slower = ThroughputWindow.Estimate(bytesPerSecond: 1_400_000, isSlow: true)
        // 0.132 of a whole frame: 6 bits fit 0.43 (under the floor), 5 bits (0.55 of the bytes) fit 0.49, also
        // under it: the floor at 5 bits, and the player drops what does not go.
        XCTAssertEqual(FrameSizing().following(bytesPerFrame: wholeFrame, framesPerSecond: 18, link: slower,
                                               fewerColours: true, columns: 80, rows: 24),
                       FrameSizing(scale: FrameSizing.smallest, colourBits: 5))
        let faster = ThroughputWindow.Estimate(bytesPerSecond: 1_600_000, isSlow: true)
        // 0.151: 5 bits fit 0.52, so 0.5 at 5 bits.
        XCTAssertEqual(FrameSizing().following(bytesPerFrame: wholeFrame, framesPerSecond: 18, link: faster,
                                               fewerColours: true, columns: 80, rows: 24),
                       FrameSizing(scale: 0.5, colourBits: 5))
    }

    func testColoursComeBackOnlyWhenTheLinkCarriesClearlyMore() {
        let reduced = FrameSizing(scale: 0.55, colourBits: 6)
        let cells = reduced.cells(columns: 80, rows: 24)
        let drawn = Int(Double(wholeFrame * cells.columns * cells.rows) / Double(80 * 24) * 0.7)
        // A link a little faster (0.5 of the width would fit at 8 bits): not worth flapping back to all colours.
        let little = ThroughputWindow.Estimate(bytesPerSecond: 2_700_000, isSlow: true)
        XCTAssertEqual(reduced.following(bytesPerFrame: drawn, framesPerSecond: 18, link: little, fewerColours: true,
                                         columns: 80, rows: 24), reduced)
        let fast = ThroughputWindow.Estimate(bytesPerSecond: 20_000_000, isSlow: false)
        // The colours come back first, then the size, a step a frame.
        let more = reduced.following(bytesPerFrame: drawn, framesPerSecond: 18, link: fast, fewerColours: true,
                                     columns: 80, rows: 24)
        XCTAssertEqual(more, FrameSizing(scale: 0.55, colourBits: 8))
        XCTAssertEqual(FrameSizing(scale: 0.55, colourBits: 5).grown(toward: FrameSizing()), FrameSizing(scale: 0.55, colourBits: 6))
        XCTAssertEqual(FrameSizing(scale: 0.95).grown(toward: FrameSizing()), FrameSizing())
    }

    func testAPlaybackOnALinkKnownToBeSlowStartsSmallUnlessTheLastOneSaidMore() {
        // Nothing measured, or a fast link: the whole area, as before.
        XCTAssertEqual(FrameSizing.starting(after: FrameSizing(), link: nil), FrameSizing())
        XCTAssertEqual(FrameSizing.starting(after: FrameSizing(),
                                            link: ThroughputWindow.Estimate(bytesPerSecond: 20_000_000, isSlow: false)),
                       FrameSizing())
        // Slow: the first frame at the smallest share (its bytes are not known before it is rendered).
        XCTAssertEqual(FrameSizing.starting(after: FrameSizing(), link: link20), FrameSizing(scale: FrameSizing.smallest))
        // The last playback's sizing is what the link took: kept.
        let last = FrameSizing(scale: 0.55, colourBits: 6)
        XCTAssertEqual(FrameSizing.starting(after: last, link: link20), last)
    }

    func testKeepingColourBitsRoundsEachChannelAndLeavesAlpha() {
        let frame = PixelFrame(width: 2, height: 1, rgba: [0, 3, 4, 7, 130, 252, 255, 200])
        XCTAssertEqual(frame.keepingColourBits(6).rgba, [0, 4, 4, 7, 132, 252, 252, 200])
        XCTAssertEqual(frame.keepingColourBits(5).rgba, [0, 0, 8, 7, 128, 248, 248, 200])
        XCTAssertEqual(frame.keepingColourBits(8).rgba, frame.rgba)
    }

    /// One pass gives the sizing and whether the link is what shrank the frames (the player asked twice per
    /// frame, the second time without the render): the same answers as the two calls, over many figures.
    func testTheReasonComesWithTheSizingAndMatchesAskingWithoutTheRender() {
        let link = ThroughputWindow.Estimate(bytesPerSecond: 2_500_000, isSlow: true)
        let byRender = FrameSizing().followingWithReason(bytesPerFrame: 100_000, framesPerSecond: 18, link: link,
                                                         renderSeconds: 0.400, columns: 160, rows: 48)
        XCTAssertEqual(byRender.sizing.scale, FrameSizing.smallest, accuracy: 1e-9)
        XCTAssertFalse(byRender.forTheLink, "the link carries these frames: the render shrank them")
        let byLink = FrameSizing().followingWithReason(bytesPerFrame: 209_000, framesPerSecond: 18, link: link,
                                                       renderSeconds: 0.010, columns: 160, rows: 48)
        XCTAssertLessThan(byLink.sizing.scale, 1)
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
                        // The link's own question: does it carry a whole frame (these bytes were the drawn share's)?
                        let drawn = sizing.cells(columns: 160, rows: 48)
                        let share = Double(drawn.columns * drawn.rows) / Double(160 * 48)
                        let askedWithoutRender = bytes > 0 && estimate.map {
                            !$0.carries(bytesPerFrame: Int(Double(bytes) / share), framesPerSecond: 18)
                        } == true
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
