import CCodecLoader
import Concurrent
import Imaging
#if canImport(Glibc)
import Glibc
#endif

/// Plays a movie's sound through PulseAudio's simple API (libpulse-simple, opened on first use; PipeWire's
/// pulse server speaks it too, and `PULSE_SERVER` is honoured, so the sound of an SSH session can come home
/// through a forwarded port). A `NamedThread` of its own connects (in the background: the first frame never
/// waits for it), writes in small pieces, and after each piece asks the server's latency for the clock
/// (`AudioClockEstimate`). `stop` flushes what the server holds, so a release silences it within one piece.
/// No server, a server that goes away, a missing library: the sink goes quiet, says why once through
/// `report`, and its position answers nil so the pictures run on.
// unchecked: state guarded by `condition` (a pthread condition: the decode thread waits for room).
public final class PulseAudioSink: AudioSink, @unchecked Sendable {
    /// Seconds of sound queued ahead of the server before `enqueue` blocks.
    public static let queueAhead = 0.25
    /// Seconds per write: the most a release can leave playing besides the server's buffer.
    public static let pieceSeconds = 0.02
    /// The server-side buffer asked for. 60 ms underran 1-27 times in a 3 s clip with two busy loops on a shared
    /// 2-core machine (Benchmarks/sound.py); a release does not wait for it (a flush drops what the server
    /// holds) and the clock subtracts the measured latency, so a larger one costs neither.
    public static let serverBufferSeconds = 0.15
    /// The buffer for a server across a network (`PULSE_SERVER=tcp:...`, the SSH recipe): the link adds its own
    /// delays, and the SSH end-to-end test underran twice with 150 ms on the loaded machine.
    public static let networkServerBufferSeconds = 0.4

    /// The server-side buffer for the server `PULSE_SERVER` names (nil: the local default).
    public static func serverBuffer(forServer server: String?) -> Double {
        guard let server, !server.isEmpty else { return serverBufferSeconds }
        let local = server.hasPrefix("unix:") || server.hasPrefix("/")
        return local ? serverBufferSeconds : networkServerBufferSeconds
    }
    /// A connection slower than this is given up (the pictures are already running): silent playback.
    public static let connectTimeout = 1.5

    private let report: @Sendable (SoundState) -> Void
    /// Stamps of the way to the first sound (LIVEGRID_TRACE: the track opened, the first chunk decoded, the
    /// server connected, the first write done), to tell what a slow start waited on.
    private let trace: (@Sendable (String) -> Void)?
    private let applicationName: String
    /// `PULSE_SERVER` as the executable read it at start (libpulse reads the variable itself; this only picks
    /// the server buffer). Handed in: nothing below the executable reads the process environment.
    private let server: String?
    private let condition = MonotonicCondition()
    // Guarded by `condition`.
    private var format: AudioFormat?
    private var pending: [AudioChunk] = []
    private var pendingSeconds = 0.0
    private var ended = false
    private var stopped = false
    private var failed = false
    private var finished = false
    private var estimate = AudioClockEstimate()
    private var reported = false
    private var connectStartedAt = 0.0
    private var firstChunkTraced = false

    public init(applicationName: String = "livegrid", server: String? = nil,
                trace: (@Sendable (String) -> Void)? = nil,
                report: @escaping @Sendable (SoundState) -> Void = { _ in }) {
        self.applicationName = applicationName
        self.server = server
        self.trace = trace
        self.report = report
    }

    /// Loads libpulse-simple (call it on a background thread at start-up), so the first hold does not wait for
    /// the dynamic loader (tens of ms on a loaded machine). Nothing connects: no server is asked before a hold.
    public static func preloadLibrary() {
        var message = [CChar](repeating: 0, count: 256)
        // The result is asked again by the first sink, which says why when it fails.
        _ = lg_pulse_load(&message, message.count)
    }

    public func position() -> Double? {
        condition.withLock { stopped || failed ? nil : estimate.position(at: MonotonicClock.now()) }
    }

    public func begin(format: AudioFormat) {
        let start: Bool = condition.withLock {
            guard self.format == nil, !stopped else { return false }
            self.format = format
            connectStartedAt = MonotonicClock.now()
            return true
        }
        guard start else { return }
        trace?("sound-track-open \(format.sampleRate) Hz \(format.channels) ch")
        NamedThread.start("livegrid.audio.out") { [self] in
            AudioThreadPriority.raise()
            outputLoop(format: format)
        }
    }

    public func enqueue(_ chunk: AudioChunk) -> Bool {
        let (accepted, first): (Bool, Bool) = condition.withLock {
            while pendingSeconds >= Self.queueAhead && !stopped && !failed { condition.wait() }
            guard !stopped, !failed else { return (false, false) }
            pending.append(chunk)
            pendingSeconds += chunk.duration
            condition.broadcast()
            defer { firstChunkTraced = true }
            return (true, !firstChunkTraced)
        }
        if first { trace?("sound-first-chunk") }
        return accepted
    }

    public func endOfStream() {
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }

    public func stop() {
        condition.withLock {
            stopped = true
            pending.removeAll()
            pendingSeconds = 0
            condition.broadcast()
        }
    }

