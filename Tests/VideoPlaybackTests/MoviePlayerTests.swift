import Foundation
import Imaging
import MediaFormats
import TestSupport
import VideoPlayback
import XCTest

/// Collects what the sink receives, from the presenter thread.
private final class FrameLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _pts: [Double] = []
    private var _sizes: [PixelSize] = []
    private var _arrivals: [Double] = []
    func add(_ frame: DecodedFrame) {
        lock.withLock {
            _pts.append(frame.pts)
            _sizes.append(PixelSize(width: frame.pixels.width, height: frame.pixels.height))
            _arrivals.append(MonotonicClock.now())
        }
    }
    var pts: [Double] { lock.withLock { _pts } }
    var sizes: [PixelSize] { lock.withLock { _sizes } }
    var arrivals: [Double] { lock.withLock { _arrivals } }
}

private final class PlayerHolder: @unchecked Sendable {
    var player: MoviePlayer?
}

final class MoviePlayerTests: XCTestCase {
    private func trainSource() throws -> FileByteSource { try FileByteSource(path: Fixtures.committed("train.mov")) }

    func testPlaysTrainInOrderInAboutTheMovieDuration() throws {
        let log = FrameLog()
        let ended = expectation(description: "ended")
        let player = MoviePlayer(source: try trainSource(), options: PlaybackOptions(targetSize: PixelSize(width: 160, height: 120)),
                                 sink: { log.add($0) }, onEnd: { end, _ in
                                     XCTAssertEqual(end, .finished)
                                     ended.fulfill()
                                 })
        let began = MonotonicClock.now()
        player.start()
        XCTAssertLessThan(MonotonicClock.now() - began, 0.05, "start() must not block")
        wait(for: [ended], timeout: 15)
        XCTAssertNotNil(player.waitUntilEnded(timeout: 1))
        let wall = MonotonicClock.now() - began
        let pts = log.pts
        XCTAssertGreaterThan(pts.count, 10, "most frames shown")
        for (a, b) in zip(pts, pts.dropFirst()) { XCTAssertLessThan(a, b) }
        XCTAssertEqual(pts.first ?? -1, 0, accuracy: 0.001)
        XCTAssertEqual(log.sizes.first, PixelSize(width: 160, height: 120))
        // Loose bounds: this is a shared 2-core machine, not a benchmark.
        XCTAssertGreaterThan(wall, 1.1)
        XCTAssertLessThan(wall, 4.0)
        let stats = player.stats
        print("train.mov playback at 160x120: \(stats)")
        XCTAssertEqual(stats.framesShown + stats.framesDropped, 22)
        XCTAssertNotNil(stats.firstFrameLatency)
        XCTAssertEqual(stats.wallTime, 1.233, accuracy: 0.6)
        XCTAssertEqual(player.end, .finished)
        XCTAssertEqual(player.info?.codedSize, PixelSize(width: 1440, height: 1080))
        // Frames arrive no earlier than their deadlines (relative to the first).
        let arrivals = log.arrivals
        if let firstArrival = arrivals.first, let firstPTS = pts.first {
            for (arrival, p) in zip(arrivals, pts) {
                XCTAssertGreaterThanOrEqual(arrival - firstArrival, p - firstPTS - 0.002)
            }
        }
    }

    func testStopMidPlayReturnsPromptlyAndEnds() throws {
        let log = FrameLog()
        let player = MoviePlayer(source: try trainSource(), options: PlaybackOptions(targetSize: PixelSize(width: 64, height: 48)),
                                 sink: { log.add($0) })
        player.start()
        let deadline = MonotonicClock.now() + 5
        while log.pts.count < 3 && MonotonicClock.now() < deadline { usleep(5_000) }
        let before = MonotonicClock.now()
        player.stop()
        XCTAssertLessThan(MonotonicClock.now() - before, 0.1, "stop() returns within 100 ms")
        XCTAssertEqual(player.waitUntilEnded(timeout: 2), .stopped)
        let shown = log.pts.count
        usleep(200_000)
        XCTAssertEqual(log.pts.count, shown, "no frames after the end")
        XCTAssertLessThan(shown, 22)
    }

    func testStopFromInsideTheSink() throws {
        let holder = PlayerHolder()
        let player = MoviePlayer(source: try trainSource(), options: PlaybackOptions(targetSize: PixelSize(width: 32, height: 32)),
                                 sink: { frame in if frame.index >= 1 { holder.player?.stop() } })
        holder.player = player
        player.start()
        XCTAssertEqual(player.waitUntilEnded(timeout: 5), .stopped)
        XCTAssertLessThanOrEqual(player.stats.framesShown, 3)
    }

    func testSlowSinkDropsFramesInsteadOfDrifting() throws {
        let log = FrameLog()
        let player = MoviePlayer(source: try trainSource(), options: PlaybackOptions(targetSize: PixelSize(width: 64, height: 48)),
                                 sink: { frame in log.add(frame); usleep(250_000) })
        let began = MonotonicClock.now()
        player.start()
        XCTAssertEqual(player.waitUntilEnded(timeout: 15), .finished)
        let wall = MonotonicClock.now() - began
        XCTAssertGreaterThan(player.stats.framesDropped, 5)
        XCTAssertLessThan(wall, 4.0, "a slow sink must not stretch playback")
    }

    func testGarbageReportsFailureWithoutFrames() {
        let log = FrameLog()
        let player = MoviePlayer(source: MemoryByteSource(Array(repeating: 0x42, count: 10_000)), sink: { log.add($0) })
        player.start()
        guard case .failed(let error)? = player.waitUntilEnded(timeout: 5) else { return XCTFail("expected a failure") }
        XCTAssertTrue(error.description.hasPrefix("cannot decode"), error.description)
        XCTAssertEqual(log.pts.count, 0)
    }

    func testMotionPhotoEmbeddedMoviePlaysFromSlice() throws {
        let still = try FileByteSource(path: Fixtures.committed("motion-photo-v1.jpeg"))
        let movie = SliceByteSource(base: still, range: ByteRange(offset: 30821, length: 122562))
        let log = FrameLog()
        // Half a second only, from 1 s.
        let player = MoviePlayer(source: movie, options: PlaybackOptions(targetSize: PixelSize(width: 80, height: 60),
                                                                          startTime: 1.0, endTime: 1.5),
                                 sink: { log.add($0) })
        player.start()
        XCTAssertEqual(player.waitUntilEnded(timeout: 10), .finished)
        let pts = log.pts
        XCTAssertGreaterThan(pts.count, 5)
        XCTAssertEqual(pts.first ?? 0, 1.0, accuracy: 0.02)
        XCTAssertLessThan(pts.last ?? 9, 1.5)
    }
}
