import Concurrent
#if canImport(Glibc)
import Glibc
#endif

/// A helper process started with posix_spawn, stdin and stdout on pipes. Two things Foundation's `Process`
/// cannot do, and both matter for a process that outlives the call that started it:
/// - the child starts with no blocked signals and default dispositions: a livegrid worker thread blocks
///   SIGTERM, SIGINT, SIGHUP (`WorkerThreadSignals`), and a child spawned there inherits that mask and
///   would ignore being told to stop;
/// - livegrid's ends of the pipes are close-on-exec, so no later child keeps the helper's stdin open (the
///   helper learns that livegrid ended from the end of its input, also after SIGKILL).
final class ChildProcess: Sendable {
    private struct State {
        /// livegrid's end of the child's stdin (-1 once closed).
        var input: Int32
        var reaped = false
        var status: Int32 = 0
    }
    let pid: pid_t
    /// livegrid's end of the child's stdout.
    let output: Int32
    private let state: Locked<State>

    /// nil when the pipes or the spawn fail.
    init?(_ path: String, _ arguments: [String]) {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        // Glibc's module does not export pipe2: close-on-exec right after pipe() (a spawn on another
        // thread in between could still inherit them, for as long as that child lives).
        guard pipe(&toChild) == 0 else { return nil }
        guard pipe(&fromChild) == 0 else { close(toChild[0]); close(toChild[1]); return nil }
        for descriptor in toChild + fromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGWINCH, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, &attributes, argv, environ)
        for pointer in argv { free(pointer) }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            return nil
        }
        pid = child
        state = Locked(State(input: toChild[1]))
        output = fromChild[0]
    }

    deinit {
        closeInput()
        close(output)
    }

    /// Ends the child's input (it sees end-of-file).
    func closeInput() {
        state.withLockedValue { state in
            if state.input >= 0 { close(state.input) }
            state.input = -1
        }
    }

    /// Whether the child has exited (and is reaped); never blocks.
    var hasExited: Bool {
        let pid = pid
        return state.withLockedValue { state in
            if state.reaped { return true }
            if waitpid(pid, &state.status, WNOHANG) == pid { state.reaped = true }
            return state.reaped
        }
    }

    /// Whether the child exited by itself with status 0 (false while it runs).
    var succeeded: Bool {
        hasExited && state.withLockedValue { ($0.status & 0x7f) == 0 && (($0.status >> 8) & 0xff) == 0 }
    }

    /// All the child writes to stdout until it closes it, or nil when that takes longer than `timeout`
    /// seconds (the child is then stopped).
    func readAll(timeout: Double) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(0, (timeout - elapsed) * 1000)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { end(after: 0); return nil }
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// Waits up to `timeout` seconds for the child to exit, then SIGTERM, then SIGKILL; reaps it.
    func end(after timeout: Double) {
        if waitForExit(timeout) { return }
        kill(pid, SIGTERM)
        if waitForExit(1) { return }
        kill(pid, SIGKILL)
        _ = waitForExit(5)
    }

    private func waitForExit(_ seconds: Double) -> Bool {
        var waited = 0.0
        while !hasExited {
            guard waited < seconds else { return false }
            usleep(5_000)
            waited += 0.005
        }
        return true
    }
}
