import Foundation
import LivePairing
import MediaFormats
@testable import BrowserRuntime
import TestSupport
import XCTest

/// The browser's player without a terminal: frames appear for the playing item only, a stop clears them,
/// and movies that cannot play are remembered as LIVE OFF with a reason.
final class PlaybackControllerTests: XCTestCase {
    private func liveItem(still: String, movie: String) throws -> LibraryItem {
        let stillFile = MediaFile(path: still, size: 1, modificationTime: 0, info: try MediaProbe.probe(path: still))
        let movieFile = MediaFile(path: movie, size: 1, modificationTime: 0, info: try MediaProbe.probe(path: movie))
        return LibraryItem(kind: .live, still: stillFile, movie: movieFile)
    }

    private func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }

    func testHoldPlaysFramesForThatItemAndStopClearsThem() throws {
        let item = try liveItem(still: Fixtures.committed("train.jpg"), movie: Fixtures.committed("train.mov"))
        let controller = PlaybackController(depth: .truecolor, trace: nil, notify: { _ in })
        XCTAssertNil(controller.start(item, purpose: .hold, columns: 40, rows: 12))
        XCTAssertTrue(waitUntil(3) { controller.picture(for: item.id, columns: 40, rows: 12) != nil }, "no frame")
        let frame = controller.picture(for: item.id, columns: 40, rows: 12)
        XCTAssertLessThanOrEqual(frame?.columns ?? 99, 40)
        XCTAssertLessThanOrEqual(frame?.rows ?? 99, 12)
        XCTAssertNil(controller.picture(for: "other", columns: 40, rows: 12))
        XCTAssertNil(controller.picture(for: item.id, columns: 30, rows: 12), "only in the area it plays for")
        controller.stop()
        XCTAssertNil(controller.picture(for: item.id, columns: 40, rows: 12))
        XCTAssertFalse(controller.isActive)
        XCTAssertNil(controller.liveOffReason(for: item))
    }

    func testPlayedToTheEndRestsOnTheKeyPhoto() throws {
        let item = try liveItem(still: Fixtures.committed("train.jpg"), movie: Fixtures.committed("train.mov"))
        let controller = PlaybackController(depth: .indexed256, trace: nil, notify: { _ in })
        controller.start(item, purpose: .hint, columns: 20, rows: 6)
        XCTAssertTrue(waitUntil(5) { !controller.isActive }, "the hint ends by itself")
        XCTAssertNil(controller.picture(for: item.id, columns: 20, rows: 6))
    }

    func testCorruptMovieIsRememberedAsLiveOff() throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-corrupt-movie")
        defer { try? FileManager.default.removeItem(at: directory) }
        let movie = directory.appendingPathComponent("train.mov")
        try PlaybackEndToEndTests.movieWithZeroedMediaData(Fixtures.committed("train.mov")).write(to: movie)
        let item = try liveItem(still: Fixtures.committed("train.jpg"), movie: movie.path)
        let messages = MessageBox()
        let controller = PlaybackController(depth: .truecolor, trace: nil, notify: { messages.append($0) })
        XCTAssertNil(controller.start(item, purpose: .hold, columns: 40, rows: 12))
        XCTAssertTrue(waitUntil(5) { controller.liveOffReason(for: item) != nil })
        // A hold may also say once that there is no sound server here (issue 29): the LIVE OFF reason is one of them.
        XCTAssertTrue(waitUntil(1) { messages.all.contains { $0.hasPrefix("LIVE OFF:") } }, "\(messages.all)")
        XCTAssertNotNil(controller.start(item, purpose: .hold, columns: 40, rows: 12), "known failures do not retry")
    }

    func testMissingMovieAndTinyAreas() throws {
        let still = MediaFile(path: Fixtures.committed("train.jpg"), size: 1, modificationTime: 0, info: MediaInfo(format: .jpeg))
        let orphan = LibraryItem(kind: .still, still: still, liveOffReason: "its movie is missing")
        let controller = PlaybackController(depth: .truecolor, trace: nil, notify: { _ in })
        XCTAssertEqual(controller.liveOffReason(for: orphan), "its movie is missing")
        let item = try liveItem(still: Fixtures.committed("train.jpg"), movie: Fixtures.committed("train.mov"))
        XCTAssertEqual(controller.start(item, purpose: .hold, columns: 3, rows: 1), .tooSmall)
        XCTAssertNil(controller.liveOffReason(for: item), "a small cell is not the movie's fault")
    }
}

private final class MessageBox: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func append(_ message: String) { lock.withLock { messages.append(message) } }
    var all: [String] { lock.withLock { messages } }
}
