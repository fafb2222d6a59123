import Foundation
import Imaging
import LivePairing
import TestSupport
import XCTest
@testable import BrowserRuntime

/// The first screen's cached thumbnails are made on the picture workers (the one decode pool) while the
/// scan runs, announced hits and misses alike while the loop calls `cancelAll` every frame (that the
/// scheduler keeps `firstScreen` jobs through it is proven deterministically in ThumbnailSchedulerTests).
final class PrewarmTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-prewarm")
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func testPrewarmSurvivesTheLoopsCancelAllAndFillsTheFirstScreen() throws {
        let environment = ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]
        let paths = try (0..<3).map { index -> String in
            let path = directory.appendingPathComponent("p\(index).jpg").path
            try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: path)
            return path
        }
        // Warm the shared cache the way an earlier run did (24x12 symbol cells take the 256 px size).
        let cache = ThumbnailCache(version: "test", environment: environment)
        for path in paths.prefix(2) { _ = try cache.thumbnail(forFile: path, size: .large) }

        let provider = ChafaThumbnailProvider(depth: .truecolor, reason: "test", version: "test",
                                              environment: environment, warn: { _ in })
        let keys = paths.map { ThumbnailKey(itemID: ItemID($0), width: 24, height: 12) }
        provider.prewarm(stills: { paths.map { ItemID($0) } }, width: 24, height: 12)
        var ready: Set<ThumbnailKey> = []
        let deadline = Date().addingTimeInterval(60)
        repeat {
            // What the loop does on every frame while the grid is still empty.
            provider.cancelAll(except: [])
            ready.formUnion(provider.takeReadyKeys())
            if ready.isSuperset(of: keys) && !provider.hasWorkInFlight { break }
            Thread.sleep(forTimeInterval: 0.001)
        } while Date() < deadline
        XCTAssertEqual(ready, Set(keys), "every prewarmed key was announced, hits and the miss alike")
        XCTAssertFalse(provider.hasWorkInFlight)
        XCTAssertEqual(provider.picture(for: keys[0])?.columns, 24, "a cache hit is on screen")
        XCTAssertNotNil(provider.picture(for: keys[1]))
        XCTAssertNil(provider.picture(for: keys[2]), "a miss is left to the normal request")
        XCTAssertFalse(provider.hasFailed(keys[2]), "a miss is no failure")
    }
}
