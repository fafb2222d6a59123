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

/// Issue 14.4 in the browser's pixel modes: the grid's pixel pictures wear the badge the symbol cells wear,
/// LIVE OFF included (a Live Photo still whose movie is missing used to get no badge at all).
final class PixelLiveOffBadgeTests: XCTestCase {
    private var directory: URL!
    private var savedCacheHome: String?

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-pixel-liveoff")
        savedCacheHome = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
        // The provider's freedesktop cache goes here, not into the user's.
        setenv("XDG_CACHE_HOME", directory.appendingPathComponent("cache").path, 1)
    }

    override func tearDown() {
        if let savedCacheHome { setenv("XDG_CACHE_HOME", savedCacheHome, 1) } else { unsetenv("XDG_CACHE_HOME") }
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func file(_ fixture: String, as name: String) throws -> MediaFile {
        let path = directory.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: Fixtures.committed(fixture), toPath: path)
        return MediaFile(path: path, size: 1, modificationTime: 0, info: try MediaProbe.probe(path: path))
    }

    /// The kitty picture the grid's provider makes for `item` in 30x8 cells of 10x20 px.
    private func picture(of item: LibraryItem, provider: ChafaThumbnailProvider) throws -> KittyImage {
        let key = ThumbnailKey(itemID: item.id, width: 30, height: 8)
        provider.request(key, item: item, priority: .visible)
        let deadline = Date().addingTimeInterval(30)
        while provider.picture(for: key) == nil && !provider.hasFailed(key) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let rendered = try XCTUnwrap(provider.picture(for: key), "no picture for \(item.id)")
        // try?: bytes that are not a PNG make no picture, and the XCTUnwrap fails.
        return try XCTUnwrap(KittyImage(bytes: rendered.bytes, decodePNG: { try? PNGCodec.decode($0).rgba }), "not kitty RGBA")
    }

    func testKittyPicturesWearLiveOffLiveOrNothing() throws {
        let provider = ChafaThumbnailProvider(depth: .truecolor, reason: "test", version: "test",
                                              environment: ProcessInfo.processInfo.environment, warn: { _ in },
                                              mode: .kitty, cellPixelSize: PixelSizeInCells(width: 10, height: 20),
                                              badge: BadgePainter(corner: .topLeft, style: .solid))
        let off = try picture(of: LibraryItem(kind: .still, still: try file("train.jpg", as: "off.jpg"),
                                              liveOffReason: "its movie is missing"), provider: provider)
        let live = try picture(of: LibraryItem(kind: .live, still: try file("train.jpg", as: "live.jpg"),
                                               movie: try file("train.mov", as: "live.mov")), provider: provider)
        let plain = try picture(of: LibraryItem(kind: .still, still: try file("train.jpg", as: "plain.jpg")),
                                provider: provider)
        XCTAssertEqual(off.width, live.width)
        let solid = [0xF2, 0xF2, 0xF2]
        // LiveBadge+Pixels below 180 px: margin 3, pad 2; LIVE's box is 36 px wide, LIVE OFF's 60. Row 3 is
        // the box's top padding: solid backing colour, no ink.
        XCTAssertEqual(off.pixel(x: 5, y: 3), solid, "LIVE OFF box")
        XCTAssertEqual(live.pixel(x: 5, y: 3), solid, "LIVE box")
        XCTAssertNotEqual(plain.pixel(x: 5, y: 3), solid, "a plain still has no badge")
        let offBeyondLive = (42..<60).filter { off.pixel(x: $0, y: 3) == solid }.count
        let liveBeyondLive = (42..<60).filter { live.pixel(x: $0, y: 3) == solid }.count
        XCTAssertEqual(offBeyondLive, 18, "the LIVE OFF box is wider: it holds \" OFF\"")
        XCTAssertLessThan(liveBeyondLive, 18)
        XCTAssertNotEqual(off.rgba, live.rgba)
    }

    /// A live item whose movie turns out unplayable: its pixel picture is made again with LIVE OFF.
    func testMarkLiveOffRedrawsThePixelPicture() throws {
        let provider = ChafaThumbnailProvider(depth: .truecolor, reason: "test", version: "test",
                                              environment: ProcessInfo.processInfo.environment, warn: { _ in },
                                              mode: .kitty, cellPixelSize: PixelSizeInCells(width: 10, height: 20),
                                              badge: BadgePainter(corner: .topLeft, style: .solid))
        let item = LibraryItem(kind: .live, still: try file("train.jpg", as: "a.jpg"), movie: try file("train.mov", as: "a.mov"))
        let before = try picture(of: item, provider: provider)
        provider.markLiveOff(itemIDs: [item.id])
        let key = ThumbnailKey(itemID: item.id, width: 30, height: 8)
        XCTAssertNil(provider.picture(for: key), "the LIVE picture is dropped")
        XCTAssertTrue(provider.takeReadyKeys().contains(key), "the loop redraws the cell")
        let after = try picture(of: item, provider: provider)
        XCTAssertEqual((42..<60).filter { after.pixel(x: $0, y: 3) == [0xF2, 0xF2, 0xF2] }.count, 18)
        XCTAssertNotEqual(before.rgba, after.rgba)
    }
}
