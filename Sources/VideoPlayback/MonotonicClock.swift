#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds on CLOCK_MONOTONIC: never jumps with wall-clock changes (NTP, suspend adjustments), so playback
/// deadlines computed from it cannot drift or run backwards.
public enum MonotonicClock {
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}

/// Signals the terminal UI handles (Ctrl-Z, Ctrl-C, resize...) are blocked on playback threads, so the
/// kernel delivers them to a thread that can take them: curses' Ctrl-Z handler is not async-signal-safe,
/// and run on a decode thread holding a malloc lock it would hang.
enum WorkerSignals {
    static func blockUISignals() {
        #if canImport(Glibc)
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for signalNumber in [SIGTSTP, SIGCONT, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH] { sigaddset(&blocked, signalNumber) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        #endif
    }
}
