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
        public var openSeconds: Double

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
                + " = \(f(framesPerSecond)) fps decode+scale (open \(f(openSeconds * 1000)) ms)"
            if let factor = realTimeFactor { line += ", \(f(factor, 2))x real time" }
            return line
        }
    }

    /// Decodes every frame of `path`, fitted inside `targetSize`, as fast as possible.
    public static func measure(path: String, targetSize: PixelSize, threads: Int = 2) throws(LibavError) -> Result {
        let opened = MonotonicClock.now()
        let decoder = try MovieDecoder(path: path, threadCount: threads)
        let began = MonotonicClock.now()
        var frames = 0
        while try decoder.nextFrame(fitting: targetSize) != nil { frames += 1 }
        let ended = MonotonicClock.now()
        return Result(path: path, targetSize: targetSize, info: decoder.info, frames: frames,
                      seconds: ended - began, openSeconds: began - opened)
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
