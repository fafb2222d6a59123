import Concurrent
import Foundation
import Imaging
import MediaFormats

/// How a `MoviePlayer` plays.
public struct PlaybackOptions: Sendable {
    /// Frames are fitted inside this box keeping their aspect (nil: the movie's display size).
    public var targetSize: PixelSize?
    /// Start here (seconds from the movie start); the first frame shown is the one on screen at that time.
    public var startTime: Double
    /// Stop before the first frame whose pts is at or past this time (nil: play to the end).
    public var endTime: Double?
    /// Frames decoded ahead of the presenter. Small, so memory stays bounded and a stop is cheap.
    public var queueDepth: Int
    /// libavcodec threads (the target machine has two cores).
    public var decoderThreads: Int
    /// At the end, play again from `startTime`, without a gap, until stopped (the studio's loop and bounce
    /// previews, whose rendered movie already runs forth and back).
    public var loops: Bool

    public init(targetSize: PixelSize? = nil, startTime: Double = 0, endTime: Double? = nil,
                queueDepth: Int = 3, decoderThreads: Int = 2, loops: Bool = false) {
        self.targetSize = targetSize
        self.startTime = startTime
        self.endTime = endTime
        self.queueDepth = max(1, queueDepth)
        self.decoderThreads = max(1, decoderThreads)
        self.loops = loops
    }
}

/// How a playback ended.
public enum PlaybackEnd: Sendable, Equatable {
    /// Reached the end of the movie (or `endTime`).
    case finished
    /// `stop()` was called.
    case stopped
    /// The movie could not be opened or decoding failed; frames shown before the failure stay shown.
    case failed(LibavError)
}

/// The one media player: every movie livegrid shows (the browser's hold, the hint of movement, `livegrid
/// play`, the studio's previews) plays through it. Decode, then a clock, then sinks: a decode thread fills a
/// small bounded queue (decode ahead), and a presenter thread hands each frame to the video sink when
/// `FrameClock` says it is due, dropping frames whose time has passed (a slow sink or decoder costs
/// frames, never drift). The time comes from an injected `PlaybackClock` (tests move a
/// `ManualPlaybackClock` by hand and never sleep); while a `MasterClock` (the sound, issue 29) answers,
/// the frames follow it instead. Nothing blocks the caller: opening the movie happens on the decode
/// thread too, and `stop()` only raises a flag and wakes the threads.
///
/// The sink and `onEnd` are called on the presenter thread, never concurrently; a UI should post the frame
/// to its own event loop (or render it right there if its renderer is thread-safe). A player plays once.
// unchecked: state guarded by a pthread condition (C; Mutex has none) for CLOCK_MONOTONIC timed waits.
public final class MoviePlayer: @unchecked Sendable {
    public typealias FrameSink = @Sendable (DecodedFrame) -> Void
    public typealias EndHandler = @Sendable (PlaybackEnd, PlaybackStats) -> Void
    public typealias DecoderOpener = @Sendable () throws(LibavError) -> any MovieFrameSource
    public typealias AudioOpener = @Sendable () throws(LibavError) -> any AudioChunkSource

    public let options: PlaybackOptions
    private let clock: any PlaybackClock
    private let master: (any MasterClock)?
    private let openDecoder: DecoderOpener
    /// The sound: where it goes (also the master clock) and how its track is opened (on the audio thread).
    private let audio: (any AudioSink)?
    private let openAudio: AudioOpener?
    /// The video sink, type-erased: `prepare` ahead of the frame's time, `present` when it is due.
    private let prepare: @Sendable (DecodedFrame) -> (any Sendable)?
    private let present: @Sendable (DecodedFrame, any Sendable) -> Void
    private let onEnd: EndHandler?

    /// A decoded frame waiting for its time: `time` is its place on the playback's timeline (its pts, plus
    /// the length of the passes before it when looping), `serial` its number in the playback.
    private struct QueuedFrame {
        var frame: DecodedFrame
        var time: Double
        var serial: Int
    }

    // Shared state, guarded by `condition`.
    private let condition = MonotonicCondition()
    private var queue: [QueuedFrame] = []
    /// The frame at the head of the queue, once prepared (its serial and what the sink made of it).
    private var preparedHead: (serial: Int, value: (any Sendable)?)?
    private var targetSize: PixelSize?
    private var decoderDone = false
    private var decodeError: LibavError?
    private var stopRequested = false
    private var started = false
    private var ended: PlaybackEnd?
    private var frameClock = FrameClock()
    private var _stats = PlaybackStats()
    private var startedAt: Double = 0
    private var firstShownAt: Double?
    private var _info: MovieStreamInfo?
    /// Time on the clock at which the last frame shown stops being current.
    private var lastShownSlotEnd: Double?

