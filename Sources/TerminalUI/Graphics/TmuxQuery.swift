import BrowserRuntime
import Foundation
import TerminalGraphics
import TerminalProtocol

/// Asks tmux about the pane livegrid runs in (`tmux display -p`, a few milliseconds) and, when that tmux's
/// client runs inside another tmux on this machine, asks that one too (found through the client process's
/// TMUX and TMUX_PANE). The parsing is pure (`TmuxFacts.parse`); this is the part that runs processes.
enum TmuxQuery {
    /// Where one tmux level is asked: its server's socket and the pane (nil: tmux's current pane).
    struct Level: Equatable, Sendable {
        var socket: String
        var pane: String?
    }

    /// The chain of tmux levels around this process, innermost first; nil outside tmux or when tmux does
    /// not answer. `ignoringClients`: client processes (livegrid's own control-mode watchers) that must not
    /// count as a client showing the pane.
    static func chain(environment: [String: String], ignoringClients: Set<Int> = []) -> TmuxChain? {
        walk(environment: environment, ignoringClients: ignoringClients)?.chain
    }

    /// The servers and panes of the levels livegrid can ask, innermost first (what the redraw watch
    /// listens to).
    static func levels(environment: [String: String]) -> [Level] {
        walk(environment: environment, ignoringClients: [])?.levels ?? []
    }

    /// One control-mode client per tmux level livegrid can ask (the redraw watch's notifications); empty
    /// when tmux is missing or answers nothing.
    static func controlClients(environment: [String: String]) -> [any TmuxNotificationStream] {
        guard let tmux = executable else { return [] }
        return levels(environment: environment).compactMap {
            TmuxControlClient(tmux: tmux, socket: $0.socket, pane: $0.pane)
        }
    }

    private static func walk(environment: [String: String], ignoringClients: Set<Int>) -> (chain: TmuxChain, levels: [Level])? {
        guard let socket = environment["TMUX"].map(socketPath), !socket.isEmpty else { return nil }
        var levels: [TmuxFacts] = []
        var asked: [Level] = []
        var target = Level(socket: socket, pane: environment["TMUX_PANE"])
        // Four levels is more nesting than anyone runs; the bound keeps a confused /proc from looping.
        while levels.count < 4 {
            guard let facts = facts(socket: target.socket, pane: target.pane, ignoringClients: ignoringClients) else {
                return levels.isEmpty ? nil : (TmuxChain(levels: levels, outerLevelUnknown: true), asked)
            }
            levels.append(facts)
            asked.append(target)
            guard facts.clientIsTmux else { return (TmuxChain(levels: levels), asked) }
            guard let pid = facts.clientPID, let outer = tmuxEnvironment(from: pid), let outerSocket = outer["TMUX"] else {
                // The client's tmux is elsewhere (over SSH): wrap once more, position unknown.
                return (TmuxChain(levels: levels, outerLevelUnknown: true), asked)
            }
            target = Level(socket: socketPath(outerSocket), pane: outer["TMUX_PANE"])
        }
        return (TmuxChain(levels: levels), asked)
    }

    /// TMUX is "socket,server pid,session index".
    static func socketPath(_ tmuxVariable: String) -> String {
        String(tmuxVariable.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    static func facts(socket: String, pane: String?, ignoringClients: Set<Int> = []) -> TmuxFacts? {
        var display = ["display-message", "-p"]
        if let pane { display += ["-t", pane] }
        guard !ignoringClients.isEmpty else {
            return run(["-S", socket] + display + [TmuxFacts.format]).flatMap(TmuxFacts.parse)
        }
        // tmux's `display` picks the most recently active client, and a control client just attached is
        // the most recent: name the client tmux would pick among the others, and count only those.
        let listing = ["-S", socket, "list-clients", "-F", TmuxClientListing.format, ";"] + display + ["#{session_id}"]
        guard let answer = run(listing) else { return nil }
        let choice = TmuxClientListing.choose(answer, ignoring: ignoringClients)
        if let client = choice.client { display += ["-c", client] }
        guard let facts = run(["-S", socket] + display + [TmuxFacts.format]).flatMap(TmuxFacts.parse) else { return nil }
        return choice.applied(to: facts)
    }

    /// Runs tmux with a deadline (a wedged server must not hang the browser); nil on any failure. Through
    /// `ChildProcess`: the watch calls this from a worker thread, whose blocked SIGTERM a `Process` child
    /// would inherit (and so ignore being stopped at the deadline).
    static func run(_ arguments: [String], timeout: TimeInterval = 1) -> String? {
        guard let tmux = executable, let child = ChildProcess(tmux, arguments) else { return nil }
        child.closeInput()
        guard let output = child.readAll(timeout: timeout) else { return nil }
        child.end(after: timeout)
        guard child.succeeded else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    /// Found once, on the `PATH` the executable started with.
    static let executable: String? = {
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
