import Imaging
import XCTest

final class ThumbnailMemoryCacheTests: XCTestCase {
    func testEvictsLeastRecentlyUsedByBytes() {
        let small = PixelFrame(width: 4, height: 4)   // 64 bytes
        let big = PixelFrame(width: 8, height: 8)     // 256 bytes
        let cache = ThumbnailMemoryCache<String>(capacityBytes: 400)
        cache.insert(small, for: "a")
        cache.insert(small, for: "b")
        XCTAssertNotNil(cache.frame(for: "a"))          // a is now more recent than b
        cache.insert(big, for: "c")                     // 384 bytes: fits
        XCTAssertEqual(cache.totalBytes, 384)
        cache.insert(small, for: "d")                   // 448 > 400: evict b (least recent)
        XCTAssertNil(cache.frame(for: "b"))
        XCTAssertNotNil(cache.frame(for: "a"))
        XCTAssertNotNil(cache.frame(for: "c"))
        XCTAssertNotNil(cache.frame(for: "d"))
        XCTAssertLessThanOrEqual(cache.totalBytes, 400)
        cache.insert(PixelFrame(width: 20, height: 20), for: "huge")   // bigger than the capacity: not kept
        XCTAssertNil(cache.frame(for: "huge"))
        XCTAssertEqual(cache.count, 3)
    }

    /// A changed file's pictures go at once, whatever their size or variant; the byte count follows, and the
    /// order of what is left still evicts the least recently used.
    func testRemovesEveryMatchingKey() {
        let small = PixelFrame(width: 4, height: 4)   // 64 bytes
        let cache = ThumbnailMemoryCache<String>(capacityBytes: 256)
        for key in ["a@normal", "a@large", "b@normal", "a@normal<=160x120"] { cache.insert(small, for: key) }
        cache.removeAll { $0.hasPrefix("a@") }
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.totalBytes, 64)
        XCTAssertNotNil(cache.frame(for: "b@normal"))
        for key in ["c", "d", "e", "f"] { cache.insert(small, for: key) }   // 5 x 64 > 256: b goes first
        XCTAssertNil(cache.frame(for: "b@normal"))
        XCTAssertEqual(cache.count, 4)
    }
}
