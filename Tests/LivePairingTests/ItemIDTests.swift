import Foundation
import LivePairing
import XCTest

/// The typed item identity (issue 27 item 5).
final class ItemIDTests: XCTestCase {
    func testEqualityHashAndOrderFollowTheKeyFile() {
        XCTAssertEqual(ItemID("/p/IMG_1.HEIC"), ItemID("/p/IMG_1.HEIC"))
        XCTAssertNotEqual(ItemID("/p/IMG_1.HEIC"), ItemID("/p/IMG_1.heic"))
        XCTAssertEqual(Set([ItemID("/p/a"), ItemID("/p/a"), ItemID("/p/b")]).count, 2)
        XCTAssertEqual([ItemID("/p/b"), ItemID("/p/a"), ItemID("/p/B")].sorted(), [ItemID("/p/B"), ItemID("/p/a"), ItemID("/p/b")])
        XCTAssertEqual(ItemID("/p/a.jpg").description, "/p/a.jpg")
    }

    /// Encoded as the bare string: what was written with a plain path reads back, and the other way.
    func testCodesAsTheBareString() throws {
        let ids: [ItemID] = ["/p/a.heic", "https://host/p/b.jpg"]
        let data = try JSONEncoder().encode(ids)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"["\/p\/a.heic","https:\/\/host\/p\/b.jpg"]"#)
        XCTAssertEqual(try JSONDecoder().decode([ItemID].self, from: Data(#"["/p/a.heic"]"#.utf8)), ["/p/a.heic"])
        XCTAssertEqual(try JSONDecoder().decode([String].self, from: data), ids.map(\.rawValue))
    }

    /// Sets and dictionaries keyed by item cost what they cost with bare strings (memory per item, issue 17).
    func testIsLaidOutAsTheStringItWraps() {
        XCTAssertEqual(MemoryLayout<ItemID>.size, MemoryLayout<String>.size)
        XCTAssertEqual(MemoryLayout<ItemID>.stride, MemoryLayout<String>.stride)
    }
}
