import BrowserCore
import Foundation
import Imaging
import LivePairing
import MediaFormats
import TerminalGraphics
import TerminalProtocol
import TestSupport
import XCTest
@testable import BrowserRuntime

/// Issue 18.3-4 in the browser's provider: symbol cells take a small Exif thumbnail without putting it in the
/// shared cache; a sixel picture seen before comes back from memory, encoded once.
final class PicturePerModeTests: XCTestCase {
    private var directory: URL!
    private var savedCacheHome: String?

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-picture-mode")
        savedCacheHome = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
        setenv("XDG_CACHE_HOME", directory.appendingPathComponent("cache").path, 1)
    }

    override func tearDown() {
        if let savedCacheHome { setenv("XDG_CACHE_HOME", savedCacheHome, 1) } else { unsetenv("XDG_CACHE_HOME") }
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// train.jpg: 4032x3024 with a 160x120 Exif thumbnail.
    private func item(_ name: String) throws -> LibraryItem {
        let path = directory.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: path)
        let file = MediaFile(path: path, size: 1, modificationTime: 0, info: try MediaProbe.probe(path: path))
        return LibraryItem(kind: .still, still: file)
    }

    private func waitForPicture(_ key: ThumbnailKey, provider: ChafaThumbnailProvider) throws -> RenderedImage {
        let deadline = Date().addingTimeInterval(60)
        while provider.picture(for: key) == nil && !provider.hasFailed(key) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try XCTUnwrap(provider.picture(for: key), "no picture for \(key.itemID)")
    }

    func testSymbolCellsUseTheExifThumbnailAndLeaveTheSharedCacheAlone() throws {
        let provider = ChafaThumbnailProvider(depth: .truecolor, reason: "test", version: "test",
                                              environment: ProcessInfo.processInfo.environment, warn: { _ in })
        let photo = try item("photo.jpg")
        let key = ThumbnailKey(itemID: photo.id, width: 24, height: 12)   // 240x240 px: the large (256) size
        provider.request(key, item: photo, priority: .visible)
        let picture = try waitForPicture(key, provider: provider)
        XCTAssertEqual(picture.columns, 24)
        let cache = ThumbnailCache(version: "test", environment: ProcessInfo.processInfo.environment)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.thumbnailPath(forFile: photo.primary.path, size: .large)),
                       "a 160x120 Exif thumbnail is no 256 px freedesktop thumbnail")

        // Pixel modes need the cells' pixels: the 256 px thumbnail is decoded and shared with file managers.
        let sixel = ChafaThumbnailProvider(depth: .truecolor, reason: "test", version: "test",
                                              environment: ProcessInfo.processInfo.environment, warn: { _ in },
                                           mode: .sixels, cellPixelSize: PixelSizeInCells(width: 10, height: 20))
        sixel.request(key, item: photo, priority: .visible)
        _ = try waitForPicture(key, provider: sixel)
        XCTAssertEqual(cache.cached(forFile: photo.primary.path, size: .large)?.size, PixelSize(width: 256, height: 192))
    }

    /// A changed file (rotated or replaced in place) is drawn again from its new bytes: `invalidate` also drops
    /// the decoded Exif thumbnail kept for small cells (the string keys of that frame were never removed).
    func testAReplacedFileDropsItsExifThumbnailFrame() throws {
        let provider = ChafaThumbnailProvider(depth: .truecolor, reason: "test", version: "test",
                                              environment: ProcessInfo.processInfo.environment, warn: { _ in })
        let photo = try item("photo.jpg")
        let key = ThumbnailKey(itemID: photo.id, width: 24, height: 12)
        provider.request(key, item: photo, priority: .visible)
        let before = try waitForPicture(key, provider: provider)

        let other = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("motion-photo-v1.jpeg")))
        try other.write(to: URL(fileURLWithPath: photo.primary.path))
        let replaced = LibraryItem(kind: .still, still: MediaFile(path: photo.primary.path, size: UInt64(other.count),
                                                                  modificationTime: 1,
                                                                  info: try MediaProbe.probe(path: photo.primary.path)))
        XCTAssertEqual(replaced.id, photo.id)
        provider.invalidate(itemIDs: [photo.id])
        provider.request(key, item: replaced, priority: .visible)
        let after = try waitForPicture(key, provider: provider)
        XCTAssertTrue(after.cells != before.cells, "the new file's picture, not the old file's Exif thumbnail")
    }

    func testASixelPictureScrolledBackToIsNotEncodedAgain() throws {
        let provider = ChafaThumbnailProvider(depth: .truecolor, reason: "test", version: "test",
                                              environment: ProcessInfo.processInfo.environment, warn: { _ in },
                                              mode: .sixels, cellPixelSize: PixelSizeInCells(width: 10, height: 20))
        let photos = try (0..<4).map { try item("p\($0).jpg") }
        let keys = photos.map { ThumbnailKey(itemID: $0.id, width: 22, height: 10) }
        let first = try { () throws -> RenderedImage in
            provider.request(keys[0], item: photos[0], priority: .visible)
            return try waitForPicture(keys[0], provider: provider)
        }()
        XCTAssertTrue(first.bytes.starts(with: [0x1B, UInt8(ascii: "P")]), "a sixel (DCS)")
        // Scroll away: the others are requested, the first is no longer wanted.
        provider.cancelAll(except: Set(keys.dropFirst()))
        for (photo, key) in zip(photos, keys).dropFirst() { provider.request(key, item: photo, priority: .visible) }
        for key in keys.dropFirst() { _ = try waitForPicture(key, provider: provider) }
        _ = provider.takeReadyKeys()
        // And back: the picture is there at once, the same bytes, and no work was scheduled for it.
        provider.request(keys[0], item: photos[0], priority: .visible)
        XCTAssertFalse(provider.hasWorkInFlight, "nothing is decoded or encoded again")
        XCTAssertEqual(provider.picture(for: keys[0])?.bytes, first.bytes)
    }
}
