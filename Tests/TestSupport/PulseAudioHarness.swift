import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A real PulseAudio daemon for a test, as root without D-Bus: its own runtime, state and home directories in a
/// temporary folder, a unix socket there (`server`, for `PULSE_SERVER`) and a null sink `t` whose monitor
/// `parec` records, so what a program played can be compared with what it should have played.
public final class PulseAudioHarness {
    public let directory: URL
    public var server: String { "unix:\(socket)" }
    private var socket: String { directory.appendingPathComponent("native").path }
    private let daemon: SpawnedProcess
    private let log: URL
    private let pactl: String

    /// `sinkName`: the null sink's name (its monitor is `<sinkName>.monitor`); `extraModules`: more `--load`
    /// lines (a TCP listener for the SSH test).
    public init(sinkName: String = "t", extraModules: [String] = []) throws {
        let pulseaudio = try MissingRequirement.path(of: "pulseaudio", for: "the sound tests need a PulseAudio daemon (package pulseaudio)")
        _ = try MissingRequirement.path(of: "parec", for: "the sound tests record with parec (package pulseaudio-utils)")
        pactl = try MissingRequirement.path(of: "pactl", for: "the sound tests ask the daemon with pactl (package pulseaudio-utils)")
        self.sinkName = sinkName
        directory = try Fixtures.makeTemporaryDirectory("livegrid-pulse")
        log = directory.appendingPathComponent("pulseaudio.log")
        for sub in ["run", "state"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let socket = directory.appendingPathComponent("native").path
        daemon = try SpawnedProcess(pulseaudio, ["--daemonize=no", "--system=no", "--exit-idle-time=-1", "-n", "--disallow-exit",
                                                 "--log-target=stderr", "--log-level=debug",
                                                 "--load=module-native-protocol-unix socket=\(socket) auth-anonymous=1",
                                                 "--load=module-null-sink sink_name=\(sinkName) rate=48000"]
                                        + extraModules.map { "--load=\($0)" },
                                    environment: Self.environment(directory), stdout: log.path, stderr: log.path)
        // Ready = the socket is there and the server answers `pactl info` (polling a condition, 15 s at most).
        let deadline = Date().addingTimeInterval(15)
        while !answers() {
            guard daemon.isRunning, Date() < deadline else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""   // try?: no log = nothing to show
                stop()
                throw MissingRequirement.Failure(description: "pulseaudio did not start: \(text.suffix(800))")
            }
            usleep(20_000)
        }
    }

    public let sinkName: String

    deinit { stop() }

    /// True when the server answers on its socket.
    private func answers() -> Bool {
        guard FileManager.default.fileExists(atPath: socket) else { return false }
        // try?: pactl failing to run or timing out = not answering yet.
        return (try? pactlRun(["info"]).status) == 0
    }

    /// `pactl -s <server> arguments`, output to files, 5 s at most.
    public func pactlRun(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        var environment = Self.environment(directory)
        environment["PULSE_SERVER"] = server
        return try SpawnedProcess.run(pactl, ["-s", server] + arguments, environment: environment, timeout: 5)
    }

    static func environment(_ directory: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory.path
        environment["PULSE_RUNTIME_PATH"] = directory.appendingPathComponent("run").path
        environment["PULSE_STATE_PATH"] = directory.appendingPathComponent("state").path
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        environment.removeValue(forKey: "PULSE_SERVER")
        return environment
    }

    /// The daemon's log so far (debug level: underruns are in it).
    public var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }   // try?: none yet = empty

    /// Stops the daemon at once (SIGKILL: a server that vanishes mid-clip).
    public func kill() {
        daemon.signal(SIGKILL)
        daemon.wait(timeout: 10)
    }

    public func stop() {
        // SIGKILL: pulseaudio run with --disallow-exit took no notice of SIGTERM here.
        daemon.signal(SIGKILL)
        daemon.wait(timeout: 10)
        // try?: a temporary folder left behind is harmless.
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts `parec` on the null sink's monitor (48 kHz mono s16) and returns once samples flow into its file.
    /// The monitor gives nothing while the sink is idle, and a sink that starts with the sound lost its first
    /// 45 ms in the capture (and an earlier trial captured only silence): a stream of zeros (`pacat
    /// /dev/zero`, adding nothing to what is mixed) keeps the sink running from before playback to the end.
    public func record() throws -> Recording {
        try Recording(harness: self)
    }

    /// The server's count of underruns of livegrid's stream ("Live Photo") so far: its debug log says "Actual
    /// underrun of '<stream>'" (or "Implicit underrun of") once for each (protocol-native.c, the start excepted);
    /// a drain at the end of a track says "drain of".
    public var underruns: Int {
        logText.components(separatedBy: "\n").filter { $0.contains("underrun of 'Live Photo'") }.count
    }

    public final class Recording {
        private let process: SpawnedProcess
        /// `pacat /dev/zero`: keeps the null sink running, so the monitor delivers from the first sample.
        private let keeper: SpawnedProcess
        private let file: URL
        public static let sampleRate = 48000

        init(harness: PulseAudioHarness) throws {
            file = harness.directory.appendingPathComponent("capture-\(UUID().uuidString).raw")
            var environment = PulseAudioHarness.environment(harness.directory)
            environment["PULSE_SERVER"] = harness.server
            let format = ["--raw", "--format=s16le", "--rate=48000", "--channels=1", "--latency-msec=20"]
            process = try SpawnedProcess(try MissingRequirement.path(of: "parec", for: "recording"),
                                         ["-d", "\(harness.sinkName).monitor"] + format,
                                         environment: environment, stdout: file.path)
            keeper = try SpawnedProcess(try MissingRequirement.path(of: "pacat", for: "keeping the sink running (pulseaudio-utils)"),
                                        ["-d", harness.sinkName] + format + ["/dev/zero"], environment: environment)
            // Ready when the recording has samples (the monitor delivers): polling the file, a condition.
            let deadline = Date().addingTimeInterval(15)
            while capturedBytes == 0 {
                guard process.isRunning, keeper.isRunning, Date() < deadline else {
                    process.stop(grace: 0.5)
                    keeper.stop(grace: 0.5)
                    throw MissingRequirement.Failure(description: "parec recorded nothing from \(harness.sinkName).monitor")
                }
                usleep(10_000)
            }
        }

        /// Samples louder than a whisper recorded so far (a test waits for the sound to begin).
        public func loudSamplesSoFar() -> Int {
            guard let data = try? Data(contentsOf: file) else { return 0 }   // try?: not yet readable = nothing yet
            return data.withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).filter { abs(Int($0)) > 300 }.count }
        }

        var capturedBytes: Int {
            ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int) ?? 0   // try?: none yet = 0
        }

        /// Stops recording and returns the samples.
        public func finish() throws -> [Int16] {
            process.stop(grace: 2)
            keeper.stop(grace: 2)
            let data = try Data(contentsOf: file)
            return data.withUnsafeBytes { raw in Array(raw.bindMemory(to: Int16.self)) }
        }

        deinit {
            process.stop(grace: 0.5)
            keeper.stop(grace: 0.5)
        }
    }
}