    /// A player for the movie `openDecoder` opens (called on the decode thread, so slow I/O never blocks),
    /// showing its frames through `video`.
    /// With `audio` and `openAudio`, the movie's sound plays through `audio` and the frames follow it (it is the
    /// master clock unless `master` is given). Looping playbacks (the studio's previews) stay silent.
    public init<Sink: VideoSink>(options: PlaybackOptions = PlaybackOptions(), clock: any PlaybackClock = SystemPlaybackClock(),
                                 master: (any MasterClock)? = nil, openDecoder: @escaping DecoderOpener,
                                 audio: (any AudioSink)? = nil, openAudio: AudioOpener? = nil,
                                 video: Sink, onEnd: EndHandler? = nil) {
        self.options = options
        self.clock = clock
        let playsSound = audio != nil && openAudio != nil && !options.loops
        self.audio = playsSound ? audio : nil
        self.openAudio = playsSound ? openAudio : nil
        self.master = master ?? (playsSound ? audio : nil)
        self.openDecoder = openDecoder
        prepare = { frame in video.prepare(frame) }
        present = { frame, value in
            if let picture = value as? Sink.Picture { video.present(frame, picture) }
        }
        self.onEnd = onEnd
        targetSize = options.targetSize
    }

    /// A player for the movie in `source` (a file, or a Motion Photo's embedded movie as a slice).
    /// `preparedAudio`: its sound track opened already (before the press); nil opens it from `source`.
    public convenience init<Sink: VideoSink>(source: any ByteSource, options: PlaybackOptions = PlaybackOptions(),
                                             clock: any PlaybackClock = SystemPlaybackClock(), master: (any MasterClock)? = nil,
                                             audio: (any AudioSink)? = nil, preparedAudio: AudioOpener? = nil,
                                             video: Sink, onEnd: EndHandler? = nil) {
        let threads = options.decoderThreads
        // Not `preparedAudio ?? { ... }`: Swift 6.3's SILGen crashed on a typed-throws closure in that autoclosure.
        let openSound: AudioOpener
        if let preparedAudio {
            openSound = preparedAudio
        } else {
            openSound = { () throws(LibavError) -> any AudioChunkSource in try AudioDecoder(source: source) }
        }
        self.init(options: options, clock: clock, master: master, openDecoder: { () throws(LibavError) -> any MovieFrameSource in
            try MovieDecoder(source: source, threadCount: threads, shownAtMost: options.targetSize)
        }, audio: audio, openAudio: audio == nil ? nil : openSound, video: video, onEnd: onEnd)
    }

    /// The pipelined player with the sink as two closures: `prepare` turns each frame into what `present`
    /// shows (a rendered picture) ahead of its time, `present` gets it when the frame is due.
    public convenience init<Prepared: Sendable>(source: any ByteSource, options: PlaybackOptions = PlaybackOptions(),
                                                prepare: @escaping @Sendable (DecodedFrame) -> Prepared?,
                                                present: @escaping @Sendable (DecodedFrame, Prepared) -> Void,
                                                onEnd: EndHandler? = nil) {
        self.init(source: source, options: options, video: ClosureVideoSink(prepare: prepare, present: present), onEnd: onEnd)
    }

    /// A player handing each decoded frame to `sink` when it is due.
    public convenience init(source: any ByteSource, options: PlaybackOptions = PlaybackOptions(),
                            sink: @escaping FrameSink, onEnd: EndHandler? = nil) {
        self.init(source: source, options: options, video: ClosureVideoSink(sink), onEnd: onEnd)
    }

    /// Starts playback and returns at once. Calling it again does nothing.
    public func start() {
        let shouldStart: Bool = condition.withLock {
            guard !started else { return false }
            started = true
            startedAt = clock.now()
            return true
        }
        guard shouldStart else { return }
        NamedThread.start("livegrid.video.decode") { [self] in decodeLoop() }
        NamedThread.start("livegrid.video.present") { [self] in presentLoop() }
        if let audio, let openAudio {
            NamedThread.start("livegrid.audio.decode") { [self] in audioLoop(audio, openAudio) }
        }
    }

