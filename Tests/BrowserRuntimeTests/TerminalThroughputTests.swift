@testable import BrowserRuntime
import Concurrent
import XCTest

/// The terminal meter and what livegrid does about a slow link, on an injected clock: a "write" moves the
/// clock by the time it would block, so no test waits or reads real time.
final class TerminalThroughputTests: XCTestCase {
    private func meter(_ clock: LinkTestClock) -> TerminalThroughput {
        TerminalThroughput(clock: { clock.now })
    }

    func testWritesThatNeverBlockGiveNoEstimate() {
        let clock = LinkTestClock(), meter = meter(clock)
        for _ in 0..<100 { meter.measure(bytes: 200_000) { clock.advance(by: 0.0001) } }
        XCTAssertNil(meter.estimate, "20 MB taken in 10 ms of writing: a local terminal, nothing to say")
        XCTAssertEqual(LinkAdvice(meter.estimate), LinkAdvice(nil))
        XCTAssertFalse(LinkAdvice(meter.estimate).holdsHints)
        XCTAssertNil(LinkAdvice(meter.estimate).note)
    }

    func testBlockedWritesMeasureTheLinkAndASlowOneHoldsHints() {
        let clock = LinkTestClock(), meter = meter(clock)
        // 20 Mbit/s: a 250 KB picture blocks for 0.1 s.
        for _ in 0..<8 { meter.measure(bytes: 250_000) { clock.advance(by: 0.1) } }
        let estimate = meter.estimate
        XCTAssertNotNil(estimate)
        XCTAssertEqual(estimate?.bytesPerSecond ?? 0, 2_500_000, accuracy: 1)
        XCTAssertEqual(estimate?.isSlow, true)
        XCTAssertEqual(estimate?.shortDescription, "~2.5 MB/s")
        let advice = LinkAdvice(estimate)
        XCTAssertTrue(advice.holdsHints)
        XCTAssertEqual(advice.note, "link ~2.5 MB/s: motion hints off")
    }

    func testAFastLinkThatBlocksIsNotSlow() {
        let clock = LinkTestClock(), meter = meter(clock)
        for _ in 0..<10 { meter.measure(bytes: 2_000_000) { clock.advance(by: 0.05) } }
        XCTAssertEqual(meter.estimate?.bytesPerSecond ?? 0, 40_000_000, accuracy: 1)
        XCTAssertEqual(meter.estimate?.isSlow, false)
        XCTAssertFalse(LinkAdvice(meter.estimate).holdsHints)
    }

    func testOldWritesAgeOutOfTheWindow() {
        let clock = LinkTestClock(), meter = meter(clock)
        for _ in 0..<5 { meter.measure(bytes: 100_000) { clock.advance(by: 0.1) } }
        XCTAssertEqual(meter.estimate?.isSlow, true)
        clock.advance(by: ThroughputWindow().span + 0.01)
        XCTAssertNil(meter.estimate, "nothing written for longer than the window: the link is no longer known slow")
        // The window keeps only what is recent: a new fast burst is judged on its own.
        for _ in 0..<5 { meter.measure(bytes: 1_000_000) { clock.advance(by: 0.05) } }
        XCTAssertEqual(meter.estimate?.bytesPerSecond ?? 0, 20_000_000, accuracy: 1)
    }

    func testCarriesAMovieOnlyWithHeadroom() {
        let estimate = ThroughputWindow.Estimate(bytesPerSecond: 2_500_000, isSlow: true)
        XCTAssertTrue(estimate.carries(bytesPerFrame: 60_000, framesPerSecond: 30), "1.8 MB/s, 2.25 with headroom")
        XCTAssertFalse(estimate.carries(bytesPerFrame: 209_000, framesPerSecond: 30), "symbols 160x48: 6.3 MB/s")
    }

    func testShortDescriptions() {
        XCTAssertEqual(ThroughputWindow.Estimate(bytesPerSecond: 25_400_000, isSlow: false).shortDescription, "~25 MB/s")
        XCTAssertEqual(ThroughputWindow.Estimate(bytesPerSecond: 620_000, isSlow: true).shortDescription, "~0.6 MB/s")
        XCTAssertEqual(ThroughputWindow.Estimate(bytesPerSecond: 48_000, isSlow: true).shortDescription, "~48 KB/s")
    }
}
