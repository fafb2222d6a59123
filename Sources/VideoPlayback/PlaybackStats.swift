/// What one playback did, for the status line, logs and the benchmark.
public struct PlaybackStats: Sendable, Equatable, CustomStringConvertible {
    /// Frames handed to the sink.
    public var framesShown = 0
    /// Frames skipped because they were late (by the decoder before scaling, or by the presenter).
    public var framesDropped = 0
    /// Frames decoded and scaled (shown or queued).
    public var framesDecoded = 0
    /// Total seconds spent decoding + scaling the frames that were produced.
    public var totalDecodeTime: Double = 0
    /// Longest single decode + scale, in seconds.
    public var maximumDecodeTime: Double = 0
    /// Seconds from `start()` to the first frame reaching the sink (opening the movie included).
    public var firstFrameLatency: Double?
    /// Seconds from the first frame shown to the end of playback.
    public var wallTime: Double = 0
    /// pts of the first and last frame shown.
    public var firstPTS: Double?
    public var lastPTS: Double?

    public init() {}

    /// Mean decode + scale time per produced frame, in seconds.
    public var averageDecodeTime: Double {
        framesDecoded > 0 ? totalDecodeTime / Double(framesDecoded) : 0
    }

    mutating func recordDecode(seconds: Double) {
        framesDecoded += 1
        totalDecodeTime += seconds
        maximumDecodeTime = max(maximumDecodeTime, seconds)
    }

    public var description: String {
        func ms(_ s: Double) -> String { String(Int((s * 1000).rounded())) + " ms" }
        var parts = ["shown \(framesShown)", "dropped \(framesDropped)", "decoded \(framesDecoded)",
                     "decode avg \(ms(averageDecodeTime)) max \(ms(maximumDecodeTime))"]
        if let firstFrameLatency { parts.append("first frame after \(ms(firstFrameLatency))") }
        parts.append("wall \(ms(wallTime))")
        return parts.joined(separator: ", ")
    }
}