    /// Asks playback to stop and returns at once (it never waits for the threads); safe from any thread, the
    /// sink included. A frame the presenter was already handing over may still reach the sink just after
    /// this returns; no frame after it does. `onEnd` then reports `.stopped`.
    public func stop() {
        condition.withLock {
            stopRequested = true
            condition.broadcast()
        }
        audio?.stop()
    }

    /// Frames decoded from now on are fitted inside `size` (a preview whose area changed).
    public func setTargetSize(_ size: PixelSize?) {
        condition.withLock { targetSize = size }
    }

    /// The statistics so far (final once `end` is set).
    public var stats: PlaybackStats { condition.withLock { _stats } }

    /// The movie's stream description once the decode thread opened it (nil before, or if it failed).
    public var info: MovieStreamInfo? { condition.withLock { _info } }

    /// How playback ended, or nil while it runs.
    public var end: PlaybackEnd? { condition.withLock { ended } }

    /// Blocks until playback ended or `timeout` seconds of real time passed (whatever the player's clock
    /// says: this bounds a caller's wait); returns how it ended (nil on timeout). For tests and
    /// command-line tools: the UI never waits.
    @discardableResult
    public func waitUntilEnded(timeout: Double) -> PlaybackEnd? {
        let deadline = MonotonicClock.now() + timeout
        return condition.withLock {
            while ended == nil {
                let left = deadline - MonotonicClock.now()
                if left <= 0 { break }
                condition.wait(seconds: left)
            }
            return ended
        }
    }

    // MARK: - decode thread

    private func decodeLoop() {
        let decoder: any MovieFrameSource
        do {
            decoder = try openDecoder()
            condition.withLock { _info = decoder.streamInfo }
            if options.startTime > 0 { try decoder.seek(to: options.startTime) }
        } catch {
            finishDecoding(error: error)
            return
        }
        var skippedSoFar = 0
        var serial = 0
        // Looping: what the passes before this one add to its pts, and where this pass starts and ends.
        var offset = 0.0
        var passStart: Double?
        var passEnd: Double?
        while true {
            let box: PixelSize?? = condition.withLock {
                while queue.count >= options.queueDepth && !stopRequested { condition.wait() }
                return stopRequested ? nil : .some(targetSize)
            }
            guard let box else { break }
            let began = clock.now()
            let frame: DecodedFrame?
            do {
                let passOffset = offset
                frame = try decoder.nextFrame(fitting: box) { [self] pts, duration in
                    if pts < (options.endTime ?? .infinity) {
                        if passStart == nil { passStart = pts }
                        passEnd = max(passEnd ?? pts + duration, pts + duration)
                    }
                    return condition.withLock { frameClock.shouldDrop(pts: passOffset + pts, duration: duration, now: clock.now()) }
                }
            } catch {
                finishDecoding(error: error)
                return
            }
            let elapsed = clock.now() - began
            let newlySkipped = decoder.skippedFrames - skippedSoFar
            skippedSoFar = decoder.skippedFrames
            var pastTheEnd = true
            if let frame, frame.pts < (options.endTime ?? .infinity) {
                pastTheEnd = false
                if passStart == nil { passStart = frame.pts }
                passEnd = max(passEnd ?? frame.pts + frame.duration, frame.pts + frame.duration)
            }
            if pastTheEnd, options.loops, let first = passStart, let last = passEnd {
                // Again from the start, the next pass's frames placed right after this pass's last one.
                offset += max(last - first, 0.001)
                passStart = nil
                passEnd = nil
                do {
                    try decoder.seek(to: options.startTime)
                } catch {
                    finishDecoding(error: error)
                    return
                }
                condition.withLock {
                    frameClock.countDropped(newlySkipped)
                    _stats.framesDropped = frameClock.droppedFrames
                }
                continue
            }
            let done: Bool = condition.withLock {
                frameClock.countDropped(newlySkipped)
                _stats.framesDropped = frameClock.droppedFrames
                guard let frame, !pastTheEnd else {
                    decoderDone = true
                    condition.broadcast()
                    return true
                }
                _stats.recordDecode(seconds: elapsed)
                serial += 1
                queue.append(QueuedFrame(frame: frame, time: offset + frame.pts, serial: serial))
                condition.broadcast()
                return false
            }
            if done { return }
        }
    }

    private func finishDecoding(error: LibavError?) {
        condition.withLock {
            decodeError = error
            decoderDone = true
            condition.broadcast()
        }
    }

