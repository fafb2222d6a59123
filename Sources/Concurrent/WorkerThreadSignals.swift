#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Worker threads block the signals the UI handles (Ctrl-Z, Ctrl-C, resize...), so the kernel delivers them
/// to the main thread: curses' Ctrl-Z handler is not async-signal-safe, and run on a worker that holds a
/// malloc or loader lock it hangs the suspend (the Ctrl-Z end-to-end test timed out under load). Threads a
/// worker starts (chafa's pool) inherit the mask. Every thread livegrid starts calls this first.
public enum WorkerThreadSignals {
    public static func block() {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for signalNumber in [SIGTSTP, SIGCONT, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH] { sigaddset(&blocked, signalNumber) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
    }
}
