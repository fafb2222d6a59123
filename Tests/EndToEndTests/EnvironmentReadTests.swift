import Foundation
import TestSupport
import XCTest

/// Issue 16.5 stays done: the environment is read once, by the executable's `LaunchEnvironment`, and handed
/// down as a value. A new `ProcessInfo.processInfo.environment` or `getenv(` anywhere else in Sources fails
/// here, with the line: take the value as an argument instead (`BrowserOptions.environment`,
/// `RuntimeEnvironment`, an `environment:` parameter).
final class EnvironmentReadTests: XCTestCase {
    /// Files allowed to read the process environment, each with why.
    private let allowed: [String: String] = [
        "livegrid/LaunchEnvironment.swift": "the one read, at start",
    ]
    private let reads = ["ProcessInfo.processInfo.environment", "getenv(", "secure_getenv("]

    func testOnlyTheLaunchEnvironmentReadsTheProcessEnvironment() throws {
        let sources = URL(fileURLWithPath: Fixtures.committed("")).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: sources.path) else {
            return XCTFail("cannot list \(sources.path)")
        }
        var checked = 0
        var offenders: [String] = []
        for case let file as String in walker where [".swift", ".c", ".h"].contains(where: file.hasSuffix) {
            checked += 1
            guard allowed[file] == nil else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), !code.hasPrefix("*"), !code.hasPrefix("/*") else { continue }
                if reads.contains(where: code.contains) { offenders.append("\(file):\(number + 1): \(code)") }
            }
        }
        XCTAssertGreaterThan(checked, 100, "found the sources at \(sources.path)")
        XCTAssertTrue(allowed.keys.allSatisfy { FileManager.default.fileExists(atPath: sources.appendingPathComponent($0).path) },
                      "every allowed file still exists")
        XCTAssertEqual(offenders, [], "read the environment once (LaunchEnvironment) and pass it down:\n"
                       + offenders.joined(separator: "\n"))
    }
}
