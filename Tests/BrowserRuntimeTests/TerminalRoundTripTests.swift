@testable import BrowserRuntime
import Concurrent
import XCTest

/// The round trip through the terminal (issue 28.4) on an injected clock: writes never block (sshd's channel
/// window takes them), and a simulated link of a known rate and round trip says when the reply comes. No test
/// waits or reads real time.
final class TerminalRoundTripTests: XCTestCase {
    private func write(_ bytes: Int, _ meter: TerminalThroughput, _ link: inout SimulatedLink, _ clock: LinkTestClock) {
        meter.measure(bytes: bytes) { }
        link.write(bytes, at: clock.now)
    }

    /// The first query, with nothing in flight, learns the round trip.
    private func learnRoundTrip(_ meter: TerminalThroughput, _ link: inout SimulatedLink, _ clock: LinkTestClock) {
        XCTAssertTrue(meter.takeQueryDue(), "the first query measures the round trip")
        let reply = link.reply(toQueryAt: clock.now)
        clock.set(reply)
        meter.replyArrived(at: reply)
        XCTAssertNil(meter.estimate, "a round trip alone says nothing of the rate")
    }

    func testABurstThatNeverBlocksIsMeasuredByTheReply() {
        let clock = LinkTestClock(), meter = TerminalThroughput(clock: { clock.now })
        var link = SimulatedLink(rate: 2_500_000, roundTrip: 0.05)   // 20 Mbit/s, 50 ms
        learnRoundTrip(meter, &link, clock)
        clock.advance(by: 1)
        // A sixel first screen: 1 MB in four batches as pictures are decoded, none blocking.
        for _ in 0..<4 { write(250_000, meter, &link, clock); clock.advance(by: 0.01) }
        XCTAssertTrue(meter.takeQueryDue())
        XCTAssertFalse(meter.takeQueryDue(), "at most one query in flight")
        let reply = link.reply(toQueryAt: clock.now)
        XCTAssertNil(meter.estimate, "nothing known before the reply")
        clock.set(reply)
        meter.replyArrived(at: reply)
        XCTAssertEqual(meter.estimate?.bytesPerSecond ?? 0, 2_500_000, accuracy: 25_000)
        XCTAssertEqual(meter.estimate?.isSlow, true)
        XCTAssertEqual(LinkAdvice(meter.estimate).note, "link ~2.5 MB/s: motion hints off")
    }

    func testWritesWhileTheQueryIsInFlightCountTowardTheNextOne() {
        let clock = LinkTestClock(), meter = TerminalThroughput(clock: { clock.now })
        var link = SimulatedLink(rate: 1_000_000, roundTrip: 0.1)
        learnRoundTrip(meter, &link, clock)
        clock.advance(by: 2)
        write(500_000, meter, &link, clock)
        XCTAssertTrue(meter.takeQueryDue())
        let first = link.reply(toQueryAt: clock.now)
        // Movie frames go on while the query is out: queued behind it on the link.
        for _ in 0..<3 { clock.advance(by: 0.1); write(200_000, meter, &link, clock); XCTAssertFalse(meter.takeQueryDue()) }
        clock.set(first)
        meter.replyArrived(at: first)
        XCTAssertEqual(meter.estimate?.bytesPerSecond ?? 0, 1_000_000, accuracy: 10_000)
        XCTAssertTrue(meter.takeQueryDue(), "the frames written meanwhile are a burst of their own")
        let second = link.reply(toQueryAt: clock.now)
        clock.set(second)
        meter.replyArrived(at: second)
        XCTAssertEqual(meter.estimate?.bytesPerSecond ?? 0, 1_000_000, accuracy: 10_000)
    }

    func testPicturesWrittenSlowlyOnAFastLinkAreNotASlowLink() {
        let clock = LinkTestClock(), meter = TerminalThroughput(clock: { clock.now })
        var link = SimulatedLink(rate: 50_000_000, roundTrip: 0.05)
        learnRoundTrip(meter, &link, clock)
        // A picture every 0.3 s as they are decoded, a query after the first; the reply comes a round trip later.
        write(200_000, meter, &link, clock)
        XCTAssertTrue(meter.takeQueryDue())
        let reply = link.reply(toQueryAt: clock.now)
        for _ in 0..<3 { clock.advance(by: 0.3); write(200_000, meter, &link, clock) }
        meter.replyArrived(at: reply)
        XCTAssertNil(meter.estimate, "taken as fast as could be seen: nothing to say")
        XCTAssertTrue(meter.takeQueryDue())
        let next = link.reply(toQueryAt: clock.now)
        clock.set(next)
        meter.replyArrived(at: next)
        XCTAssertNil(meter.estimate, "pauses between pictures are not the link's time")
    }

