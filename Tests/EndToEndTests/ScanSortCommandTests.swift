import Foundation
import TestSupport
import XCTest

/// `scan --sort`: the browser's sort orders (BrowserCore/Views) on the command line.
final class ScanSortCommandTests: XCTestCase {
    func testSortBySizeListsTheLargestFirstAndABadWordIsAUsageError() throws {
        let dir = try Fixtures.makeTemporaryDirectory("livegrid-scan-sort")
        defer { try? FileManager.default.removeItem(at: dir) }
        // "a" is the small Motion Photo, "b" the large train still: name order and size order disagree.
        try FileManager.default.copyItem(atPath: Fixtures.committed("motion-photo-v1.jpeg"),
                                         toPath: dir.appendingPathComponent("a.jpeg").path)
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: dir.appendingPathComponent("b.jpg").path)
        func names(_ args: [String]) throws -> [String] {
            let result = try LivegridCommand.run(["scan", dir.path, "--json", "--no-index"] + args)
            XCTAssertEqual(result.status, 0, result.err)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            return try XCTUnwrap(json["items"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        }
        XCTAssertEqual(try names([]), ["a.jpeg", "b.jpg"])
        XCTAssertEqual(try names(["--sort", "size"]), ["b.jpg", "a.jpeg"])
        let bad = try LivegridCommand.run(["scan", dir.path, "--sort", "colour"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.err.contains("name") && bad.err.contains("size"), bad.err)
    }
}
