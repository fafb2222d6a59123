import BrowserCore
import Foundation
import LivePairing
import MediaFormats
import TerminalGraphics
import TestSupport
import XCTest
@testable import BrowserRuntime

/// The picture pipeline without a terminal: requests decode and render on the workers, a finished picture
/// wakes the loop through the ready handler, and a broken file becomes a failure with a note.
final class PicturePipelineTests: XCTestCase {
    private var directory: URL!
    private var savedCacheHome: String?

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-picture-pipeline")
        savedCacheHome = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
        setenv("XDG_CACHE_HOME", directory.appendingPathComponent("cache").path, 1)
    }

    override func tearDown() {
        if let savedCacheHome { setenv("XDG_CACHE_HOME", savedCacheHome, 1) } else { unsetenv("XDG_CACHE_HOME") }
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func still(_ bytes: Data, as name: String) throws -> LibraryItem {
        let path = directory.appendingPathComponent(name).path
        try bytes.write(to: URL(fileURLWithPath: path))
        let info = (try? MediaProbe.probe(path: path)) ?? MediaInfo(format: .jpeg)
        return LibraryItem(kind: .still, still: MediaFile(path: path, size: UInt64(bytes.count), modificationTime: 0, info: info))
    }

    func testReadyPicturesWakeTheLoopAndBrokenFilesFailWithANote() throws {
        let provider = ChafaThumbnailProvider(depth: .truecolor, reason: "test", version: "test",
                                              environment: ProcessInfo.processInfo.environment, warn: { _ in })
        let woken = expectation(description: "the ready handler wakes the loop")
        woken.expectedFulfillmentCount = 2
        provider.setReadyHandler { woken.fulfill() }

        let good = try still(Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg"))), as: "good.jpg")
        var broken = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])
        broken.append(Data(repeating: 0x5A, count: 2000))
        let bad = try still(broken, as: "bad.jpg")
        let goodKey = ThumbnailKey(itemID: good.id, width: 20, height: 6)
        let badKey = ThumbnailKey(itemID: bad.id, width: 20, height: 6)
        provider.request(goodKey, item: good, priority: .visible)
        provider.request(badKey, item: bad, priority: .visible)
        wait(for: [woken], timeout: 30)

        XCTAssertEqual(Set(provider.takeReadyKeys()), [goodKey, badKey])
        XCTAssertEqual(provider.takeReadyKeys(), [], "each ready key is taken once")
        let picture = try XCTUnwrap(provider.picture(for: goodKey))
        XCTAssertGreaterThan(picture.rows, 0)
        XCTAssertLessThanOrEqual(picture.rows, 6, "fits the key's cells")
        XCTAssertTrue(provider.hasFailed(badKey))
        XCTAssertNil(provider.picture(for: badKey))
        XCTAssertNotNil(provider.pictureNote(for: bad.id), "the cell says what is wrong with the file")

        // A changed file: its pictures are dropped from memory and made again on the next request.
        provider.invalidate(itemIDs: [good.id])
        XCTAssertNil(provider.picture(for: goodKey))
    }

    /// A picture that decodes but cannot be drawn keeps its reason (it used to disappear behind a `try?`):
    /// a cell of no columns is what chafa refuses.
    func testARenderFailureKeepsItsReasonForTheCellAndTheInfoPanel() throws {
        let provider = ChafaThumbnailProvider(depth: .truecolor, reason: "test", version: "test",
                                              environment: ProcessInfo.processInfo.environment, warn: { _ in })
        let woken = expectation(description: "the ready handler wakes the loop")
        provider.setReadyHandler { woken.fulfill() }
        let good = try still(Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg"))), as: "good.jpg")
        let emptyKey = ThumbnailKey(itemID: good.id, width: 0, height: 6)
        provider.request(emptyKey, item: good, priority: .visible)
        wait(for: [woken], timeout: 30)

        XCTAssertEqual(provider.takeReadyKeys(), [emptyKey])
        XCTAssertTrue(provider.hasFailed(emptyKey))
        let note = try XCTUnwrap(provider.pictureNote(for: good.id), "the failure keeps its reason")
        XCTAssertEqual(note.failure, .render(.emptyArea))
        XCTAssertNil(note.error, "the file itself decoded")
        XCTAssertEqual(note.shortLabel, "cannot draw")
        XCTAssertEqual(note.infoLines.first?.value, "the picture was decoded but cannot be drawn: cannot render into an empty area")

        // The same item drawn at a real size: the render note goes.
        let drawn = expectation(description: "the real size is drawn")
        provider.setReadyHandler { drawn.fulfill() }
        let goodKey = ThumbnailKey(itemID: good.id, width: 20, height: 6)
        provider.request(goodKey, item: good, priority: .visible)
        wait(for: [drawn], timeout: 30)
        XCTAssertNotNil(provider.picture(for: goodKey))
        XCTAssertNil(provider.pictureNote(for: good.id), "a picture drawn since clears the render note")
    }
}