    public func sourceUnavailable(_ state: SoundState) {
        condition.withLock {
            failed = true
            finished = true
            condition.broadcast()
        }
        say(state)
    }

    /// Blocks until the sound played out (or failed, or was stopped) or `timeout` seconds passed: `livegrid
    /// play` lets the last samples be heard before it exits. True when done.
    @discardableResult
    public func waitUntilFinished(timeout: Double) -> Bool {
        let deadline = MonotonicClock.now() + timeout
        return condition.withLock {
            while !finished {
                let left = deadline - MonotonicClock.now()
                if left <= 0 { return false }
                condition.wait(seconds: left)
            }
            return true
        }
    }

    // MARK: - output thread

    private func say(_ state: SoundState) {
        let first: Bool = condition.withLock {
            guard !reported || state == .playing else { return false }
            if state != .playing { reported = true }
            return true
        }
        if first { report(state) }
    }

    private func outputLoop(format: AudioFormat) {
        defer {
            condition.withLock {
                finished = true
                condition.broadcast()
            }
        }
        var message = [CChar](repeating: 0, count: 256)
        guard lg_pulse_load(&message, message.count) == 0 else {
            markFailed()
            say(.noLibrary)
            return
        }
        let bytesPerSecond = format.sampleRate * format.bytesPerFrame
        var error: Int32 = 0
        let connection = lg_pulse_connect(applicationName, "Live Photo", UInt32(format.sampleRate), UInt32(format.channels),
                                          UInt32(Double(bytesPerSecond) * Self.serverBuffer(forServer: server)),
                                          &error)
        guard let connection else {
            markFailed()
            say(.noServer)
            return
        }
        defer { lg_pulse_free(connection) }
        let tooSlow = condition.withLock { MonotonicClock.now() - connectStartedAt > Self.connectTimeout }
        if tooSlow {
            markFailed()
            say(.noServer)
            return
        }
        trace?("sound-connected")
        var announced = false
        let pieceFrames = max(1, Int(Double(format.sampleRate) * Self.pieceSeconds))
        // The server starts playing once its buffer holds `prebuf` (= the target, by default): until then the
        // pieces go one after the other, without asking the latency (a round trip each, a scheduling wait on a
        // loaded machine, and nothing is heard yet to measure). One write of the whole buffer was tried: it
        // returns only once the server made room (the stream's own buffer is smaller than the target asked
        // for), which held back the first `.playing` (the mark) by up to 750 ms.
        let prebufSeconds = Self.serverBuffer(forServer: server)
        var writtenSeconds = 0.0
        while true {
            let next: (samples: [Int16], start: Double, end: Double)?? = condition.withLock {
                while pending.isEmpty && !ended && !stopped { condition.wait() }
                if stopped { return nil }
                guard let first = pending.first else { return .some(nil) }
                let (piece, seconds) = takeQueued(frames: pieceFrames, channels: format.channels, rate: format.sampleRate)
                condition.broadcast()
                return .some((piece, first.pts, first.pts + seconds))
            }
            guard let next else {
                // Released: throw away what the server still holds, so nothing plays on.
                _ = lg_pulse_flush(connection, &error)
                return
            }
            guard let piece = next else {
                // The end of the track: let the server play what it has.
                _ = lg_pulse_drain(connection, &error)
                condition.withLock { estimate = AudioClockEstimate() }
                return
            }
            let written = piece.samples.withUnsafeBytes { raw in lg_pulse_write(connection, raw.baseAddress, raw.count, &error) }
            guard written >= 0 else {
                let why = String(cString: lg_pulse_strerror(error))
                markFailed()
                say(.lost("the sound server went away (\(why))"))
                return
            }
            if !announced { trace?("sound-first-write \(Int(((piece.end - piece.start) * 1000).rounded())) ms") }
            writtenSeconds += piece.end - piece.start
            let latency = writtenSeconds >= prebufSeconds ? lg_pulse_latency_usec(connection, &error) : -1
            condition.withLock {
                estimate.wrote(from: piece.start, to: piece.end)
                if latency >= 0 { estimate.measured(latency: Double(latency) / 1_000_000, at: MonotonicClock.now()) }
            }
            if !announced {
                announced = true
                say(.playing)
            }
        }
    }

    /// Up to `frames` frames from the front of the queue, across chunks (a decoder's chunks follow each other
    /// without gaps); the caller holds the lock.
    private func takeQueued(frames: Int, channels: Int, rate: Int) -> (samples: [Int16], seconds: Double) {
        var samples: [Int16] = []
        var wanted = frames * channels
        while wanted > 0, var chunk = pending.first {
            let count = min(wanted, chunk.samples.count)
            samples += chunk.samples.prefix(count)
            let seconds = Double(count / channels) / Double(rate)
            chunk.samples.removeFirst(count)
            chunk.pts += seconds
            pendingSeconds -= seconds
            wanted -= count
            if chunk.samples.isEmpty { pending.removeFirst() } else { pending[0] = chunk }
        }
        return (samples, Double(samples.count / channels) / Double(rate))
    }

    private func markFailed() {
        condition.withLock {
            failed = true
            pending.removeAll()
            pendingSeconds = 0
            condition.broadcast()
        }
    }
}
