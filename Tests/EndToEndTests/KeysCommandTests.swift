import Foundation
import TestSupport
import XCTest

/// Issue 31.10: `livegrid keys` and `livegrid help keys` list the browser's keys, triage included, and `keys`
/// shows the config's `[keys]` rebindings (the man page is generated from the same text as `help keys`).
final class KeysCommandTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("livegrid-keys")
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }   // a temporary directory: nothing to report
    }

    /// The keys a newcomer looks for first: moving, the viewer's zoom, folders, and every triage action.
    private static let expected = [("Zoom 100 %/fit", "z"), ("All below (-r)", "F"), ("Undo", "u"), ("Trash", "d"),
                                   ("Copy to…", "c"), ("Move to…", "v"), ("Rotate right", "]"), ("Pick", "p"),
                                   ("Reject", "x"), ("Mark / next", "m")]

    private func line(_ label: String, in output: String) -> String? {
        output.split(separator: "\n").map(String.init).first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label + " ") }
    }

    func testKeysAndHelpKeysListTheBrowsersKeys() throws {
        let environment = ["XDG_CONFIG_HOME": root.appendingPathComponent("config").path]
        let keys = try LivegridCommand.run(["keys"], environment: environment)
        let help = try LivegridCommand.run(["help", "keys"], environment: environment)
        for (name, result) in [("keys", keys), ("help keys", help)] {
            XCTAssertEqual(result.status, 0, "\(name): \(result.err)")
            for (label, key) in Self.expected {
                let found = try XCTUnwrap(line(label, in: result.out), "\(name) lists \(label):\n\(result.out)")
                XCTAssertTrue(found.split(separator: " ").contains(Substring(key)), "\(name): \(label) is \(key): \(found)")
            }
        }
        XCTAssertNotNil(line("Rating 0-5", in: keys.out), "the rating keys:\n\(keys.out)")
    }

    func testKeysShowsTheConfigsRebinding() throws {
        let config = root.appendingPathComponent("config/livegrid")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("[keys]\nzoom-100 = \"Z\"\n".utf8).write(to: config.appendingPathComponent("config.toml"))
        let keys = try LivegridCommand.run(["keys"], environment: ["XDG_CONFIG_HOME": root.appendingPathComponent("config").path])
        XCTAssertEqual(keys.status, 0, keys.err)
        let zoom = try XCTUnwrap(line("Zoom 100 %/fit", in: keys.out), keys.out)
        XCTAssertTrue(zoom.hasSuffix(" Z"), "rebound to Z: \(zoom)")
    }
}
