import Foundation
import Glibc

/// Costs of the interrupted-write safety (issue 15.2): the stale-temporary sweep of a large folder, and a
/// Live Photo pair committed as a group (movie, folder fsync, still, folder fsync) against two plain commits.
@main struct WritesBench {
    static func now() -> Double { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9 }

    static func main() throws {
        let folder = CommandLine.arguments[1], out = CommandLine.arguments[2]
        var best = Double.infinity
        for _ in 0..<10 {
            let start = now()
            _ = StaleTemporaryFiles.remove(in: folder)
            best = min(best, now() - start)
        }
        print(String(format: "sweep of %@: best of 10 %.2f ms", folder, best * 1000))
        let movie = [UInt8](repeating: 7, count: 1 << 20), still = [UInt8](repeating: 8, count: 20_000)
        var group = 0.0, plain = 0.0
        let runs = 20
        for i in 0..<runs {
            var start = now()
            let s = try AtomicFileWriter(destination: "\(out)/g\(i).jpg"), m = try AtomicFileWriter(destination: "\(out)/g\(i).mov")
            try s.write(still)
            try m.write(movie)
            try AtomicFileWriter.commitGroup(primary: s, companions: [m])
            group += now() - start
            start = now()
            try AtomicFileWriter.write(movie, to: "\(out)/p\(i).mov", replace: false)
            try AtomicFileWriter.write(still, to: "\(out)/p\(i).jpg", replace: false)
            plain += now() - start
        }
        print(String(format: "pair of 1 MiB + 20 kB: group commit %.1f ms, two single commits %.1f ms (mean of %d)",
                     group / Double(runs) * 1000, plain / Double(runs) * 1000, runs))
    }
}
