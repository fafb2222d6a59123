import XCTest
@testable import MediaFormats

final class QuickTimeEditListTests: XCTestCase {
    typealias B = ISOBoxBuilder

    private func parse(_ elst: [UInt8]) throws -> QuickTimeEditList {
        var problems: [ParseProblem] = []
        let structure = try ISOStructure.parse(ByteReader(elst), limits: .default, context: "elst", problems: &problems)
        return try QuickTimeEditList.parse(structure.root, in: structure, limits: .default)
    }

    func testVersion0EmptyEditThenOneTick() throws {
        // train.mov's still-image-time track: empty 288/600 s, then 1 tick of media from time 0.
        let list = try parse(B.fullBox("elst", B.u32(2) + B.u32(288) + B.i32(-1) + B.u32(0x10000)
                                           + B.u32(1) + B.i32(0) + B.u32(0x10000)))
        XCTAssertEqual(list.entries.map(\.mediaTime), [-1, 0])
        XCTAssertEqual(list.movieTime(ofMediaTime: 0, mediaTimescale: 600, movieTimescale: 600) ?? -1, 0.48, accuracy: 1e-9)
    }

    func testVersion1WithMediaOffsetAndRate() throws {
        // 64-bit fields: an edit starting 1 s into the media (timescale 1000), at half speed.
        let list = try parse(B.fullBox("elst", version: 1, B.u32(1) + B.u64(6000) + B.u64(1000) + B.u32(0x8000)))
        XCTAssertEqual(list.entries.first?.rate, 0.5)
        // Media time 1.5 s is 0.5 s of media into the edit: 1 s of movie time at half speed.
        XCTAssertEqual(list.movieTime(ofMediaTime: 1500, mediaTimescale: 1000, movieTimescale: 600) ?? -1, 1.0, accuracy: 1e-9)
        // Before the edit's media start: not presented.
        XCTAssertNil(list.movieTime(ofMediaTime: 500, mediaTimescale: 1000, movieTimescale: 600))
    }

    func testHugeEntryCountInATinyBox() {
        XCTAssertThrowsError(try parse(B.fullBox("elst", B.u32(.max) + B.u32(1))))
    }
}
