import Imaging

/// How the sound of a playback is doing, for the status bar and `livegrid play`'s stderr: said once each.
public enum SoundState: Sendable, Equatable, CustomStringConvertible {
    /// Sound reached the server and plays.
    case playing
    /// The movie has no sound track (nothing to say to the user).
    case noTrack
    /// No sound server answered (over SSH, in a container, on a headless server): a normal state.
    case noServer
    /// libpulse-simple is not installed.
    case noLibrary
    /// The sound server went away or refused the stream in the middle.
    case lost(String)
    /// The sound track is there but cannot be decoded (the pictures still play).
    case cannotDecode(String)

    public var description: String {
        switch self {
        case .playing: return "sound on"
        case .noTrack: return "no sound track"
        case .noServer: return "no sound: no PulseAudio or PipeWire server here"
        case .noLibrary: return "no sound: libpulse0 is not installed"
        case .lost(let why): return "sound stopped: \(why)"
        case .cannotDecode(let why): return "no sound: \(why)"
        }
    }

    /// True for the states worth a line in the status bar.
    public var isWorthSaying: Bool {
        switch self {
        case .playing, .noTrack: return false
        default: return true
        }
    }
}

/// Where a `MoviePlayer` sends a movie's sound, and the clock the pictures follow while it plays (mpv's
/// audio-synced video). The player's audio thread calls `begin`, then `enqueue` for each chunk (which blocks
/// while enough is queued, and returns false once the sink stopped or failed), then `endOfStream`; `stop`
/// comes from any thread and silences it at once (flush, not drain).
public protocol AudioSink: MasterClock {
    func begin(format: AudioFormat)
    func enqueue(_ chunk: AudioChunk) -> Bool
    func endOfStream()
    func stop()
    /// The sound could not be decoded or there is none: the playback stays silent.
    func sourceUnavailable(_ state: SoundState)
    /// Blocks until what was written has been heard (or the sink failed or stopped), at most `timeout`
    /// seconds: `livegrid play` lets the last samples play out before it exits. True when done.
    @discardableResult
    func waitUntilFinished(timeout: Double) -> Bool
}

/// Where the sound comes from (`AudioDecoder`, or samples a test makes). One thread at a time.
public protocol AudioChunkSource: AnyObject {
    var format: AudioFormat { get }
    func nextChunk() throws(LibavError) -> AudioChunk?
    func seek(to seconds: Double) throws(LibavError)
}

extension AudioDecoder: AudioChunkSource {}

/// The arithmetic of an audio sink's clock, kept apart so it is tested without a server or a sleep: the movie
/// time heard at `now` is the end of what was written minus the server's latency, measured after each write,
/// and advanced by the time since the measurement. It answers nil before the first sample is heard (so the
/// first frame never waits for the sound) and once everything written has played (an underrun or the end:
/// the frames go on on the playback clock instead of waiting for sound that is not coming).
public struct AudioClockEstimate: Sendable, Equatable {
    /// Movie time of the first sample written.
    public private(set) var firstPTS: Double?
    /// Movie time just after the last sample written.
    public private(set) var writtenEnd: Double?
    private var latency: Double = 0
    private var measuredAt: Double = 0

    public init() {}

    /// After writing `chunk`-many samples ending at movie time `end` (the first write also fixes the start).
    public mutating func wrote(from start: Double, to end: Double) {
        if firstPTS == nil { firstPTS = start }
        writtenEnd = end
    }

    /// The server said its queue and device hold `latency` seconds at `now`.
    public mutating func measured(latency: Double, at now: Double) {
        self.latency = max(0, latency)
        measuredAt = now
    }

    /// The movie time being heard at `now`, or nil (see the type).
    public func position(at now: Double) -> Double? {
        guard let firstPTS, let writtenEnd else { return nil }
        let heard = writtenEnd - latency + max(0, now - measuredAt)
        guard heard > firstPTS, heard < writtenEnd else { return nil }
        return heard
    }
}
