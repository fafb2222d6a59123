import Imaging
import MediaFormats

/// The "hint of movement": plays about one second of a Live Photo's movie around the still-image time,
/// once, as Photos does when a Live Photo scrolls into view.
public enum HintPlayer {
    /// The window to play: `length` seconds centred on `stillTime`, shifted (not shortened) to stay inside
    /// the movie when the still is near either end; the whole movie if it is shorter than `length`.
    public static func window(stillTime: Double, movieDuration: Double?, length: Double = 1.0) -> ClosedRange<Double> {
        let length = max(0, length)
        let still = stillTime.isFinite ? max(0, stillTime) : 0
        var start = max(0, still - length / 2)
        var end = start + length
        if let duration = movieDuration, duration.isFinite, duration > 0 {
            if end > duration {
                end = duration
                start = max(0, duration - length)
            }
        }
        return start...end
    }

    /// Starts a player for the hint window and returns it (already playing; `stop()` it when the item
    /// scrolls away). `movieDuration` (from the parsed movie, if known) keeps the window inside the movie.
    /// Always silent: the hint is autoplay, and autoplay makes no sound (issue 29).
    public static func play<Sink: VideoSink>(source: any ByteSource, stillTime: Double, movieDuration: Double? = nil,
                                             length: Double = 1.0, targetSize: PixelSize?,
                                             clock: any PlaybackClock = SystemPlaybackClock(), video: Sink,
                                             onEnd: MoviePlayer.EndHandler? = nil) -> MoviePlayer {
        let range = window(stillTime: stillTime, movieDuration: movieDuration, length: length)
        let options = PlaybackOptions(targetSize: targetSize, startTime: range.lowerBound, endTime: range.upperBound)
        let player = MoviePlayer(source: source, options: options, clock: clock, video: video, onEnd: onEnd)
        player.start()
        return player
    }

    /// The same with a sink taking each decoded frame when it is due.
    public static func play(source: any ByteSource, stillTime: Double, movieDuration: Double? = nil,
                            length: Double = 1.0, targetSize: PixelSize?, clock: any PlaybackClock = SystemPlaybackClock(),
                            sink: @escaping MoviePlayer.FrameSink,
                            onEnd: MoviePlayer.EndHandler? = nil) -> MoviePlayer {
        play(source: source, stillTime: stillTime, movieDuration: movieDuration, length: length, targetSize: targetSize,
             clock: clock, video: ClosureVideoSink(sink), onEnd: onEnd)
    }
}
