import Foundation
import XCTest
import TestSupport

/// A detached tmux session on a private server socket (so tests never touch the user's tmux), running one
/// command at a fixed size; keys go in with send-keys, the screen comes back with capture-pane.
final class TmuxSession {
    let socket = "livegrid-e2e-\(UUID().uuidString.prefix(8))"
    let name = "e2e"
    private static let tmuxPath: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Skips the calling test when tmux is absent.
    static func requireTmux() throws {
        guard tmuxPath != nil else { throw MissingRequirement.tool("tmux is not installed: skipping the end-to-end UI tests") }
    }

    init(command: String, columns: Int = 120, rows: Int = 40) throws {
        try Self.requireTmux()
        // The server this starts inherits the client's stdout: it must not be a pipe we read to the end.
        try run(["new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), command], capture: false)
        // Keep the pane after the command exits so its last screen can be read.
        try run(["set-option", "-t", name, "remain-on-exit", "on"], capture: false)
    }

    deinit { _ = try? run(["kill-server"], capture: false) }

    /// The server's only setting, read before the first command starts: a command that exits at once (a
    /// refusal before the screen is taken) keeps its pane, so its last screen can be read. Setting it after
    /// `new-session` raced such a command.
    private static let configPath: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-e2e-tmux.conf").path
        try? "set -g remain-on-exit on\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()

    @discardableResult
    func run(_ arguments: [String], capture: Bool = true) throws -> String {
        try ToolRunner.run(Self.tmuxPath ?? "/usr/bin/tmux", ["-L", socket, "-f", Self.configPath] + arguments,
                           capture: capture).output
    }

    func send(_ keys: String...) throws {
        for key in keys {
            try run(["send-keys", "-t", name, key], capture: false)
            // Separate keys so Esc followed by a key is never read as Alt-key.
            Thread.sleep(forTimeInterval: 0.08)
        }
    }

    /// A left click at a zero-based cell, as the X10 mouse report tmux-256color's terminfo announces
    /// (press then release).
    func click(x: Int, y: Int) throws {
        guard x < 223, y < 223, let column = Unicode.Scalar(33 + x), let row = Unicode.Scalar(33 + y) else { return }
        let report = "\u{1B}[M \(column)\(row)\u{1B}[M#\(column)\(row)"
        try run(["send-keys", "-t", name, "-l", report], capture: false)
    }

    /// The visible screen as lines of characters.
    func screen() throws -> [String] {
        var lines = try run(["capture-pane", "-p", "-t", name]).components(separatedBy: "\n")
        // capture-pane ends every line with a newline: drop the empty piece after the last one.
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    func resize(columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)], capture: false)
    }

    func display(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the pane's command has exited (remain-on-exit keeps the pane, marked dead).
    func waitForExit(timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try display("#{pane_dead}") != "1" {
            guard Date() < deadline else { return XCTFail("the command did not exit within \(timeout) s", file: file, line: line) }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits until the screen, colours included, stops changing: the same capture `quietPolls` times in a row,
    /// 0.1 s apart. The condition-based stand-in for "one more draw turn": a test that needs the last pictures
    /// drawn waits for the drawing to stop, however slow the machine.
    @discardableResult
    func waitForStableScreen(quietPolls: Int = 3, timeout: TimeInterval = 30, file: StaticString = #filePath,
                             line: UInt = #line) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = "", unchanged = 0
        while Date() < deadline {
            let now = try run(["capture-pane", "-p", "-e", "-t", name])
            unchanged = now == last ? unchanged + 1 : 0
            last = now
            if unchanged >= quietPolls { return now }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("the screen kept changing for \(timeout) s", file: file, line: line)
        return last
    }

    /// Polls the screen until `condition` holds; fails with the last screen after `timeout` seconds.
    @discardableResult
    func waitFor(_ what: String, timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line,
                 _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String] = []
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("timed out waiting for \(what); screen:\n" + last.joined(separator: "\n"), file: file, line: line)
        return last
    }
}