    func testAFastReplyClearsAnOldSlowEstimate() {
        let clock = LinkTestClock(), meter = TerminalThroughput(clock: { clock.now })
        var slow = SimulatedLink(rate: 500_000, roundTrip: 0.05)
        learnRoundTrip(meter, &slow, clock)
        write(500_000, meter, &slow, clock)
        XCTAssertTrue(meter.takeQueryDue())
        var reply = slow.reply(toQueryAt: clock.now)
        clock.set(reply)
        meter.replyArrived(at: reply)
        XCTAssertEqual(meter.estimate?.isSlow, true)
        clock.advance(by: 60)
        XCTAssertEqual(meter.estimate?.isSlow, true, "the link stays known slow until something says otherwise")
        var fast = SimulatedLink(rate: 100_000_000, roundTrip: 0.05)
        write(500_000, meter, &fast, clock)
        XCTAssertTrue(meter.takeQueryDue())
        reply = fast.reply(toQueryAt: clock.now)
        clock.set(reply)
        meter.replyArrived(at: reply)
        XCTAssertNil(meter.estimate)
    }

    func testSmallWritesNeverAsk() {
        let clock = LinkTestClock(), meter = TerminalThroughput(clock: { clock.now })
        var link = SimulatedLink(rate: 1_000_000, roundTrip: 0.05)
        learnRoundTrip(meter, &link, clock)
        for _ in 0..<100 {
            clock.advance(by: 0.5)
            write(5_000, meter, &link, clock)
            XCTAssertFalse(meter.takeQueryDue(), "a few kilobytes: the round trip would be all it measured")
        }
        XCTAssertNil(meter.estimate)
    }

    func testATerminalThatNeverAnswersChangesNothing() {
        let clock = LinkTestClock(), meter = TerminalThroughput(clock: { clock.now })
        XCTAssertTrue(meter.takeQueryDue())
        for _ in 0..<200 {
            clock.advance(by: 0.1)
            meter.measure(bytes: 300_000) { }
            XCTAssertFalse(meter.takeQueryDue(), "one query in flight, never a second")
        }
        clock.advance(by: 10 + 60_000_000 / 50_000)
        XCTAssertFalse(meter.takeQueryDue(), "timed out: given up")
        XCTAssertFalse(meter.isQueryInFlight)
        // Its late reply, or a key looking like one, is no measurement; nothing is kept any more.
        meter.replyArrived(at: clock.now)
        for _ in 0..<10_000 { clock.advance(by: 0.01); meter.measure(bytes: 300_000) { } }
        XCTAssertFalse(meter.takeQueryDue())
        XCTAssertNil(meter.estimate)
        var roundTrip = TerminalRoundTrip()
        XCTAssertTrue(roundTrip.takeQueryDue(at: 0))
        _ = roundTrip.takeQueryDue(at: 1000)
        XCTAssertTrue(roundTrip.gaveUp)
        for i in 0..<10_000 { roundTrip.record(bytes: 1000, at: Double(1000 + i)) }
        XCTAssertEqual(roundTrip.pendingWrites, 0)
    }

    func testWritesKeptPerQueryAreBounded() {
        var roundTrip = TerminalRoundTrip()
        XCTAssertTrue(roundTrip.takeQueryDue(at: 0))
        for i in 0..<10_000 { roundTrip.record(bytes: 1000, at: 0.5 + Double(i) * 0.01) }
        XCTAssertLessThanOrEqual(roundTrip.pendingWrites, roundTrip.settings.maximumWrites)
    }

    func testAReplyWithNoQueryChangesNothing() {
        let clock = LinkTestClock(), meter = TerminalThroughput(clock: { clock.now })
        meter.replyArrived(at: clock.now)
        meter.measure(bytes: 1_000_000) { }
        clock.advance(by: 5)
        meter.replyArrived(at: clock.now)
        XCTAssertNil(meter.estimate)
    }

    func testTheSlowerMeterCounts() {
        let clock = LinkTestClock(), meter = TerminalThroughput(clock: { clock.now })
        var link = SimulatedLink(rate: 3_000_000, roundTrip: 0.05)
        learnRoundTrip(meter, &link, clock)
        write(600_000, meter, &link, clock)
        XCTAssertTrue(meter.takeQueryDue())
        let reply = link.reply(toQueryAt: clock.now)
        clock.set(reply)
        meter.replyArrived(at: reply)
        XCTAssertEqual(meter.estimate?.bytesPerSecond ?? 0, 3_000_000, accuracy: 30_000)
        // Later, writes block at 1 MB/s: the blocking meter is slower, and counts.
        clock.advance(by: ThroughputWindow().span + 1)
        for _ in 0..<5 { meter.measure(bytes: 100_000) { clock.advance(by: 0.1) } }
        XCTAssertEqual(meter.estimate?.bytesPerSecond ?? 0, 1_000_000, accuracy: 10_000)
    }
}
