import Foundation
import TestSupport
import XCTest

/// Issue 32.1: a terminal that vanishes without a SIGHUP (under `su`, behind wrappers that keep the session,
/// after some dropped ssh links). livegrid runs in a new session whose stdin/stdout are a pty that is not its
/// controlling terminal; once it drew, the pty's master is closed. Reading the tty then returns EIO, and
/// livegrid used to wake on it forever (orphans burning a core for 50 minutes). It must end within 2 s, with
/// status 1.
final class VanishedTerminalEndToEndTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("livegrid-vanished-terminal")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: root)   // a temporary directory: nothing to report
        super.tearDown()
    }

    private func binary() throws -> String {
        let binary = try MissingRequirement.livegridBinary()
        return binary
    }

    private var environment: [String: String] {
        let home = root.appendingPathComponent("home").path
        return ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache"]
    }

    func testTheBrowserEndsWhenItsTerminalVanishes() throws {
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: library.appendingPathComponent(name).path)
        }
        for term in ["xterm-256color", "tmux-256color"] {
            let outcome = try ScriptedPtyTerminal.run([try binary(), library.path], mode: .vanish, term: term,
                                                      controlling: false, environment: environment, in: root)
            assertEnded(outcome, "the browser under TERM=\(term)")
        }
    }

    func testPlayEndsWhenItsTerminalVanishes() throws {
        // Many rounds: played to the end, they would last far longer than the 2 s allowed.
        let outcome = try ScriptedPtyTerminal.run([try binary(), "play", Fixtures.committed("train.mov"), "--repeat", "200"],
                                                  mode: .vanish, term: "xterm-256color", controlling: false,
                                                  minimumOutput: 4096, environment: environment, in: root)
        assertEnded(outcome, "play")
    }

    private func assertEnded(_ outcome: ScriptedPtyTerminal.Outcome, _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        let context = "\(what): \(outcome.secondsToExit) s after the close, \(outcome.cpuSeconds) s of CPU; "
            + "its screen ended with \(outcome.outputTail.suffix(300).debugDescription)"
        XCTAssertTrue(outcome.exited, "still running 5 s after its terminal vanished (\(context))", file: file, line: line)
        XCTAssertLessThan(outcome.secondsToExit, 2, context, file: file, line: line)
        // 1: it ended itself, saying why (not 0: it did not quit normally; not a signal: printing that message
        // on the dead terminal used to stop it with SIGILL).
        XCTAssertEqual(outcome.status, 1, "a vanished terminal ends livegrid with status 1 (\(context))", file: file, line: line)
    }
}
