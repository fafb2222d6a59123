#if canImport(Glibc)
import Glibc
#endif
import Imaging
import MediaFormats

/// Measures how fast movies decode and scale (no presentation clock): the figure that says whether
/// playback at a given terminal size keeps up. Wired to a hidden `livegrid bench-video` subcommand.
public enum VideoBenchmark {
    /// One measured run.
    public struct Result: Sendable, CustomStringConvertible {
        public var path: String
        public var targetSize: PixelSize
        public var info: MovieStreamInfo
        public var frames: Int
        public var seconds: Double
        /// CPU time of the whole process over the run (all threads): steadier than wall time on a busy machine.
        public var cpuSeconds: Double
        public var openSeconds: Double
        /// Same movie decoded without scaling (frames decoded and discarded), for the scale cost by difference.
        public var decodeOnlySeconds: Double?
        public var decodeOnlyCPUSeconds: Double?

        public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
        /// How many times faster than real time (movie fps / decode fps), when the movie's rate is known.
        public var realTimeFactor: Double? {
            guard let rate = info.averageFrameRate, rate > 0 else { return nil }
            return framesPerSecond / rate
        }

        public var description: String {
            func f(_ v: Double, _ digits: Int = 1) -> String {
                let scale = Double([1, 10, 100, 1000][min(digits, 3)])
                return String((v * scale).rounded() / scale)
            }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            var line = "\(name): \(info.codecName) \(info.codedSize) -> fit \(targetSize): \(frames) frames in \(f(seconds, 3)) s"
                + " = \(f(framesPerSecond)) fps decode+scale (cpu \(f(cpuSeconds * 1000 / Double(max(frames, 1)))) ms/frame"
                + ", open \(f(openSeconds * 1000)) ms)"
            if let factor = realTimeFactor { line += ", \(f(factor, 2))x real time" }
            if let decodeOnlySeconds, let decodeOnlyCPUSeconds, frames > 0 {
                line += "; decode only \(f(Double(frames) / max(decodeOnlySeconds, 1e-9))) fps"
                    + " (cpu \(f(decodeOnlyCPUSeconds * 1000 / Double(frames))) ms/frame)"
            }
            return line
        }
    }

    /// Decodes every frame of `path`, fitted inside `targetSize`, as fast as possible.
    public static func measure(path: String, targetSize: PixelSize, threads: Int = 2,
                               includeDecodeOnly: Bool = true) throws(LibavError) -> Result {
        let opened = MonotonicClock.now()
        let decoder = try MovieDecoder(path: path, threadCount: threads)
        let began = MonotonicClock.now()
        let cpuBegan = processCPUTime()
        var frames = 0
        while try decoder.nextFrame(fitting: targetSize) != nil { frames += 1 }
        let ended = MonotonicClock.now()
        var result = Result(path: path, targetSize: targetSize, info: decoder.info, frames: frames,
                            seconds: ended - began, cpuSeconds: processCPUTime() - cpuBegan, openSeconds: began - opened)
        if includeDecodeOnly {
            let plain = try MovieDecoder(path: path, threadCount: threads)
            let plainBegan = MonotonicClock.now()
            let plainCPUBegan = processCPUTime()
            // Every frame is "late": decoded, never scaled.
            while try plain.nextFrame(fitting: targetSize, skippingWhere: { _, _ in true }) != nil {}
            result.decodeOnlySeconds = MonotonicClock.now() - plainBegan
            result.decodeOnlyCPUSeconds = processCPUTime() - plainCPUBegan
        }
        return result
    }

    private static func processCPUTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }

    /// The report for `path` at each size (default: an 80x24 and a 200x60 terminal's pixel sizes), one
    /// line per size; failures are reported in the text, not thrown.
    public static func run(path: String, targetSizes: [PixelSize] = [PixelSize(width: 640, height: 384),
                                                                    PixelSize(width: 1600, height: 960)]) -> String {
        targetSizes.map { size in
            do {
                return try measure(path: path, targetSize: size).description
            } catch {
                return "\(path): \(error)"
            }
        }.joined(separator: "\n")
    }

    /// Convenience matching the lead's wiring: one size.
    public static func run(path: String, targetSize: PixelSize) -> String {
        run(path: path, targetSizes: [targetSize])
    }
}
