import BrowserRuntime
import Foundation
import TerminalGraphics

/// Asks tmux about the pane livegrid runs in (`tmux display -p`, a few milliseconds) and, when that tmux's
/// client runs inside another tmux on this machine, asks that one too (found through the client process's
/// TMUX and TMUX_PANE). The parsing is pure (`TmuxFacts.parse`); this is the part that runs processes.
enum TmuxQuery {
    /// The chain of tmux levels around this process, innermost first; nil outside tmux or when tmux does
    /// not answer.
    static func chain(environment: [String: String]) -> TmuxChain? {
        guard let socket = environment["TMUX"].map(socketPath), !socket.isEmpty else { return nil }
        var levels: [TmuxFacts] = []
        var target: (socket: String, pane: String?) = (socket, environment["TMUX_PANE"])
        // Four levels is more nesting than anyone runs; the bound keeps a confused /proc from looping.
        while levels.count < 4 {
            guard let facts = facts(socket: target.socket, pane: target.pane) else {
                return levels.isEmpty ? nil : TmuxChain(levels: levels, outerLevelUnknown: true)
            }
            levels.append(facts)
            guard facts.clientIsTmux else { return TmuxChain(levels: levels) }
            guard let pid = facts.clientPID, let outer = tmuxEnvironment(from: pid), let outerSocket = outer["TMUX"] else {
                // The client's tmux is elsewhere (over SSH): wrap once more, position unknown.
                return TmuxChain(levels: levels, outerLevelUnknown: true)
            }
            target = (socketPath(outerSocket), outer["TMUX_PANE"])
        }
        return TmuxChain(levels: levels)
    }

    /// TMUX is "socket,server pid,session index".
    static func socketPath(_ tmuxVariable: String) -> String {
        String(tmuxVariable.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    static func facts(socket: String, pane: String?) -> TmuxFacts? {
        var arguments = ["-S", socket, "display-message", "-p"]
        if let pane { arguments += ["-t", pane] }
        arguments.append(TmuxFacts.format)
        return run(arguments).flatMap(TmuxFacts.parse)
    }

    /// Runs tmux with a deadline (a wedged server must not hang the browser); nil on any failure.
    static func run(_ arguments: [String], timeout: TimeInterval = 1) -> String? {
        guard let tmux = executable else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmux)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(2_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Found once, on the `PATH` the executable started with.
    private static let executable: String? = {
        let path = RuntimeEnvironment.launch.executableSearchPath
        return path.split(separator: ":").map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The TMUX and TMUX_PANE a tmux client was started under: its own environment, or (since nesting
    /// needs `TMUX= tmux attach` or `unset TMUX` first) that of the nearest parent which still has them,
    /// typically the shell in the outer pane (/proc keeps each process's environment as it was at exec).
    static func tmuxEnvironment(from pid: Int) -> [String: String]? {
        var current = pid
        for _ in 0..<8 where current > 1 {
            if let environment = processEnvironment(pid: current), let tmux = environment["TMUX"], !tmux.isEmpty {
                return environment
            }
            guard let parent = parentPID(of: current) else { return nil }
            current = parent
        }
        return nil
    }

    /// The parent process id from /proc/PID/stat ("pid (comm) state ppid ..."; comm may hold spaces).
    static func parentPID(of pid: Int) -> Int? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int(fields[1]) : nil
    }

    /// Another process's environment (same user, same machine), from /proc.
    static func processEnvironment(pid: Int) -> [String: String]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return nil }
        var environment: [String: String] = [:]
        for entry in data.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let equals = text.firstIndex(of: "=") else { continue }
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return environment
    }
}
