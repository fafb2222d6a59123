import Foundation
import TestSupport
import XCTest

/// Runs the built `livegrid scan` as a script would.
final class ScanCommandTests: XCTestCase {
    private func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try LivegridCommand.run(args)
    }

    func testJSONListsTheLivePhotoWithItsFacts() throws {
        let dir = try Fixtures.makeTemporaryDirectory("livegrid-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name),
                                             toPath: dir.appendingPathComponent(name).path)
        }
        try Data("garbage".utf8).write(to: dir.appendingPathComponent("broken.jpg"))
        let result = try run(["scan", dir.path, "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let items = try XCTUnwrap(json["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 3)
        let live = try XCTUnwrap(items.first { $0["kind"] as? String == "live" })
        XCTAssertEqual(live["identifier"] as? String, "E905E6C6-C747-4805-942F-9904A0281F02")
        XCTAssertEqual(try XCTUnwrap(live["stillImageTime"] as? Double), 0.48, accuracy: 0.001)
        XCTAssertEqual((live["files"] as? [[String: Any]])?.count, 2)
        let motion = try XCTUnwrap(items.first { $0["kind"] as? String == "motion" })
        let range = try XCTUnwrap(motion["embeddedMovie"] as? [String: Any])
        XCTAssertEqual(range["offset"] as? Int, 30821)
        XCTAssertEqual(range["length"] as? Int, 122562)
        let broken = try XCTUnwrap(items.first { $0["name"] as? String == "broken.jpg" })
        XCTAssertFalse((broken["warnings"] as? [String] ?? []).isEmpty)
        let counts = try XCTUnwrap(json["counts"] as? [String: Int])
        XCTAssertEqual(counts["live"], 1)
        XCTAssertEqual(counts["motion"], 1)
    }

    func testTableIsReadableAndAMissingDirectoryFails() throws {
        let table = try run(["scan", Fixtures.committed("")])
        XCTAssertEqual(table.status, 0)
        XCTAssertTrue(table.out.contains("KIND"))
        XCTAssertTrue(table.out.contains("train.jpg + train.mov"))
        let missing = try run(["scan", "/nonexistent-livegrid-dir"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.err.contains("does not exist"), missing.err)
    }

    func testHelpAndVersion() throws {
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.contains("Live Photos"))
        let version = try run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertFalse(version.out.isEmpty)
    }

    /// libav*/libheif (and libjxl, libde265, ... behind them) are opened on first decode, not at start-up:
    /// that is ~36 ms of every run, paid only by runs that decode HEIC or movies.
    func testCodecLibrariesAreNotLoadedAtStartButOpenOnUse() throws {
        let binary = try MissingRequirement.livegridBinary()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd") else { throw MissingRequirement.tool("ldd is not installed") }
        let linked = try ToolRunner.run("/usr/bin/ldd", [binary]).output
        XCTAssertTrue(linked.contains("libturbojpeg"), linked)
        for library in ["libavcodec", "libavformat", "libheif", "libde265", "libjxl"] {
            XCTAssertFalse(linked.contains(library), "\(library) is loaded at start-up:\n\(linked)")
        }
        let version = try run(["version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.out.contains("libavcodec 5") || version.out.contains("libavcodec 6"), version.out)
        XCTAssertTrue(version.out.contains("libheif 1."), version.out)
    }
}
