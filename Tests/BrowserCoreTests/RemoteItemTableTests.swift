@testable import BrowserCore
import LibraryCore
import LibraryCore
import LivePairing
import MediaFormats
import XCTest

/// `RemoteItemTable` reads and writes like the `[String: RemoteItem]` it replaced (issue 17 item 5).
final class RemoteItemTableTests: XCTestCase {
    private func item(_ name: String, placeholder: Bool = true) -> RemoteItem {
        let file = MediaFile(path: name, size: 1, modificationTime: 0, info: MediaInfo(format: .jpeg))
        return RemoteItem(item: LibraryItem(kind: .still, still: file), isPlaceholder: placeholder,
                          stillURL: URL(string: "http://127.0.0.1/\(name)"), movieURL: nil)
    }

    func testInsertReplaceRemoveAndLiteral() {
        var table: RemoteItemTable = [:]
        XCTAssertTrue(table.isEmpty)
        table["a.jpg"] = item("a.jpg")
        table["b.jpg"] = item("b.jpg")
        table["c.jpg"] = item("c.jpg")
        XCTAssertEqual(table.count, 3)
        table["a.jpg"] = item("a.jpg", placeholder: false)
        XCTAssertEqual(table["a.jpg"]?.isPlaceholder, false)
        XCTAssertEqual(table.count, 3)
        table["a.jpg"] = nil   // the last item moves into the gap and stays found by its id
        XCTAssertNil(table["a.jpg"])
        XCTAssertEqual(table["c.jpg"]?.id, "c.jpg")
        XCTAssertEqual(table["b.jpg"]?.id, "b.jpg")
        XCTAssertEqual(Set(table.values.map(\.id)), ["b.jpg", "c.jpg"])
        table["c.jpg"] = nil
        table["b.jpg"] = nil
        XCTAssertTrue(table.isEmpty)
        table["nothing"] = nil
        XCTAssertTrue(table.isEmpty)
    }

    func testBuiltFromAListTheFirstItemOfAnIdWins() {
        let table = RemoteItemTable([item("a.jpg", placeholder: false), item("b.jpg"), item("a.jpg")])
        XCTAssertEqual(table.count, 2)
        XCTAssertEqual(table["a.jpg"]?.isPlaceholder, false)
        XCTAssertEqual(table.values.map(\.id), ["a.jpg", "b.jpg"])
    }
}
