import Foundation
import TestSupport
import XCTest

/// The browse command's checks that happen before the terminal is taken over.
final class BrowseCommandTests: XCTestCase {
    private func binary() throws -> String {
        let binary = try MissingRequirement.livegridBinary()
        return binary
    }

    func testInvalidConfigStopsWithTheLineNumber() throws {
        let dir = try Fixtures.makeTemporaryDirectory("livegrid-config")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config.toml")
        try "[badge]\ncorner = \"middle\"\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try ToolRunner.run(try binary(), ["browse", "--config", config.path, dir.path], mergeErrors: true)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("line 2"), result.output)
        XCTAssertTrue(result.output.contains("top-left"), "the error lists the allowed values: \(result.output)")
    }

    func testWithoutATerminalItSaysSoInsteadOfDrawing() throws {
        let dir = try Fixtures.makeTemporaryDirectory("livegrid-notty")
        defer { try? FileManager.default.removeItem(at: dir) }
        // An empty config of its own: the user's is never read, and a named config must exist (issue 32.9).
        let config = dir.appendingPathComponent("config.toml")
        XCTAssertTrue(FileManager.default.createFile(atPath: config.path, contents: Data()))
        let result = try ToolRunner.run(try binary(), ["browse", "--config", config.path, dir.path], mergeErrors: true)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("needs a terminal"), result.output)
        XCTAssertFalse(result.output.contains("\u{1B}["), "no escape sequences when not on a terminal")
    }

    func testMissingDirectoryIsAnError() throws {
        let result = try ToolRunner.run(try binary(), ["browse", "/nonexistent/photos"], mergeErrors: true)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("does not exist"), result.output)
    }
}
