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

    /// Runs livegrid with `arguments` on a pty whose master is closed before it starts (a terminal already
    /// gone, not the controlling one); its exit code (negative: the signal that stopped it).
    private func exitOnATerminalAlreadyGone(_ arguments: [String]) throws -> Int {
        let script = """
            import os, sys
            master, slave = os.openpty()
            os.close(master)
            pid = os.fork()
            if pid == 0:
                os.setsid()
                for fd in (0, 1, 2): os.dup2(slave, fd)
                os.close(slave)
                env = {k: v for k, v in os.environ.items() if k not in ('TMUX', 'TMUX_PANE')}
                env['TERM'] = 'xterm-256color'
                os.execve(sys.argv[1], sys.argv[1:], env)
            os.close(slave)
            _, status = os.waitpid(pid, 0)
            print(os.waitstatus_to_exitcode(status))
            """
        let settings = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let run = try ExternalTool.runProgram("/usr/bin/timeout", ["60", "/usr/bin/env"] + settings
                                                  + [try ScriptedPtyTerminal.requirePython(), "-c", script, try binary()] + arguments)
        return try XCTUnwrap(Int(run.out.trimmingCharacters(in: .whitespacesAndNewlines)), "\(run.out) \(run.err)")
    }

    /// `show` wrote its picture with Foundation's `write(_: Data)`, which stops the process with SIGILL when
    /// the terminal is gone (EIO); `export`'s progress line on a terminal did the same. Both end without a
    /// signal: `show` with status 1 (nothing was shown), `export` with its copies made.
    func testShowAndExportOnATerminalThatIsGoneEndWithoutACrash() throws {
        let show = try exitOnATerminalAlreadyGone(["show", Fixtures.committed("train.jpg")])
        XCTAssertEqual(show, 1, "show on a terminal that is gone (-4: SIGILL)")
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let export = try exitOnATerminalAlreadyGone(["export", Fixtures.committed("train.jpg"), "--to", out.path])
        XCTAssertGreaterThanOrEqual(export, 0, "export on a terminal that is gone ended by signal \(-export)")
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
