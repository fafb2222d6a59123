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

    public init(targetSize: PixelSize? = nil, startTime: Double = 0, endTime: Double? = nil,
                queueDepth: Int = 3, decoderThreads: Int = 2) {
        self.targetSize = targetSize
        self.startTime = startTime
        self.endTime = endTime
        self.queueDepth = max(1, queueDepth)
        self.decoderThreads = max(1, decoderThreads)
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

/// Plays a movie in the background: a decode thread fills a small bounded queue (decode ahead), and a
/// presenter thread hands each frame to the sink when `FrameClock` says it is due, dropping frames whose
/// time has passed (a slow sink or decoder costs frames, never drift). Nothing blocks the caller: opening
/// the movie happens on the decode thread too, and `stop()` only raises a flag and wakes the threads.
///
/// The sink and `onEnd` are called on the presenter thread, never concurrently; a UI should post the frame
/// to its own event loop (or render it right there if its renderer is thread-safe). A player plays once.
// unchecked: state guarded by a pthread condition (C; Mutex has none) for CLOCK_MONOTONIC timed waits.
public final class MoviePlayer: @unchecked Sendable {
    public typealias FrameSink = @Sendable (DecodedFrame) -> Void
    public typealias EndHandler = @Sendable (PlaybackEnd, PlaybackStats) -> Void
    public typealias DecoderOpener = @Sendable () throws(LibavError) -> MovieDecoder

    public let options: PlaybackOptions
    private let openDecoder: DecoderOpener
    /// Work done on a frame ahead of its time (rendering it for the terminal), on the presenter thread while
    /// the decode thread decodes the next ones: decode and render overlap, and a frame's render time is
    /// spent before its deadline, not after it. nil: frames go to the sink as decoded.
    private let prepare: (@Sendable (DecodedFrame) -> (any Sendable)?)?
    private let present: @Sendable (DecodedFrame, (any Sendable)?) -> Void
    private let onEnd: EndHandler?
    /// The frame at the head of the queue, once prepared (its index and what `prepare` made of it).
    private var preparedHead: (index: Int, value: (any Sendable)?)?

    // Shared state, guarded by `condition`.
    private let condition = MonotonicCondition()
    private var queue: [DecodedFrame] = []
    private var decoderDone = false
    private var decodeError: LibavError?
    private var stopRequested = false
    private var started = false
    private var ended: PlaybackEnd?
    private var clock = FrameClock()
    private var _stats = PlaybackStats()
    private var startedAt: Double = 0
    private var _info: MovieStreamInfo?
    /// Monotonic time at which the last frame shown stops being current.
    private var lastShownSlotEnd: Double?

    /// A player for the movie `openDecoder` opens (called on the decode thread, so slow I/O never blocks).
    public init(options: PlaybackOptions = PlaybackOptions(), openDecoder: @escaping DecoderOpener,
                sink: @escaping FrameSink, onEnd: EndHandler? = nil) {
        self.options = options
        self.openDecoder = openDecoder
        prepare = nil
        present = { frame, _ in sink(frame) }
        self.onEnd = onEnd
    }

    /// A pipelined player: `prepare` turns each frame into what `present` shows (a rendered picture) ahead
    /// of its time, `present` gets it when the frame is due (never for a frame dropped as late; a frame
    /// `prepare` returns nil for is skipped). Both run on the presenter thread, never concurrently.
    public init<Prepared: Sendable>(options: PlaybackOptions = PlaybackOptions(), openDecoder: @escaping DecoderOpener,
                                    prepare: @escaping @Sendable (DecodedFrame) -> Prepared?,
                                    present: @escaping @Sendable (DecodedFrame, Prepared) -> Void,
                                    onEnd: EndHandler? = nil) {
        self.options = options
        self.openDecoder = openDecoder
        self.prepare = { frame in prepare(frame) }
        self.present = { frame, value in
            if let value = value as? Prepared { present(frame, value) }
        }
        self.onEnd = onEnd
    }

    /// The pipelined player for the movie in `source`.
    public convenience init<Prepared: Sendable>(source: any ByteSource, options: PlaybackOptions = PlaybackOptions(),
                                                prepare: @escaping @Sendable (DecodedFrame) -> Prepared?,
                                                present: @escaping @Sendable (DecodedFrame, Prepared) -> Void,
                                                onEnd: EndHandler? = nil) {
        let threads = options.decoderThreads
        self.init(options: options, openDecoder: { () throws(LibavError) -> MovieDecoder in
            try MovieDecoder(source: source, threadCount: threads, shownAtMost: options.targetSize)
        }, prepare: prepare, present: present, onEnd: onEnd)
    }

    /// A player for the movie in `source` (a file, or a Motion Photo's embedded movie as a slice).
    public convenience init(source: any ByteSource, options: PlaybackOptions = PlaybackOptions(),
                            sink: @escaping FrameSink, onEnd: EndHandler? = nil) {
        let threads = options.decoderThreads
        self.init(options: options, openDecoder: { () throws(LibavError) -> MovieDecoder in
            try MovieDecoder(source: source, threadCount: threads, shownAtMost: options.targetSize)
        }, sink: sink, onEnd: onEnd)
    }

    /// Starts playback and returns at once. Calling it again does nothing.
    public func start() {
        let shouldStart: Bool = condition.withLock {
            guard !started else { return false }
            started = true
            startedAt = MonotonicClock.now()
            return true
        }
        guard shouldStart else { return }
        let decodeThread = Thread { [self] in
            WorkerThreadSignals.block()
            decodeLoop()
        }
        decodeThread.name = "livegrid.video.decode"
        let presentThread = Thread { [self] in
            WorkerThreadSignals.block()
            presentLoop()
        }
        presentThread.name = "livegrid.video.present"
        decodeThread.start()
        presentThread.start()
    }

    /// Asks playback to stop and returns at once (it never waits for the threads); safe from any thread, the
    /// sink included. A frame the presenter was already handing over may still reach the sink just after
    /// this returns; no frame after it does. `onEnd` then reports `.stopped`.
    public func stop() {
        condition.withLock {
            stopRequested = true
            condition.broadcast()
        }
    }

    /// The statistics so far (final once `end` is set).
    public var stats: PlaybackStats { condition.withLock { _stats } }

    /// The movie's stream description once the decode thread opened it (nil before, or if it failed).
    public var info: MovieStreamInfo? { condition.withLock { _info } }

    /// How playback ended, or nil while it runs.
    public var end: PlaybackEnd? { condition.withLock { ended } }

    /// Blocks until playback ended or `timeout` seconds passed; returns how it ended (nil on timeout).
    /// For tests and command-line tools: the UI never waits.
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
        let decoder: MovieDecoder
        do {
            decoder = try openDecoder()
            condition.withLock { _info = decoder.info }
            if options.startTime > 0 { try decoder.seek(to: options.startTime) }
        } catch {
            finishDecoding(error: error)
            return
        }
        var skippedSoFar = 0
        while true {
            let mayContinue: Bool = condition.withLock {
                while queue.count >= options.queueDepth && !stopRequested { condition.wait() }
                return !stopRequested
            }
            guard mayContinue else { break }
            let began = MonotonicClock.now()
            let frame: DecodedFrame?
            do {
                frame = try decoder.nextFrame(fitting: options.targetSize) { [self] pts, duration in
                    condition.withLock { clock.shouldDrop(pts: pts, duration: duration, now: MonotonicClock.now()) }
                }
            } catch {
                finishDecoding(error: error)
                return
            }
            let elapsed = MonotonicClock.now() - began
            let newlySkipped = decoder.skippedFrames - skippedSoFar
            skippedSoFar = decoder.skippedFrames
            let done: Bool = condition.withLock {
                clock.countDropped(newlySkipped)
                _stats.framesDropped = clock.droppedFrames
                guard let frame, frame.pts < (options.endTime ?? .infinity) else {
                    decoderDone = true
                    condition.broadcast()
                    return true
                }
                _stats.recordDecode(seconds: elapsed)
                queue.append(frame)
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

    // MARK: - presenter thread

    private func presentLoop() {
        condition.lock()
        var outcome = PlaybackEnd.finished
        while true {
            if stopRequested { outcome = .stopped; break }
            guard let frame = queue.first else {
                if decoderDone {
                    if let decodeError { outcome = .failed(decodeError); break }
                    // Let the last frame stay up for its duration, so playback lasts as long as the movie.
                    if let lastEnd = lastShownSlotEnd, lastEnd > MonotonicClock.now() {
                        condition.wait(seconds: lastEnd - MonotonicClock.now())
                        continue
                    }
                    break
                }
                condition.wait()
                continue
            }
            if let prepare, preparedHead?.index != frame.index {
                // Already late: not worth rendering (the clock counts it).
                if clock.shouldDrop(pts: frame.pts, duration: frame.duration, now: MonotonicClock.now()) {
                    queue.removeFirst()
                    clock.countDropped(1)
                    _stats.framesDropped = clock.droppedFrames
                    condition.broadcast()
                    continue
                }
                condition.unlock()
                let value = prepare(frame)
                condition.lock()
                preparedHead = (frame.index, value)
                continue
            }
            let now = MonotonicClock.now()
            switch clock.decide(pts: frame.pts, duration: frame.duration, now: now) {
            case .wait(let seconds):
                condition.wait(seconds: seconds)
            case .drop:
                queue.removeFirst()
                preparedHead = nil
                _stats.framesDropped = clock.droppedFrames
                condition.broadcast()
            case .show:
                queue.removeFirst()
                let prepared = preparedHead?.value
                preparedHead = nil
                _stats.framesShown = clock.shownFrames
                if _stats.firstFrameLatency == nil { _stats.firstFrameLatency = now - startedAt }
                if _stats.firstPTS == nil { _stats.firstPTS = frame.pts }
                _stats.lastPTS = frame.pts
                lastShownSlotEnd = clock.deadline(for: frame.pts, now: now) + frame.duration
                condition.broadcast()
                condition.unlock()
                if prepare == nil || prepared != nil { present(frame, prepared) }
                condition.lock()
            }
        }
        if let firstShown = clock.start { _stats.wallTime = MonotonicClock.now() - firstShown }
        queue.removeAll()
        let finalStats = _stats
        condition.unlock()
        onEnd?(outcome, finalStats)
        condition.withLock {
            ended = outcome
            condition.broadcast()
        }
    }
}
