import Foundation
import Imaging
import VideoPlayback
import XCTest

/// The media player's timing on a manual clock with recording sinks: frames at their own times, drops when
/// the sink is slow, stop within one tick, looping, and pictures following a master clock (the sound's).
/// Nothing here sleeps or reads the wall clock for an assertion.
final class MediaPlayerClockTests: XCTestCase {
    private func makePlayer(frames: Int, options: PlaybackOptions = PlaybackOptions(), clock: ManualPlaybackClock,
                        master: (any MasterClock)? = nil, sink: RecordingSink) -> MoviePlayer {
        MoviePlayer(options: options, clock: clock, master: master, openDecoder: { SyntheticMovie(frameCount: frames) }, video: sink)
    }

    func testFramesArriveAtTheirTimestamps() {
        let clock = ManualPlaybackClock(now: 50)
        let log = PresentedLog()
        let player = makePlayer(frames: 8, clock: clock, sink: RecordingSink(log: log, clock: clock))
        player.start()
        XCTAssertEqual(drive(player, on: clock), .finished)
        XCTAssertEqual(log.pts, (0..<8).map { Double($0) * 0.125 })
        XCTAssertEqual(log.times, (0..<8).map { 50 + Double($0) * 0.125 }, "each frame exactly at start + pts")
        XCTAssertEqual(player.stats.framesShown, 8)
        XCTAssertEqual(player.stats.framesDropped, 0)
        XCTAssertEqual(player.stats.wallTime, 1.0, "the last frame stays up for its duration")
        XCTAssertEqual(clock.now(), 51)
    }

    /// The sink takes 0.2 s to draw each frame of a 0.125 s movie: every frame whose slot has passed is
    /// dropped, no frame is shown later than the freeze limit, and the playback ends on time.
    func testSlowSinkDropsLateFramesAndKeepsTime() {
        let clock = ManualPlaybackClock(now: 0)
        let log = PresentedLog()
        let player = makePlayer(frames: 16, clock: clock, sink: RecordingSink(log: log, clock: clock, after: { _ in clock.advance(by: 0.2) }))
        player.start()
        XCTAssertEqual(drive(player, on: clock), .finished)
        let stats = player.stats
        XCTAssertGreaterThanOrEqual(stats.framesDropped, 3)
        XCTAssertEqual(stats.framesShown + stats.framesDropped, 16)
        XCTAssertEqual(log.count, stats.framesShown)
        for (pts, time) in zip(log.pts, log.times) {
            XCTAssertGreaterThanOrEqual(time, pts, "never early")
            XCTAssertLessThanOrEqual(time - pts, 0.25 + 1e-9, "never later than the freeze limit")
        }
        XCTAssertLessThanOrEqual(clock.now(), 2.0 + 0.2 + 1e-9, "the slow sink did not stretch the 2 s movie")
    }

    func testStopEndsWithinTheTickItIsAskedIn() {
        let clock = ManualPlaybackClock(now: 0)
        let log = PresentedLog()
        let player = makePlayer(frames: 100, clock: clock, sink: RecordingSink(log: log, clock: clock))
        player.start()
        guard clock.nextDeadline(waitingUpTo: 10) != nil else { return XCTFail("the player never slept") }
        XCTAssertEqual(log.count, 1, "the first frame is shown at once, then the player sleeps until the second")
        player.stop()
        XCTAssertEqual(player.waitUntilEnded(timeout: 10), .stopped)
        XCTAssertEqual(clock.now(), 0, "no time had to pass")
        XCTAssertEqual(clock.sleeperCount, 0)
        clock.advance(by: 100)
        XCTAssertEqual(log.count, 1, "nothing after the stop")
    }

