import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way livegrid spreads a batch of independent jobs over the cores (scan probes, `show` decodes):
/// a bounded number of workers take the next index from a shared counter (so a slow file does not hold up a
/// fixed share of the rest) and results come back in input order.
public enum Parallel {
    /// Processors this process may run on: the default width of every batch.
    public static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// `transform(i)` for every `i` in `0..<count`, on at most `width` threads, in index order.
    /// `makeWorker` runs once on each worker thread before its first job and gives it state that is not
    /// shared (a chafa renderer, which must not cross threads). `isCancelled` is asked before each job:
    /// once it says yes, jobs not yet started are skipped and come back as nil.
    public static func map<Worker, Output: Sendable>(
        count: Int,
        width: Int = Parallel.processorCount,
        isCancelled: @Sendable () -> Bool = { false },
        makeWorker: @Sendable () -> Worker,
        _ transform: @Sendable (inout Worker, Int) -> Output
    ) -> [Output?] {
        guard count > 0 else { return [] }
        let workers = max(1, min(count, width))
        let next = Locked(0)
        let slots = Locked([Output?](repeating: nil, count: count))
        @Sendable func job(_: Int) {
            var worker = makeWorker()
            while let index = next.withLockedValue({ next -> Int? in
                guard next < count, !isCancelled() else { return nil }
                next += 1
                return next - 1
            }) {
                let output = transform(&worker, index)
                slots.withLockedValue { $0[index] = output }
            }
        }
        // concurrentPerform runs `job` `workers` times at once on the cores (the calling thread included) and
        // returns when all are done; each run drains the shared counter.
        DispatchQueue.concurrentPerform(iterations: workers, execute: job)
        return slots.value
    }

    /// `transform(i)` for every `i` in `0..<count` in index order, on at most `width` threads.
    public static func map<Output: Sendable>(count: Int, width: Int = Parallel.processorCount,
                                              _ transform: @Sendable (Int) -> Output) -> [Output] {
        map(count: count, width: width, makeWorker: { () }, { _, index in transform(index) }).map { $0! }
    }
}
