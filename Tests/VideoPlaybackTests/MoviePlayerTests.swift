import Foundation
import Imaging
import MediaFormats
import TestSupport
import VideoPlayback
import XCTest

/// A gate a test opens once: whoever waits on it blocks until then (bounded, so a failing test never hangs).
private final class Gate: @unchecked Sendable {
    private let opened = DispatchSemaphore(value: 0)
    func open() { for _ in 0..<64 { opened.signal() } }
    func pass() { _ = opened.wait(timeout: .now() + 30) }
}

/// A byte source whose reads wait until the gate opens: playback that read the movie on the caller's
/// thread would block there.
private struct GatedByteSource: ByteSource {
    let base: FileByteSource
    let gate: Gate
    var size: UInt64 { base.size }
    func read(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
        gate.pass()
        return try base.read(at: offset, count: count)
    }
}

final class MoviePlayerTests: XCTestCase {
    private func trainSource() throws -> FileByteSource { try FileByteSource(path: Fixtures.committed("train.mov")) }

    /// On a manual clock time moves only when the player waits, so every frame comes exactly at its
    /// deadline: none is late, none dropped, and the playback lasts the movie's length.
    func testPlaysTrainInOrderAtItsOwnTimes() throws {
        let clock = ManualPlaybackClock()
        let log = PresentedLog()
        let ended = expectation(description: "ended")
        let player = MoviePlayer(source: try trainSource(), options: PlaybackOptions(targetSize: PixelSize(width: 160, height: 120)),
                                 clock: clock, video: RecordingSink(log: log, clock: clock), onEnd: { end, _ in
                                     XCTAssertEqual(end, .finished)
                                     ended.fulfill()
                                 })
        let began = clock.now()
        player.start()
        XCTAssertEqual(drive(player, on: clock), .finished)
        wait(for: [ended], timeout: 5)
        let pts = log.pts
        XCTAssertEqual(pts.count, 22, "every frame shown")
        for (a, b) in zip(pts, pts.dropFirst()) { XCTAssertLessThan(a, b) }
        XCTAssertEqual(pts.first ?? -1, 0, accuracy: 0.001)
        XCTAssertEqual(log.sizes.first, PixelSize(width: 160, height: 120))
        let stats = player.stats
        print("train.mov playback at 160x120 on a manual clock: \(stats)")
        XCTAssertEqual(stats.framesShown, 22)
        XCTAssertEqual(stats.framesDropped, 0)
        XCTAssertEqual(stats.firstFrameLatency, 0, "time stood still while the movie opened")
        XCTAssertEqual(stats.wallTime, 1.233, accuracy: 0.05, "the last frame stays up for its duration")
        XCTAssertEqual(clock.now() - began, stats.wallTime, accuracy: 1e-9)
        XCTAssertEqual(player.end, .finished)
        XCTAssertEqual(player.info?.codedSize, PixelSize(width: 1440, height: 1080))
        // Each frame arrives exactly at its deadline (relative to the first).
        let times = log.times
        if let firstTime = times.first, let firstPTS = pts.first {
            for (time, p) in zip(times, pts) { XCTAssertEqual(time - firstTime, p - firstPTS, accuracy: 1e-9) }
        }
    }

    /// start() hands the movie to the decode thread and returns: it returns while every read of the movie
    /// is held back (a start() that opened or decoded on the caller's thread would wait for the gate).
    func testStartReturnsBeforeTheMovieIsRead() throws {
        let gate = Gate()
        let clock = ManualPlaybackClock()
        let player = MoviePlayer(source: GatedByteSource(base: try trainSource(), gate: gate),
                                 options: PlaybackOptions(targetSize: PixelSize(width: 64, height: 48)), clock: clock,
                                 video: ClosureVideoSink { _ in })
        let returned = expectation(description: "start() returned")
        let caller = Thread { player.start(); returned.fulfill() }
        caller.start()
        wait(for: [returned], timeout: 20)
        XCTAssertNil(player.end, "nothing read yet, so playback cannot have ended")
        gate.open()
        XCTAssertEqual(drive(player, on: clock), .finished, "once the gate opens the movie plays")
    }

    /// stop() only asks: it returns while the presenter thread is stuck in the sink.
    func testStopReturnsWhileTheSinkIsBusy() throws {
        let gate = Gate()
        let inSink = expectation(description: "the sink holds the presenter")
        inSink.assertForOverFulfill = false
        let player = MoviePlayer(source: try trainSource(), options: PlaybackOptions(targetSize: PixelSize(width: 64, height: 48)),
                                 clock: ManualPlaybackClock(), video: ClosureVideoSink { _ in inSink.fulfill(); gate.pass() })
        player.start()
        wait(for: [inSink], timeout: 20)
        let returned = expectation(description: "stop() returned")
        let caller = Thread { player.stop(); returned.fulfill() }
        caller.start()
        wait(for: [returned], timeout: 20)
        XCTAssertNil(player.end, "the sink still holds the presenter, so playback has not ended yet")
        gate.open()
        XCTAssertEqual(player.waitUntilEnded(timeout: 15), .stopped)
    }

