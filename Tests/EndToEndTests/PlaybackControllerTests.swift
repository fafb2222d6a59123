import Foundation
import Imaging
import LivePairing
import MediaFormats
@testable import BrowserRuntime
import TerminalGraphics
import TerminalProtocol
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

    /// On a link too slow for full-colour frames even at the readable floor (issue 28.4), kitty frames are drawn
    /// at that floor with 5 bits per channel: the real decode, the real PNG, read back from the kitty payload.
    func testKittyFramesOnASlowLinkKeepFewerColourBitsAtTheReadableSize() throws {
        let item = try liveItem(still: Fixtures.committed("train.jpg"), movie: Fixtures.committed("train.mov"))
        let slow = ThroughputWindow.Estimate(bytesPerSecond: 300_000, isSlow: true)
        let pixels = PixelOutput(mode: .kitty, tmux: nil, cellPixelSize: PixelSizeInCells(width: 10, height: 20))
        let controller = PlaybackController(depth: .truecolor, pixels: pixels, trace: nil, notify: { _ in }, link: { slow })
        controller.setSound(false)
        XCTAssertNil(controller.start(item, purpose: .hold, columns: 80, rows: 22))
        var reduced: (image: RenderedImage, pixels: PixelFrame)?
        XCTAssertTrue(waitUntil(10) {
            guard let image = controller.picture(for: item.id, columns: 80, rows: 22),
                  let frame = try? PNGCodec.decode(Self.kittyPNG(image.bytes)) else { return false }
            if Self.keepsFiveBits(frame) { reduced = (image, frame) }
            return reduced != nil
        }, "no frame with 5 bits per channel")
        guard let (image, frame) = reduced else { return }
        // Half the area's cells (40x11 of 80x22, 400x220 px): the 4:3 movie fills their height (29 columns,
        // 290x218 px), not the old floor's 24x7 cells (140 px high).
        XCTAssertEqual(image.rows, 11)
        XCTAssertLessThanOrEqual(image.columns, 40)
        XCTAssertGreaterThan(frame.height, 200)
        XCTAssertLessThanOrEqual(frame.height, 220)
        XCTAssertEqual(controller.linkNote, "link \(slow.shortDescription): movie drawn smaller, fewer colours")
        controller.stop()
    }

    /// The PNG inside a kitty transmission: the base64 after each chunk's `;`, up to its ESC \.
    private static func kittyPNG(_ bytes: [UInt8]) -> [UInt8] {
        var base64: [UInt8] = []
        var index = 0
        while index + 2 < bytes.count {
            guard bytes[index] == 0x1B, bytes[index + 1] == UInt8(ascii: "_"), bytes[index + 2] == UInt8(ascii: "G"),
                  let semicolon = bytes[index...].firstIndex(of: UInt8(ascii: ";")),
                  let end = bytes[semicolon...].firstIndex(of: 0x1B) else { index += 1; continue }
            base64 += bytes[(semicolon + 1)..<end]
            index = end + 1
        }
        return Data(base64Encoded: Data(base64)).map { Array($0) } ?? []
    }

    /// True when every colour channel is a multiple of 8 (alpha aside) and the frame is not flat.
    private static func keepsFiveBits(_ frame: PixelFrame) -> Bool {
        var levels = Set<UInt8>()
        for (index, value) in frame.rgba.enumerated() where index % 4 != 3 {
            guard value % 8 == 0 else { return false }
            levels.insert(value)
        }
        return levels.count > 8
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
