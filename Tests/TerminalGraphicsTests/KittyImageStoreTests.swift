import TerminalGraphics
import XCTest

final class KittyImageStoreTests: XCTestCase {
    func testAPictureIsTransmittedOnceThenPlacedByID() {
        var store = KittyImageStore<String>()
        let first = store.place("a", pixelBytes: 1_000, onScreen: [])
        XCTAssertTrue(first.transmit)
        XCTAssertEqual(first.free, [])
        for _ in 0..<10 {
            let again = store.place("a", pixelBytes: 1_000, onScreen: ["a"])
            XCTAssertEqual(again, KittyImageStore.Decision(id: first.id, transmit: false, free: []))
        }
        XCTAssertNotEqual(store.place("b", pixelBytes: 1_000, onScreen: ["a"]).id, first.id)
    }

    func testTheLeastRecentlyPlacedPictureOffScreenIsFreedPastTheCount() {
        var store = KittyImageStore<String>(countLimit: 3)
        let a = store.place("a", pixelBytes: 10, onScreen: []).id
        let b = store.place("b", pixelBytes: 10, onScreen: []).id
        _ = store.place("c", pixelBytes: 10, onScreen: [])
        _ = store.place("a", pixelBytes: 10, onScreen: ["a"])       // a was used again: b is now the oldest
        let d = store.place("d", pixelBytes: 10, onScreen: ["a"])
        XCTAssertEqual(d.free, [b])
        XCTAssertEqual(store.existing("a"), a)
        XCTAssertNil(store.existing("b"))
        XCTAssertEqual(store.count, 3)
    }

    func testPicturesOnScreenAreNeverFreedAndTheBudgetHoldsOtherwise() {
        var store = KittyImageStore<String>(countLimit: 100, byteBudget: 250)
        _ = store.place("a", pixelBytes: 100, onScreen: [])
        _ = store.place("b", pixelBytes: 100, onScreen: [])
        // c does not fit in the budget: a is the oldest, but on screen; b goes.
        let c = store.place("c", pixelBytes: 100, onScreen: ["a"])
        XCTAssertEqual(c.free.count, 1)
        XCTAssertNil(store.existing("b"))
        XCTAssertNotNil(store.existing("a"))
        XCTAssertEqual(store.bytes, 200)
        // Everything on screen: the budget gives way rather than a visible picture.
        let d = store.place("d", pixelBytes: 100, onScreen: ["a", "c"])
        XCTAssertEqual(d.free, [])
        XCTAssertEqual(store.count, 3)
    }

    func testAnImageIsSentAgainAfterTheHedgesNumberOfPlacements() {
        var store = KittyImageStore<String>(retransmitAfterPlacements: 3)
        var transmitted = 0
        for _ in 0..<9 where store.place("a", pixelBytes: 10, onScreen: ["a"]).transmit { transmitted += 1 }
        XCTAssertEqual(transmitted, 3, "placements 1, 4 and 7 send the pixels")
        var never = KittyImageStore<String>(retransmitAfterPlacements: nil)
        XCTAssertEqual((0..<100).filter { _ in never.place("a", pixelBytes: 10, onScreen: []).transmit }.count, 1)
    }

    func testIdsStayBelowTheWritersMovieID() {
        var store = KittyImageStore<Int>(countLimit: 4, firstID: 0xFFFF_FDFF)
        let ids = (0..<4).map { store.place($0, pixelBytes: 1, onScreen: []).id }
        XCTAssertEqual(ids, [0xFFFF_FDFF, 0xFFFF_FE00, 1, 2])
    }
}
