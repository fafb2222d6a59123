import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with posix_spawn and reaped with waitpid by the test itself, its output going to
/// files (never a pipe that nobody reads). Foundation's `Process` left `pactl` defunct here with a long-lived
/// daemon as a sibling (its SIGCHLD handling never reaped it, so `waitUntilExit` waited forever): tests that
/// keep a server running while they run other programs use this instead.
public final class SpawnedProcess {
    public let pid: pid_t
    public let path: String
    private var exitStatus: Int32?

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `path arguments` with exactly `environment`; stdin is /dev/null, stdout and stderr go to the
    /// given files (appended; /dev/null when nil).
    public init(_ path: String, _ arguments: [String], environment: [String: String],
                stdout: String? = nil, stderr: String? = nil) throws {
        self.path = path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        // Its own process group: a signal for the test (a terminal's ^C) is not the child's.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "cannot run \(path): \(String(cString: strerror(spawned)))") }
        pid = child
    }

    deinit { stop() }

    /// The exit status once it ended (128 + signal when killed), nil while it runs. Reaps it.
    public var status: Int32? {
        if exitStatus != nil { return exitStatus }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        if result == pid {
            exitStatus = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        } else if result < 0 && errno == ECHILD {
            exitStatus = -1   // reaped by someone else: gone, its status unknown
        }
        return exitStatus
    }

    public var isRunning: Bool { status == nil }

    /// Waits up to `timeout` seconds for it to end (polling waitpid: the condition itself); its status, or nil
    /// if it still runs.
    @discardableResult
    public func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while status == nil && Date() < deadline { usleep(5_000) }
        return status
    }

    public func signal(_ number: Int32) {
        if isRunning { kill(pid, number) }
    }

    /// SIGTERM, then SIGKILL if it is still there after `grace` seconds; always reaped.
    public func stop(grace: Double = 2) {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        if wait(timeout: grace) == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            exitStatus = 128 + SIGKILL
        }
    }

    /// Runs a program to its end (at most `timeout` seconds, then it is killed and that is an error), with its
    /// output in temporary files: (status, stdout, stderr).
    public static func run(_ path: String, _ arguments: [String], environment: [String: String],
                           timeout: Double = 60) throws -> (status: Int32, out: String, err: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-spawn-\(UUID().uuidString)")
        let out = base.path + ".out", err = base.path + ".err"
        defer {
            // try?: leftover temporaries are harmless.
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: err)
        }
        let child = try SpawnedProcess(path, arguments, environment: environment, stdout: out, stderr: err)
        guard let status = child.wait(timeout: timeout) else {
            child.stop(grace: 0.5)
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) did not end within \(timeout) s")
        }
        // try?: a program that wrote nothing may leave no readable file.
        let outText = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let errText = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        return (status, outText, errText)
    }
}