    // MARK: - audio thread

    /// Decodes the sound and hands it to the sink, which blocks while enough is queued. A track that cannot be
    /// read leaves the playback silent, never failed: the pictures do not depend on it.
    private func audioLoop(_ audio: any AudioSink, _ openAudio: AudioOpener) {
        // A late chunk is heard, a late frame only dropped (where the system allows it).
        AudioThreadPriority.raise()
        let source: any AudioChunkSource
        do {
            source = try openAudio()
            if options.startTime > 0 { try source.seek(to: options.startTime) }
        } catch {
            if case .noVideoStream = error { audio.sourceUnavailable(.noTrack) } else {
                audio.sourceUnavailable(.cannotDecode("the sound track cannot be decoded (\(Self.plain(error)))"))
            }
            return
        }
        audio.begin(format: source.format)
        let end = options.endTime ?? .infinity
        while !condition.withLock({ stopRequested }) {
            let next: AudioChunk?
            do {
                next = try source.nextChunk()
            } catch {
                // What was decoded plays; a damaged tail ends the sound early.
                break
            }
            guard var chunk = next, chunk.pts < end else { break }
            if chunk.pts + chunk.duration > end {
                let keep = max(0, Int(((end - chunk.pts) * Double(chunk.sampleRate)).rounded())) * chunk.channels
                chunk.samples = Array(chunk.samples.prefix(keep))
            }
            if !audio.enqueue(chunk) { return }
        }
        audio.endOfStream()
    }

    /// libav's sentence without its "cannot decode:" lead (the caller words the sentence).
    private static func plain(_ error: LibavError) -> String {
        switch error {
        case .unsupported(let what): return "unsupported \(what)"
        case .library(_, _, let message): return message
        default: return error.description
        }
    }

    // MARK: - presenter thread

    private func presentLoop() {
        condition.lock()
        var outcome = PlaybackEnd.finished
        while true {
            if stopRequested { outcome = .stopped; break }
            guard let head = queue.first else {
                if decoderDone {
                    if let decodeError { outcome = .failed(decodeError); break }
                    // Let the last frame stay up for its duration, so playback lasts as long as the movie.
                    if let lastEnd = lastShownSlotEnd, lastEnd > clock.now() {
                        clock.sleep(until: lastEnd, on: condition)
                        continue
                    }
                    break
                }
                condition.wait()
                continue
            }
            let frame = head.frame
            if let master, let position = master.position() {
                frameClock.follow(mediaTime: position, now: clock.now())
            }
            if preparedHead?.serial != head.serial {
                // Already late: not worth rendering (the clock counts it).
                if frameClock.shouldDrop(pts: head.time, duration: frame.duration, now: clock.now()) {
                    queue.removeFirst()
                    frameClock.countDropped(1)
                    _stats.framesDropped = frameClock.droppedFrames
                    condition.broadcast()
                    continue
                }
                condition.unlock()
                let value = prepare(frame)
                condition.lock()
                preparedHead = (head.serial, value)
                continue
            }
            let now = clock.now()
            switch frameClock.decide(pts: head.time, duration: frame.duration, now: now) {
            case .wait(let seconds):
                clock.sleep(until: now + seconds, on: condition)
            case .drop:
                queue.removeFirst()
                preparedHead = nil
                _stats.framesDropped = frameClock.droppedFrames
                condition.broadcast()
            case .show:
                queue.removeFirst()
                let prepared = preparedHead?.value
                preparedHead = nil
                _stats.framesShown = frameClock.shownFrames
                if _stats.firstFrameLatency == nil { _stats.firstFrameLatency = now - startedAt }
                if firstShownAt == nil { firstShownAt = now }
                if _stats.firstPTS == nil { _stats.firstPTS = frame.pts }
                _stats.lastPTS = frame.pts
                lastShownSlotEnd = frameClock.deadline(for: head.time, now: now) + frame.duration
                condition.broadcast()
                condition.unlock()
                if let prepared { present(frame, prepared) }
                condition.lock()
            }
        }
        if let firstShownAt { _stats.wallTime = clock.now() - firstShownAt }
        queue.removeAll()
        let finalStats = _stats
        condition.unlock()
        if outcome != .finished { audio?.stop() }
        onEnd?(outcome, finalStats)
        condition.withLock {
            ended = outcome
            condition.broadcast()
        }
    }
}
