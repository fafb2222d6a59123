import Foundation
import TestSupport
import XCTest

/// Issue 31, "late terminal replies are read as keystrokes": a terminal that answers livegrid's start-up probe
/// after 0.6-1.5 s (kitty under load, a slow ssh link). The reply `ESC _ G i=31;OK ESC \` was read as `G` (last),
/// `=` (zoom), `3` and `1` (ratings), and a rating sidecar appeared in the library. Here a scripted terminal
/// answers late, split, twice or never, under six TERMs, then sends `q`: nothing in the folder may change, no item
/// may be marked, and livegrid quits normally (the `q` after the replies is still a key).
final class LateReplyEndToEndTests: XCTestCase {
    private static let terms = ["xterm-256color", "xterm-kitty", "tmux-256color", "screen-256color", "xterm", "linux"]

    func testRepliesArrivingLateAreNotKeys() throws {
        try check(.late, delay: 0.9)
    }

    func testRepliesArrivingLateAndSplitAreNotKeys() throws {
        try check(.split, delay: 0.6)
    }

    func testRepliesArrivingTwiceAreNotKeys() throws {
        try check(.twice, delay: 1.5)
    }

    func testNoRepliesAtAllStillQuitsOnQ() throws {
        try check(.never, delay: 0)
    }

    /// No mark either: marks live in memory, so `--print-marked` writes them to a file on exit (the browser then
    /// draws on /dev/tty, the same pty). A DECRQSS reply ends in `m`, the mark key.
    func testRepliesArrivingLateOrSplitMarkNothing() throws {
        try check(.late, delay: 0.9, checkingMarks: true)
        try check(.split, delay: 0.6, checkingMarks: true)
    }

    private func check(_ mode: ScriptedPtyTerminal.Mode, delay: Double, checkingMarks: Bool = false,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let binary = try MissingRequirement.livegridBinary()
        _ = try ScriptedPtyTerminal.requirePython()
        for term in Self.terms {
            let root = try Fixtures.makeTemporaryDirectory("livegrid-late-reply")
            defer { try? FileManager.default.removeItem(at: root) }   // a temporary directory: nothing to report
            let library = root.appendingPathComponent("library"), home = root.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
                try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: library.appendingPathComponent(name).path)
            }
            let before = try snapshot(library)
            let marked = root.appendingPathComponent("marked.txt")
            let arguments = checkingMarks
                ? ["/bin/sh", "-c", "exec '\(binary)' --print-marked '\(library.path)' > '\(marked.path)'"] : [binary, library.path]
            let outcome = try ScriptedPtyTerminal.run(
                arguments, mode: mode, term: term, delay: delay,
                environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config", "XDG_CACHE_HOME": home.path + "/cache"],
                in: root)
            let context = "\(mode) under TERM=\(term); the screen ended with: \(outcome.outputTail.suffix(600).debugDescription)"
            XCTAssertTrue(outcome.exited, "livegrid did not quit on `q` (\(context))", file: file, line: line)
            XCTAssertEqual(outcome.status, 0, "exit status (\(context))", file: file, line: line)
            let after = try snapshot(library)
            XCTAssertEqual(Set(after.keys), Set(before.keys),
                           "files appeared or went (a sidecar is a rating read from a reply): \(context)", file: file, line: line)
            for (name, state) in before where after[name] != state {
                XCTFail("\(name) changed: \(context)", file: file, line: line)
            }
            if checkingMarks {
                let printed = try XCTUnwrap(FileManager.default.contents(atPath: marked.path), "--print-marked wrote its file: \(context)",
                                            file: file, line: line)
                XCTAssertEqual(String(decoding: printed, as: UTF8.self), "", "nothing marked (\(context))", file: file, line: line)
            }
        }
    }

    /// Every file in `directory` with its size, modification time and contents' hash.
    private func snapshot(_ directory: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let path = directory.appendingPathComponent(name).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let data = FileManager.default.contents(atPath: path) ?? Data()
            var hasher = Hasher()
            hasher.combine(data)
            files[name] = "\(data.count) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) \(hasher.finalize())"
        }
        return files
    }
}
