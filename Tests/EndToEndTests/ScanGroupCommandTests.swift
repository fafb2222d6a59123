import Foundation
import TestSupport
import XCTest

/// `scan --group`: the browser's sections (BrowserCore/Views) on the command line, as header lines in the
/// table and as `sections` (title, first item, count) in the JSON.
final class ScanGroupCommandTests: XCTestCase {
    /// train.jpg carries an Exif capture date (April 2021); the Motion Photo has none.
    private func makeLibrary() throws -> URL {
        let dir = try Fixtures.makeTemporaryDirectory("livegrid-scan-group")
        let files = [("a/x.jpeg", "motion-photo-v1.jpeg"), ("b/y.jpg", "train.jpg"), ("b/z.jpeg", "motion-photo-v1.jpeg")]
        for (path, fixture) in files {
            let target = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Fixtures.committed(fixture), toPath: target.path)
        }
        return dir
    }

    private func json(_ args: [String]) throws -> (names: [String], sections: [[String: Any]]?) {
        let result = try LivegridCommand.run(["scan", "--json", "--no-index"] + args)
        XCTAssertEqual(result.status, 0, result.err)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let names = try XCTUnwrap(json["items"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        return (names, json["sections"] as? [[String: Any]])
    }

    private func plain(_ sections: [[String: Any]]) -> [String] {
        sections.map { "\($0["title"] as? String ?? "?")|\($0["first"] as? Int ?? -1)|\($0["count"] as? Int ?? -1)" }
    }

    func testGroupByFolderPrintsAHeaderBeforeEachFolderInTextAndJSON() throws {
        let dir = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: dir) }
        let grouped = try json([dir.path, "-r", "--group", "folder"])
        XCTAssertEqual(grouped.names, ["x.jpeg", "y.jpg", "z.jpeg"])
        // Folder titles are the folders as the items' paths give them (the browser's headers, word for word).
        XCTAssertEqual(plain(try XCTUnwrap(grouped.sections)), ["\(dir.path)/a · 1 item|0|1", "\(dir.path)/b · 2 items|1|2"])
        // Without --group the JSON keeps its old shape: no sections key at all.
        XCTAssertNil(try json([dir.path, "-r"]).sections)

        let text = try LivegridCommand.run(["scan", dir.path, "-r", "--no-index", "--group", "folder"])
        XCTAssertEqual(text.status, 0, text.err)
        let lines = text.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let a = lines.firstIndex(of: "== \(dir.path)/a · 1 item"), b = lines.firstIndex(of: "== \(dir.path)/b · 2 items")
        let x = lines.firstIndex { $0.contains("x.jpeg") }, y = lines.firstIndex { $0.contains("y.jpg") }
        let z = lines.firstIndex { $0.contains("z.jpeg") }
        let order = [a, x, b, y, z].map { $0 ?? -1 }
        XCTAssertFalse(order.contains(-1), text.out)
        XCTAssertEqual(order, order.sorted(), text.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("3 items") }, text.out)
    }

    func testGroupTimelineHasYearMonthAndUndatedSectionsAndABadWordIsAUsageError() throws {
        let dir = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: dir) }
        // "timeline" and "date" name the same grouping; the dated still comes first, the undated ones after it.
        for word in ["timeline", "date"] {
            let grouped = try json([dir.path, "-r", "--group", word])
            XCTAssertEqual(grouped.names, ["y.jpg", "x.jpeg", "z.jpeg"], word)
            XCTAssertEqual(plain(try XCTUnwrap(grouped.sections)),
                           ["2021|0|0", "April 2021 · 1 item|0|1", "Undated · 2 items|1|2"], word)
        }
        let text = try LivegridCommand.run(["scan", dir.path, "-r", "--no-index", "--group", "timeline"])
        XCTAssertEqual(text.status, 0, text.err)
        let lines = text.out.split(separator: "\n").map(String.init)
        let headers = lines.filter { $0.hasPrefix("== ") }
        XCTAssertEqual(headers, ["== 2021", "== April 2021 · 1 item", "== Undated · 2 items"], text.out)

        let bad = try LivegridCommand.run(["scan", dir.path, "--group", "colour"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.err.contains("folder") && bad.err.contains("timeline"), bad.err)
    }
}
