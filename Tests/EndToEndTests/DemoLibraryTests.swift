import Foundation
import TestSupport
import XCTest

/// `scripts/make-demo-library.sh`, which `make run` opens on a fresh clone: generated into a temporary
/// directory, then counted the way a script would, with `livegrid scan -r --json`.
final class DemoLibraryTests: XCTestCase {
    private static let tools = ["ffmpeg", "heif-enc", "exiftool"]

    func testTheDemoLibraryShowsEveryKindOfItem() throws {
        for tool in Self.tools {
            _ = try MissingRequirement.path(of: tool, for: "cannot generate the demo library (make test-deps)")
        }
        let binary = try MissingRequirement.livegridBinary()
        let work = try Fixtures.makeTemporaryDirectory("livegrid-demo")
        defer { try? FileManager.default.removeItem(at: work) }
        let library = work.appendingPathComponent("demo library")

        let script = Fixtures.packageRoot.appendingPathComponent("scripts/make-demo-library.sh").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", script, library.path]
        var environment = ProcessInfo.processInfo.environment
        environment["LIVEGRID"] = binary
        environment["DEMO_SHARED"] = "0"     // the same library with or without ../shared
        environment["TMPDIR"] = work.path
        process.environment = environment
        let log = work.appendingPathComponent("make-demo-library.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        process.standardOutput = logHandle
        process.standardError = logHandle
        try process.run()
        process.waitUntilExit()
        try? logHandle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        XCTAssertEqual(process.terminationStatus, 0, output)

        let scan = try LivegridCommand.run(["scan", "-r", "--json", library.path])
        XCTAssertEqual(scan.status, 0, scan.err)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(scan.out.utf8)) as? [String: Any])
        let items = try XCTUnwrap(json["items"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(items.count, 24, "at least 24 items")

        func format(_ item: [String: Any]) -> String? {
            ((item["files"] as? [[String: Any]])?.first { $0["role"] as? String == "still" })?["format"] as? String
        }
        func count(_ predicate: ([String: Any]) -> Bool) -> Int { items.filter(predicate).count }
        let warnings = { (item: [String: Any]) in item["warnings"] as? [String] ?? [] }
        let name = { (item: [String: Any]) in item["name"] as? String ?? "" }
        let kinds: [(String, Int)] = [
            ("Live Photo with a JPEG still", count { $0["kind"] as? String == "live" && format($0) == "jpeg" }),
            ("Live Photo with a HEIC still", count { $0["kind"] as? String == "live" && format($0) == "heif" }),
            ("JPEG Motion Photo", count { $0["kind"] as? String == "motion" && format($0) == "jpeg" }),
            ("HEIC Motion Photo", count { $0["kind"] as? String == "motion" && format($0) == "heif" }),
            ("LIVE OFF still (movie missing)", count { $0["liveOffReason"] is String }),
            ("video", count { $0["kind"] as? String == "video" }),
            // A damaged file: the scan reports a problem in the file's own bytes ("NAME: ...").
            ("damaged file", count { item in warnings(item).contains { $0.hasPrefix(name(item) + ":") } }),
            ("item in a subfolder", count { ($0["files"] as? [[String: Any]])?.contains { ($0["path"] as? String ?? "").contains("Holiday 2024/") } == true }),
        ]
        for (kind, found) in kinds {
            XCTAssertGreaterThan(found, 0, "the demo library has a \(kind)\n\(output)")
        }
        let plainOrientations = Set(items.filter { $0["kind"] as? String == "still" && $0["identifier"] == nil }
            .compactMap { $0["orientation"] as? Int })
        XCTAssertGreaterThanOrEqual(plainOrientations.count, 2, "plain stills in several Exif orientations: \(plainOrientations)")
        XCTAssertTrue(items.allSatisfy { !warnings($0).contains { $0.contains("shared with") } },
                      "every identifier is unique (no accidental pairs)")
        try checkRealPhotographs(items, library: library)
    }

    /// The real photographs the project ships (issue 31.10): the iPhone Live Photo paired, a Samsung JPEG and
    /// an iPhone HEIC as stills, all at their camera's full size and none with a location.
    private func checkRealPhotographs(_ items: [[String: Any]], library: URL) throws {
        func item(_ name: String) -> [String: Any]? { items.first { $0["name"] as? String == name } }
        func files(_ item: [String: Any]?) -> [String] {
            ((item?["files"] as? [[String: Any]]) ?? []).compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }
        }
        let train = item("train.jpg")
        XCTAssertEqual(train?["kind"] as? String, "live", "the real iPhone Live Photo is live")
        XCTAssertEqual(files(train), ["train.jpg", "train.mov"], "still and movie paired")
        for (name, format) in [("samsung-still.jpeg", "jpeg"), ("iphone-se-still.heic", "heif")] {
            let photo = try XCTUnwrap(item(name), "\(name) is in the demo library")
            XCTAssertEqual(photo["kind"] as? String, "still")
            XCTAssertEqual(photo["width"] as? Int, 4032, "\(name) at the camera's full size")
            XCTAssertEqual(((photo["files"] as? [[String: Any]])?.first)?["format"] as? String, format)
        }
        // exiftool reads every group (-a -u): no GPS tag, no QuickTime location, in the stills or the movie.
        let paths = ["train.jpg", "train.mov", "samsung-still.jpeg", "iphone-se-still.heic"].map { library.appendingPathComponent($0).path }
        let tags = try ExternalTool.runProgram(try MissingRequirement.path(of: "exiftool", for: "cannot read the photos' tags"),
                                               ["-a", "-u", "-G1", "-s"] + paths)
        XCTAssertEqual(tags.status, 0, tags.err)
        XCTAssertTrue(tags.out.contains("SM-G960F") && tags.out.contains("iPhone SE"), "the cameras' tags are kept")
        let located = tags.out.split(separator: "\n").filter { line in
            ["gps", "location", "coordinates"].contains { line.lowercased().contains($0) }
        }
        XCTAssertEqual(located, [], "no location in the demo's real photographs")
    }
}
