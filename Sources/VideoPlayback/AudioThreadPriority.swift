#if canImport(Glibc)
import Glibc
#endif

/// The sound's threads (decoding and writing to the server) ask the scheduler for a little more than the
/// pictures' threads: on a loaded machine a late piece of sound is an underrun heard by the user, a late frame
/// is only dropped. Linux's nice value is per thread (`setpriority` of the calling thread); lowering it (a higher
/// priority) needs CAP_SYS_NICE or an RLIMIT_NICE allowance, so as an ordinary user the call fails and the
/// thread keeps the process's priority: nothing else is changed (lowering the other threads instead would slow
/// the pictures for every user to help only the loaded case).
public enum AudioThreadPriority {
    /// The nice value asked for: above ordinary work, below what a desktop gives its sound server (-11).
    public static let nice: Int32 = -10

    /// Raises the calling thread's priority where allowed; true when it was raised.
    @discardableResult
    public static func raise() -> Bool {
        #if os(Linux)
        // Who 0 is the calling thread: Linux keeps the nice value per thread (setpriority(2), NOTES).
        return setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) == 0
        #else
        return false
        #endif
    }
}
