import Foundation
import TestSupport
import XCTest
@testable import BrowserRuntime

/// The sound track opened while the cursor rests (issue 29's start target), on the committed train Live Photo:
/// the latest movie asked for is opened in the background, a hold takes it once, a movie without a track is
/// not retried, and moving on forgets the previous one.
final class PreparedSoundTrackTests: XCTestCase {
    private let train = PreparedSoundTrack.Movie(path: Fixtures.committed("train.mov"), range: nil)
    private let still = PreparedSoundTrack.Movie(path: Fixtures.committed("train.jpg"), range: nil)

    /// Waits (a condition, at most 20 s) until `movie`'s track is ready.
    private func waitUntilReady(_ tracks: PreparedSoundTrack, _ movie: PreparedSoundTrack.Movie) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while tracks.readyMovie != movie {
            if Date() > deadline { return false }
            usleep(5_000)
        }
        return true
    }

    func testTheRestingItemsTrackIsOpenedAndTakenOnce() throws {
        let tracks = PreparedSoundTrack()
        tracks.prepare(train)
        XCTAssertTrue(waitUntilReady(tracks, train), "train.mov's track was never opened")
        let taken = try XCTUnwrap(tracks.take(train))
        XCTAssertNotNil(try taken.decoder.nextChunk(), "the prepared track decodes from its start")
        XCTAssertNil(tracks.take(train), "taken once: the next rest opens it again")
        tracks.prepare(train)
        XCTAssertTrue(waitUntilReady(tracks, train), "prepared again after a hold")
    }

    func testMovingOnForgetsThePreviousTrack() throws {
        let tracks = PreparedSoundTrack()
        tracks.prepare(train)
        XCTAssertTrue(waitUntilReady(tracks, train))
        tracks.prepare(still)   // no sound track: nothing becomes ready, and train's is dropped
        XCTAssertNil(tracks.readyMovie)
        XCTAssertNil(tracks.take(train), "a hold on another item never gets train's track")
        XCTAssertNil(tracks.take(still))
    }

    func testAMovieWithoutATrackIsNotRetriedWhileTheCursorStays() throws {
        let tracks = PreparedSoundTrack()
        let deadline = Date().addingTimeInterval(20)
        func settle() {
            while tracks.progress.working || tracks.progress.attempts == 0, Date() < deadline { usleep(5_000) }
        }
        tracks.prepare(still)
        settle()
        for _ in 0..<5 {   // the loop turns while the cursor stays
            tracks.prepare(still)
            settle()
        }
        XCTAssertEqual(tracks.progress.attempts, 1, "a refused movie is not opened again on every turn")
        XCTAssertNil(tracks.readyMovie)
        tracks.prepare(train)
        XCTAssertTrue(waitUntilReady(tracks, train), "moving on opens the next one")
        tracks.clear()
        XCTAssertNil(tracks.readyMovie, "muted: nothing kept open")
    }
}
