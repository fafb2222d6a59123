#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which of `count` stripes the calling thread uses: tables every probe consults (`SharedNames`) keep one
/// lock per stripe, so the scan's worker threads do not queue on one lock. A shared lock taken once per file
/// by both workers was ~15 % of a movie's probe CPU, mostly spent waiting (issue 17). Any thread may land on
/// any stripe (they are only a spread, not ownership), so correctness never depends on it.
enum ThreadStripe {
    static func current(of count: Int) -> Int {
        #if canImport(Glibc)
        let id = UInt64(pthread_self())
        #else
        let id = UInt64(UInt(bitPattern: pthread_self()))
        #endif
        // Thread ids are addresses a stack apart: mix them so that the high bits pick the stripe.
        let mixed = id &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: (mixed >> 32) % UInt64(max(count, 1)))
    }
}
