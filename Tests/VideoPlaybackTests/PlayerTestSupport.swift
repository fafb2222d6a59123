import Concurrent
import Foundation
import Imaging
import VideoPlayback
import XCTest

/// A movie made of `frameCount` tiny frames, one every `interval` seconds (binary fractions keep the
/// arithmetic exact): the player's timing, tested without a codec.
final class SyntheticMovie: MovieFrameSource {
    let frameCount: Int
    let interval: Double
    private var next = 0
    private(set) var skippedFrames = 0

    init(frameCount: Int, interval: Double = 0.125) {
        self.frameCount = frameCount
        self.interval = interval
    }

    var streamInfo: MovieStreamInfo? { nil }

    func nextFrame(fitting box: PixelSize?,
                   skippingWhere isLate: ((_ pts: Double, _ duration: Double) -> Bool)?) throws(LibavError) -> DecodedFrame? {
        while next < frameCount {
            let index = next
            let pts = Double(index) * interval
            next += 1
            if let isLate, isLate(pts, interval) {
                skippedFrames += 1
                continue
            }
            let size = box ?? PixelSize(width: 2, height: 2)
            return DecodedFrame(pixels: PixelFrame(width: size.width, height: size.height), pts: pts, duration: interval, index: index)
        }
        return nil
    }

    func seek(to seconds: Double) throws(LibavError) {
        next = max(0, Int((seconds / interval).rounded(.down)))
    }
}

/// What a video sink was given, with the player's clock at that moment.
final class PresentedLog: Sendable {
    private let entries = Locked<[(pts: Double, time: Double, size: PixelSize)]>([])

    func add(_ frame: DecodedFrame, at time: Double) {
        entries.withLockedValue { $0.append((frame.pts, time, PixelSize(width: frame.pixels.width, height: frame.pixels.height))) }
    }

    var pts: [Double] { entries.withLockedValue { $0.map(\.pts) } }
    var times: [Double] { entries.withLockedValue { $0.map(\.time) } }
    var sizes: [PixelSize] { entries.withLockedValue { $0.map(\.size) } }
    var count: Int { entries.withLockedValue { $0.count } }
}

/// A video sink that records each frame at the clock's time, then runs `after` (a slow sink moves the
/// clock there, as the time its drawing took).
struct RecordingSink: VideoSink {
    let log: PresentedLog
    let clock: any PlaybackClock
    var after: @Sendable (DecodedFrame) -> Void = { _ in }

    func prepare(_ frame: DecodedFrame) -> DecodedFrame? { frame }

    func present(_ frame: DecodedFrame, _ picture: DecodedFrame) {
        log.add(frame, at: clock.now())
        after(frame)
    }
}

/// Runs a playback on a manual clock to its end: each time the player sleeps, time moves to the moment it
/// sleeps until (so every frame comes exactly at its deadline, unless a sink moved time past it). Waits
/// for the player's threads only as long as they work, bounded by `timeout` seconds of real time.
@discardableResult
func drive(_ player: MoviePlayer, on clock: ManualPlaybackClock, timeout: Double = 30) -> PlaybackEnd? {
    let giveUp = MonotonicClock.now() + timeout
    while MonotonicClock.now() < giveUp {
        if let end = player.end { return end }
        if let deadline = clock.nextDeadline(waitingUpTo: 0.05) { clock.advance(to: deadline) }
    }
    return player.end
}

/// Holds a player for a sink that stops it.
final class PlayerHolder: Sendable {
    private let held = Locked<MoviePlayer?>(nil)
    var player: MoviePlayer? {
        get { held.value }
        set { held.set(newValue) }
    }
}

/// A master clock (the sound, in issue 29) running `lag` seconds behind the playback clock from `origin`.
struct LaggingMaster: MasterClock {
    let clock: ManualPlaybackClock
    let origin: Double
    let lag: Double
    func position() -> Double? { clock.now() - origin - lag }
}
