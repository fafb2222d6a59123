import Foundation
import Imaging
import MediaFormats
import TestSupport
import VideoPlayback
import XCTest

final class HintPlayerTests: XCTestCase {
    func testWindowIsCentredAndKeptInsideTheMovie() {
        XCTAssertEqual(HintPlayer.window(stillTime: 1.5, movieDuration: 3), 1.0...2.0)
        XCTAssertEqual(HintPlayer.window(stillTime: 0.1, movieDuration: 3), 0...1.0)
        XCTAssertEqual(HintPlayer.window(stillTime: 2.9, movieDuration: 3), 2.0...3.0)
        XCTAssertEqual(HintPlayer.window(stillTime: 0.48, movieDuration: 0.6), 0...0.6)
        XCTAssertEqual(HintPlayer.window(stillTime: .nan, movieDuration: nil), 0...1.0)
    }

    func testPlaysAboutOneSecondAroundTheStillOfTrain() throws {
        let clock = ManualPlaybackClock()
        let log = PresentedLog()
        let player = HintPlayer.play(source: try FileByteSource(path: Fixtures.committed("train.mov")),
                                     stillTime: 0.48, movieDuration: 1.233, targetSize: PixelSize(width: 64, height: 48),
                                     clock: clock, sink: { frame in log.add(frame, at: clock.now()) })
        XCTAssertEqual(drive(player, on: clock), .finished)
        let shown = log.pts
        XCTAssertFalse(shown.isEmpty)
        XCTAssertEqual(shown.first ?? -1, 0, accuracy: 0.001)
        XCTAssertLessThan(shown.last ?? 9, 1.0 + 1e-6)
        XCTAssertGreaterThan(shown.last ?? 0, 0.85)
    }

    /// On a manual clock the hint shows every frame of its window at the frame's own time, then ends once
    /// the last one has been up for its duration: about a second of clock time, no frame dropped.
    func testPlaysItsWindowAtTheFramesOwnTimesOnAManualClock() throws {
        let clock = ManualPlaybackClock()
        let log = PresentedLog()
        let began = clock.now()
        let player = HintPlayer.play(source: try FileByteSource(path: Fixtures.committed("train.mov")),
                                     stillTime: 0.48, movieDuration: 1.233, targetSize: PixelSize(width: 64, height: 48),
                                     clock: clock, video: RecordingSink(log: log, clock: clock))
        XCTAssertEqual(drive(player, on: clock), .finished)
        let pts = log.pts
        XCTAssertEqual(pts.first ?? -1, 0, accuracy: 0.001)
        XCTAssertLessThan(pts.last ?? 9, 1.0)
        XCTAssertEqual(player.stats.framesDropped, 0)
        for (time, p) in zip(log.times, pts) { XCTAssertEqual(time - began, p, accuracy: 1e-9) }
        XCTAssertEqual(clock.now() - began, 1.0, accuracy: 0.1, "about one second of movement")
    }
}