    /// Looping (the studio's loop and bounce previews): pass after pass with no gap and no drift, until stopped.
    func testLoopPlaysAgainWithoutAGapUntilStopped() {
        let clock = ManualPlaybackClock(now: 0)
        let log = PresentedLog()
        let holder = PlayerHolder()
        let sink = RecordingSink(log: log, clock: clock, after: { _ in if log.count >= 10 { holder.player?.stop() } })
        let player = makePlayer(frames: 4, options: PlaybackOptions(loops: true), clock: clock, sink: sink)
        holder.player = player
        player.start()
        XCTAssertEqual(drive(player, on: clock), .stopped)
        XCTAssertEqual(log.pts, [0, 0.125, 0.25, 0.375, 0, 0.125, 0.25, 0.375, 0, 0.125])
        XCTAssertEqual(log.times, (0..<10).map { Double($0) * 0.125 })
        XCTAssertEqual(player.stats.framesDropped, 0)
    }

    /// A loop over a window of the movie (start and end time) repeats that window only.
    func testLoopOfAWindowRepeatsTheWindow() {
        let clock = ManualPlaybackClock(now: 0)
        let log = PresentedLog()
        let holder = PlayerHolder()
        let sink = RecordingSink(log: log, clock: clock, after: { _ in if log.count >= 6 { holder.player?.stop() } })
        let player = makePlayer(frames: 16, options: PlaybackOptions(startTime: 0.5, endTime: 0.875, loops: true), clock: clock, sink: sink)
        holder.player = player
        player.start()
        XCTAssertEqual(drive(player, on: clock), .stopped)
        XCTAssertEqual(log.pts, [0.5, 0.625, 0.75, 0.5, 0.625, 0.75])
        XCTAssertEqual(log.times, (0..<6).map { Double($0) * 0.125 })
    }

    /// While a master clock (the sound) answers, frames are due when it reaches their time: here it runs
    /// 0.5 s behind, so every frame comes 0.5 s later than on the playback clock alone.
    func testFramesFollowTheMasterClock() {
        let clock = ManualPlaybackClock(now: 10)
        let log = PresentedLog()
        let player = makePlayer(frames: 4, clock: clock, master: LaggingMaster(clock: clock, origin: 10, lag: 0.5),
                            sink: RecordingSink(log: log, clock: clock))
        player.start()
        XCTAssertEqual(drive(player, on: clock), .finished)
        XCTAssertEqual(log.times, [10.5, 10.625, 10.75, 10.875])
    }

    /// A master clock ahead of the pictures makes them drop frames to catch up; it never waits for them.
    func testFramesBehindTheMasterClockAreDropped() {
        let clock = ManualPlaybackClock(now: 0)
        let log = PresentedLog()
        let player = makePlayer(frames: 8, clock: clock, master: LaggingMaster(clock: clock, origin: 0, lag: -0.3),
                            sink: RecordingSink(log: log, clock: clock))
        player.start()
        XCTAssertEqual(drive(player, on: clock), .finished)
        XCTAssertEqual(log.pts.first, 0, "the first frame is always shown")
        XCTAssertFalse(log.pts.contains(0.125), "its slot was over by the master's time")
        XCTAssertGreaterThanOrEqual(player.stats.framesDropped, 1)
        for (pts, time) in zip(log.pts.dropFirst(), log.times.dropFirst()) {
            let heard = time + 0.3
            XCTAssertTrue(pts <= heard + 1e-9 && heard < pts + 0.125 + 0.005, "frame \(pts) shown while the master was at \(heard)")
        }
    }

    func testTargetSizeChangesForTheNextFrames() {
        let clock = ManualPlaybackClock(now: 0)
        let log = PresentedLog()
        let holder = PlayerHolder()
        let sink = RecordingSink(log: log, clock: clock, after: { frame in
            if frame.index == 0 { holder.player?.setTargetSize(PixelSize(width: 8, height: 6)) }
        })
        let player = makePlayer(frames: 8, options: PlaybackOptions(targetSize: PixelSize(width: 4, height: 3), queueDepth: 1),
                            clock: clock, sink: sink)
        holder.player = player
        player.start()
        XCTAssertEqual(drive(player, on: clock), .finished)
        XCTAssertEqual(log.sizes.first, PixelSize(width: 4, height: 3))
        XCTAssertEqual(log.sizes.last, PixelSize(width: 8, height: 6))
    }
}