/// Comparisons of recorded sound with what it should be.
public enum SoundComparison {
    /// How a capture matches the movie's own sound: the cross-correlation peak, the seconds heard against the
    /// seconds the movie has, and the level against the movie's. nil when nothing audible was captured.
    public struct Match {
        public var peak: Double
        public var heard: Double
        public var expected: Double
        public var level: Double
    }

    /// `captured` (mono s16 at 48 kHz) against `reference`, aligned on their onsets.
    public static func match(reference: [Int16], captured: [Int16]) -> Match? {
        guard let refOnset = onset(reference), let capOnset = onset(captured),
              let refEnd = offset(reference), let capEnd = offset(captured) else { return nil }
        let best = bestMatch(reference: reference, captured: captured, around: capOnset - refOnset)
        let level = rms(captured[capOnset..<capEnd]) / max(1, rms(reference[refOnset..<refEnd]))
        return Match(peak: best.peak, heard: Double(capEnd - capOnset) / 48000, expected: Double(refEnd - refOnset) / 48000,
                     level: level)
    }

    /// Mono s16 at 48 kHz of `movie`'s sound, decoded by ffmpeg (the independent reference).
    public static func reference(_ movie: String) throws -> [Int16] {
        let ffmpeg = try MissingRequirement.path(of: "ffmpeg", for: "the reference sound is decoded by ffmpeg")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-ref-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: file) }   // try?: a leftover temporary is harmless
        // Spawned and reaped here: it runs beside the test's PulseAudio daemon (see `SpawnedProcess`).
        let result = try SpawnedProcess.run(ffmpeg, ["-v", "error", "-y", "-i", movie, "-map", "0:a:0", "-f", "s16le", "-ac", "1", "-ar", "48000", file.path],
                                            environment: ProcessInfo.processInfo.environment)
        guard result.status == 0 else { throw MissingRequirement.Failure(description: "ffmpeg could not decode \(movie): \(result.err)") }
        let data = try Data(contentsOf: file)
        return data.withUnsafeBytes { raw in Array(raw.bindMemory(to: Int16.self)) }
    }

    public static func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Index of the first sample louder than `threshold` (absolute), or nil.
    public static func onset(_ samples: [Int16], threshold: Int16 = 300) -> Int? {
        samples.firstIndex { abs(Int($0)) > Int(threshold) }
    }

    /// Index just after the last sample louder than `threshold`.
    public static func offset(_ samples: [Int16], threshold: Int16 = 300) -> Int? {
        samples.lastIndex { abs(Int($0)) > Int(threshold) }.map { $0 + 1 }
    }

    /// The best normalised cross-correlation of `reference` inside `captured`, searched at 8 kHz (averages of 6
    /// samples) for lags within `window` samples of `around`: (peak in -1...1, lag in 48 kHz samples).
    public static func bestMatch(reference: [Int16], captured: [Int16], around: Int, window: Int = 4800) -> (peak: Double, lag: Int) {
        func decimate(_ s: [Int16]) -> [Double] {
            stride(from: 0, to: s.count - 5, by: 6).map { i in (0..<6).reduce(0.0) { $0 + Double(s[i + $1]) } / 6 }
        }
        let ref = decimate(reference), cap = decimate(captured)
        let refEnergy = ref.reduce(0) { $0 + $1 * $1 }
        var best = (peak: -1.0, lag: 0)
        let center = around / 6, half = window / 6
        for lag in max(0, center - half)...max(0, center + half) {
            let n = min(ref.count, cap.count - lag)
            guard n > ref.count / 2 else { continue }
            var dot = 0.0, capEnergy = 0.0
            for i in 0..<n {
                dot += ref[i] * cap[lag + i]
                capEnergy += cap[lag + i] * cap[lag + i]
            }
            let norm = (refEnergy * capEnergy).squareRoot()
            if norm > 0, dot / norm > best.peak { best = (dot / norm, lag * 6) }
        }
        return best
    }
}
