import BrowserCore
import Concurrent
import Foundation
import LivePairing
import MediaFormats
import TerminalGraphics
import TestSupport
import VideoPlayback
import XCTest
@testable import BrowserRuntime

/// The studio's effect previews play through the one media player (issue 27.3), on the clock they are
/// given: a bounce preview keeps playing pass after pass while time moves, and stops with the preview.
final class EffectPreviewPlayerTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-effect-preview-player")
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func file(_ fixture: String) throws -> MediaFile {
        let path = directory.appendingPathComponent(fixture).path
        try FileManager.default.copyItem(atPath: Fixtures.committed(fixture), toPath: path)
        return MediaFile(path: path, size: 1, modificationTime: 0, info: try MediaProbe.probe(path: path))
    }

    func testABouncePreviewLoopsOnItsClockAndStopsWithThePreview() throws {
        let clock = ManualPlaybackClock()
        let ready = expectation(description: "the bounce is rendered")
        let failure = Locked<StudioFailure?>(nil)
        let previewer = EffectPreviewer(renderer: ChafaRenderer(mode: .symbols, colorDepth: .truecolor), pixels: nil, post: { action in
            if case .studio(.effectPreviewReady) = action { ready.fulfill() }
            if case .studio(.effectPreviewFailed(_, _, let reason)) = action { failure.set(reason); ready.fulfill() }
        }, wake: {}, clock: clock)
        let item = LibraryItem(kind: .live, still: try file("train.jpg"), movie: try file("train.mov"))
        previewer.preview(item, .bounce)
        wait(for: [ready], timeout: 120)
        XCTAssertNil(failure.value)

        // train.mov is 1.233 s and its bounce about twice that: a player that did not loop would have ended
        // after ~2.5 s of clock time; this one still shows new frames in the seventh second.
        let began = clock.now()
        var serialAtSixSeconds: Int?
        var lastSerial = 0
        while clock.now() - began < 7 {
            guard let deadline = clock.nextDeadline(waitingUpTo: 30) else { return XCTFail("the preview's player never slept") }
            clock.advance(to: deadline)
            lastSerial = previewer.picture(columns: 60, rows: 20)?.serial ?? lastSerial
            if clock.now() - began >= 6, serialAtSixSeconds == nil { serialAtSixSeconds = lastSerial }
        }
        XCTAssertGreaterThan(lastSerial, serialAtSixSeconds ?? .max, "new frames in the seventh second: the preview loops")
        XCTAssertGreaterThan(lastSerial, 44, "more frames than one pass of the bounce")

        previewer.stop()
        XCTAssertNil(previewer.picture(columns: 60, rows: 20), "a stopped preview shows nothing")
        XCTAssertTrue(clock.waitUntilNobodySleeps(waitingUpTo: 30), "the player ended without time moving")
    }
}
