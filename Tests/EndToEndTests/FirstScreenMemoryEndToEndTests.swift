import Foundation
import TestSupport
import XCTest

/// Issue 17 item 2: the browser remembers in the library index which pictures a view showed first, and the next
/// launch of that view finds them there (its cached thumbnails are loaded while the folder is listed).
final class FirstScreenMemoryEndToEndTests: XCTestCase {
    func testTheFirstScreenDrawnIsRememberedPerView() throws {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let root = try Fixtures.makeTemporaryDirectory("livegrid-first-screen-e2e")
        defer { try? FileManager.default.removeItem(at: root) }
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let source = root.appendingPathComponent("train.jpg").path
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: source)
        for i in 0..<600 {
            try FileManager.default.linkItem(atPath: source, toPath: library.appendingPathComponent(String(format: "IMG_%04d.JPG", i)).path)
        }
        let index = root.appendingPathComponent("cache/livegrid/library-index.sqlite").path
        for (run, view) in [(1, ""), (2, "--group date")] {
            let trace = root.appendingPathComponent("trace-\(run)").path
            let environment = "env XDG_CONFIG_HOME='\(root.path)/config' XDG_CACHE_HOME='\(root.path)/cache' "
                + "LIVEGRID_TRACE='\(trace)' TERM=tmux-256color"
            let session = try TmuxSession(command: "\(environment) '\(binary)' --graphics symbols \(view) '\(library.path)'",
                                          columns: 120, rows: 40)
            let deadline = Date().addingTimeInterval(120)
            while !(((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").contains(" grid-complete")), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
            // Stored by a thread of its own once the first screen is drawn: wait for the row, not a time.
            var rows: [String] = []
            while Date() < deadline {
                rows = try Self.firstScreens(index)
                if rows.count == run { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            try session.send("q")
            XCTAssertEqual(rows.count, run, "one remembered first screen per view: \(rows)")
        }
        let rows = try Self.firstScreens(index)
        for row in rows {
            let ids = row.split(separator: "|").map(String.init)
            XCTAssertGreaterThan(ids.count, 4, row)
            XCTAssertTrue(ids.allSatisfy { $0.hasPrefix(library.path + "/IMG_") }, row)
        }
        XCTAssertTrue(rows.contains { $0.hasPrefix(library.path + "/IMG_0000.JPG|" + library.path + "/IMG_0001.JPG|") },
                      "the name-ordered view starts with the first names: \(rows)")
    }

    /// Each remembered first screen as its ids joined by "|" (read with Python's sqlite3: no second SQLite here).
    private static func firstScreens(_ index: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: index) else { return [] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            try:
                for (items,) in c.execute('SELECT items FROM first_screens ORDER BY view'):
                    print('|'.join(p.decode() for p in items.split(b'\\0') if p))
            except sqlite3.OperationalError:
                pass
            """, index]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
