@testable import BrowserRuntime
import Concurrent
import XCTest

/// Issue 28.4, "never queue megabytes of pictures for a screen already left": pictures go only while what the
/// terminal has not taken yet fits the link's budget. On an injected clock and a simulated link (writes never
/// block, as over SSH); no test reads real time.
final class PictureBudgetTests: XCTestCase {
    func testTheLimitIsWhatTheLinkDrainsInAShortTime() {
        XCTAssertEqual(PictureBudget.limit(bytesPerSecond: nil), PictureBudget.unmeasured)
        XCTAssertEqual(PictureBudget.limit(bytesPerSecond: 2_500_000), 300_000, "20 Mbit/s: 0.12 s of it")
        XCTAssertEqual(PictureBudget.limit(bytesPerSecond: 50_000), PictureBudget.smallest)
        XCTAssertEqual(PictureBudget.limit(bytesPerSecond: 100_000_000), PictureBudget.largest)
    }

    func testPicturesFitTheBudgetButOneAlwaysGoesWhenNothingIsInFlight() {
        var budget = PictureBudget(backlog: 0, limit: 100_000)
        XCTAssertTrue(budget.admits(400_000), "nothing in flight: even a picture over the budget goes")
        budget.spend(60_000)
        XCTAssertTrue(budget.admits(40_000))
        XCTAssertFalse(budget.admits(40_001))
        budget.spend(40_000)
        XCTAssertFalse(budget.admits(1))
        XCTAssertFalse(PictureBudget(backlog: 1, limit: 100_000).admits(400_000))
    }

    func testNothingIsHeldForATerminalThatNeverAnswered() {
        let clock = LinkTestClock(), meter = TerminalThroughput(clock: { clock.now })
        meter.measure(bytes: 900_000) { }
        XCTAssertNil(meter.pictureBudget())
        meter.holdPictures(firstBytes: 50_000)
        XCTAssertTrue(meter.heldPicturesAdmitted, "without a budget, held pictures (a key came) go next turn")
    }

    func testHeldPicturesAskTheTerminalAndGoOnceItTookWhatWasInFlight() {
        let clock = LinkTestClock(), meter = TerminalThroughput(clock: { clock.now })
        var link = SimulatedLink(rate: 200_000, roundTrip: 0.05)
        XCTAssertTrue(meter.takeQueryDue(), "the first query learns the round trip")
        let first = link.reply(toQueryAt: clock.now)
        clock.set(first)
        meter.replyArrived(at: first)
        XCTAssertEqual(meter.pictureBudget(), PictureBudget(backlog: 0, limit: PictureBudget.unmeasured))

        clock.advance(by: 1)
        meter.measure(bytes: 90_000) { }
        link.write(90_000, at: clock.now)
        XCTAssertEqual(meter.pictureBudget()?.backlog, 90_000, "no rate known: all of it is in flight until a reply")
        XCTAssertFalse(meter.takeQueryDue(), "90 KB is no burst worth a query by itself")
        meter.holdPictures(firstBytes: 90_000)
        XCTAssertFalse(meter.heldPicturesAdmitted)
        XCTAssertTrue(meter.takeQueryDue(), "held pictures ask what the terminal took")
        XCTAssertEqual(meter.heldPicturesDeadline ?? 0, clock.now + TerminalThroughput.heldPicturesRecheck,
                       accuracy: 1e-9, "no rate: looked at again soon, the reply may come first")
        let reply = link.reply(toQueryAt: clock.now)
        clock.set(reply)
        meter.replyArrived(at: reply)
        XCTAssertEqual(meter.pictureBudget()?.backlog, 0)
        XCTAssertTrue(meter.heldPicturesAdmitted)
        meter.holdPictures(firstBytes: nil)
        XCTAssertFalse(meter.heldPicturesAdmitted, "nothing held")
        XCTAssertNil(meter.heldPicturesDeadline)
    }

    func testWithARateTheBacklogDrainsWithTimeAndTheDeadlineIsWhenTheNextPictureFits() {
        let clock = LinkTestClock(), meter = TerminalThroughput(clock: { clock.now })
        var link = SimulatedLink(rate: 1_000_000, roundTrip: 0.05)
        XCTAssertTrue(meter.takeQueryDue())
        var reply = link.reply(toQueryAt: clock.now)
        clock.set(reply)
        meter.replyArrived(at: reply)
        // A burst measures the rate: 500 KB at 1 MB/s.
        clock.advance(by: 1)
        meter.measure(bytes: 500_000) { }
        link.write(500_000, at: clock.now)
        XCTAssertTrue(meter.takeQueryDue())
        reply = link.reply(toQueryAt: clock.now)
        clock.set(reply)
        meter.replyArrived(at: reply)
        XCTAssertEqual(meter.estimate?.bytesPerSecond ?? 0, 1_000_000, accuracy: 10_000)

        // Three pictures of 100 KB written at once: 0.3 s of the link.
        clock.advance(by: 1)
        let written = clock.now
        for _ in 0..<3 { meter.measure(bytes: 100_000) { } }
        let limit = PictureBudget.limit(bytesPerSecond: meter.estimate?.bytesPerSecond)
        XCTAssertEqual(meter.pictureBudget()?.backlog ?? 0, 300_000, accuracy: 5_000)
        clock.advance(by: 0.1)
        XCTAssertEqual(meter.pictureBudget()?.backlog ?? 0, 200_000, accuracy: 5_000, "a tenth of a second drained")
        meter.holdPictures(firstBytes: 100_000)
        XCTAssertFalse(meter.heldPicturesAdmitted)
        // The next 100 KB picture fits once the backlog is down to limit - 100 KB.
        let expected = written + (300_000 - Double(limit - 100_000)) / 1_000_000
        XCTAssertEqual(meter.heldPicturesDeadline ?? 0, expected, accuracy: 0.01)
        clock.set(expected - 0.02)
        XCTAssertFalse(meter.heldPicturesAdmitted)
        clock.set(expected + 0.002)
        XCTAssertTrue(meter.heldPicturesAdmitted)
    }
}