    /// stop() ends a playback that sleeps until its next frame without time moving at all.
    func testStopMidPlayEndsWithoutTimeMoving() throws {
        let clock = ManualPlaybackClock()
        let log = PresentedLog()
        let player = MoviePlayer(source: try trainSource(), options: PlaybackOptions(targetSize: PixelSize(width: 64, height: 48)),
                                 clock: clock, video: RecordingSink(log: log, clock: clock))
        player.start()
        // The player sleeps after presenting: once it sleeps with three frames shown, it waits for the fourth.
        while true {
            guard let deadline = clock.nextDeadline(waitingUpTo: 10) else { return XCTFail("the player never waited for a frame") }
            if log.count >= 3 { break }
            clock.advance(to: deadline)
        }
        let stoppedAt = clock.now()
        player.stop()
        XCTAssertEqual(player.waitUntilEnded(timeout: 5), .stopped)
        XCTAssertEqual(clock.now(), stoppedAt, "stopped within the tick it was asked in")
        let shown = log.count
        clock.advance(by: 10)
        XCTAssertEqual(log.count, shown, "no frames after the end")
        XCTAssertEqual(shown, 3)
    }

    func testStopFromInsideTheSink() throws {
        let holder = PlayerHolder()
        let clock = ManualPlaybackClock()
        let player = MoviePlayer(source: try trainSource(), options: PlaybackOptions(targetSize: PixelSize(width: 32, height: 32)),
                                 clock: clock, video: ClosureVideoSink { frame in if frame.index >= 1 { holder.player?.stop() } })
        holder.player = player
        player.start()
        XCTAssertEqual(drive(player, on: clock), .stopped)
        XCTAssertLessThanOrEqual(player.stats.framesShown, 3)
    }

    /// A sink that takes 0.2 s per frame (it moves the clock by that much) costs frames, not time.
    func testSlowSinkDropsFramesInsteadOfDrifting() throws {
        let clock = ManualPlaybackClock()
        let log = PresentedLog()
        let player = MoviePlayer(source: try trainSource(), options: PlaybackOptions(targetSize: PixelSize(width: 64, height: 48)),
                                 clock: clock, video: RecordingSink(log: log, clock: clock, after: { _ in clock.advance(by: 0.2) }))
        let began = clock.now()
        player.start()
        XCTAssertEqual(drive(player, on: clock), .finished)
        let stats = player.stats
        XCTAssertGreaterThan(stats.framesDropped, 5)
        XCTAssertEqual(stats.framesShown + stats.framesDropped, 22)
        XCTAssertLessThan(clock.now() - began, 1.233 + 0.2 + 0.01, "a slow sink must not stretch playback")
    }

    func testGarbageReportsFailureWithoutFrames() {
        let clock = ManualPlaybackClock()
        let log = PresentedLog()
        let player = MoviePlayer(source: MemoryByteSource(Array(repeating: 0x42, count: 10_000)), clock: clock,
                                 video: RecordingSink(log: log, clock: clock))
        player.start()
        guard case .failed(let error)? = drive(player, on: clock) else { return XCTFail("expected a failure") }
        XCTAssertTrue(error.description.hasPrefix("cannot decode"), error.description)
        XCTAssertEqual(log.count, 0)
    }

    func testMotionPhotoEmbeddedMoviePlaysFromSlice() throws {
        let still = try FileByteSource(path: Fixtures.committed("motion-photo-v1.jpeg"))
        let movie = SliceByteSource(base: still, range: ByteRange(offset: 30821, length: 122562))
        let clock = ManualPlaybackClock()
        let log = PresentedLog()
        // Half a second only, from 1 s.
        let player = MoviePlayer(source: movie, options: PlaybackOptions(targetSize: PixelSize(width: 80, height: 60),
                                                                          startTime: 1.0, endTime: 1.5),
                                 clock: clock, video: RecordingSink(log: log, clock: clock))
        player.start()
        XCTAssertEqual(drive(player, on: clock), .finished)
        let pts = log.pts
        XCTAssertGreaterThan(pts.count, 5)
        XCTAssertEqual(pts.first ?? 0, 1.0, accuracy: 0.02)
        XCTAssertLessThan(pts.last ?? 9, 1.5)
    }
}
