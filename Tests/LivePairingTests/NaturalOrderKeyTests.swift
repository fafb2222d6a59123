import LivePairing
import XCTest

/// The byte keys sort exactly like `NaturalOrder.less`, and `firstIndices` picks the first names in that order.
final class NaturalOrderKeyTests: XCTestCase {
    static let names = ["IMG_10.JPG", "IMG_2.JPG", "img_2.jpg", "IMG_002.JPG", "IMG_1.MOV", "IMG_1a.JPG", "a", "",
                        "Z_9", "z_10", "photo 3.heic", "photo 03.heic", "photo 3 copy.heic", "é.jpg", "e.jpg",
                        "123", "0123", "12", "IMG_99999999999999999999.JPG", "IMG_100000000000000000000.JPG",
                        "DSC:1", "DSC/1", "IMG_0000.JPG", "IMG_0.JPG", "x9y", "x10y", "x9z"]

    func testKeysOrderLikeLess() {
        for a in Self.names {
            for b in Self.names {
                XCTAssertEqual(NaturalOrder.less(key: NaturalOrder.key(a), a, key: NaturalOrder.key(b), b),
                               NaturalOrder.less(a, b), "\(a) vs \(b)")
            }
        }
        XCTAssertEqual(NaturalOrder.sortedIndices(Self.names).map { Self.names[$0] }, Self.names.sorted(by: NaturalOrder.less))
    }

    func testFirstIndicesAreTheSortedPrefix() {
        var generator = SystemRandomNumberGenerator()
        let many = (0..<2000).map { _ in "IMG_\(Int.random(in: 0..<5000, using: &generator)).\(["JPG", "MOV", "heic"].randomElement()!)" }
        let sorted = NaturalOrder.sortedIndices(many).map { many[$0] }
        for count in [0, 1, 7, 256, 1999, 2000, 5000] {
            XCTAssertEqual(NaturalOrder.firstIndices(many, count: count).map { many[$0] }, Array(sorted.prefix(count)), "count \(count)")
        }
    }
}
