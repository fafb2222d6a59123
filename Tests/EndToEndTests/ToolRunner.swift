import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program with posix_spawn and waitpid. Foundation's `Process` can hang in `waitUntilExit` when the
/// program leaves a daemon behind (tmux's server), so the end-to-end tests use this instead.
enum ToolRunner {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `path arguments`, returns its stdout (when `capture`) and exit status.
    @discardableResult
    /// With `mergeErrors`, stderr goes into the captured output too.
    static func run(_ path: String, _ arguments: [String], capture: Bool = true,
                    mergeErrors: Bool = false) throws -> (output: String, status: Int32) {
        var fds: [Int32] = [-1, -1]
        if capture { guard pipe(&fds) == 0 else { throw Failure(description: "pipe failed") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capture {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if capture && mergeErrors {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        if capture { close(fds[1]) }
        guard spawned == 0 else {
            if capture { close(fds[0]) }
            throw Failure(description: "cannot run \(path): error \(spawned)")
        }
        let output = capture ? readToEnd(fds[0]) : []
        return (String(decoding: output, as: UTF8.self), waitForExit(pid))
    }

    /// Everything until end of file on `fd`, which is then closed.
    static func readToEnd(_ fd: Int32) -> [UInt8] {
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        close(fd)
        return output
    }

    /// The exit status of `pid` as a shell reports it (128 + signal for a killed program).
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
