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
    public var server: String { "unix:\(directory.appendingPathComponent("native").path)" }
    private let daemon: Process
    private let log: URL

    public init() throws {
        let pulseaudio = try MissingRequirement.path(of: "pulseaudio", for: "the sound tests need a PulseAudio daemon (package pulseaudio)")
        _ = try MissingRequirement.path(of: "parec", for: "the sound tests record with parec (package pulseaudio-utils)")
        directory = try Fixtures.makeTemporaryDirectory("livegrid-pulse")
        log = directory.appendingPathComponent("pulseaudio.log")
        for sub in ["run", "state"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        FileManager.default.createFile(atPath: log.path, contents: nil)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: pulseaudio)
        let socket = directory.appendingPathComponent("native").path
        daemon.arguments = ["--daemonize=no", "--system=no", "--exit-idle-time=-1", "-n", "--disallow-exit", "--log-target=stderr",
                            "--load=module-native-protocol-unix socket=\(socket) auth-anonymous=1",
                            "--load=module-null-sink sink_name=t rate=48000"]
        daemon.environment = Self.environment(directory)
        let handle = try FileHandle(forWritingTo: log)
        daemon.standardOutput = handle
        daemon.standardError = handle
        try daemon.run()
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: socket) {
            guard daemon.isRunning, Date() < deadline else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                stop()
                throw MissingRequirement.Failure(description: "pulseaudio did not start: \(text.suffix(800))")
            }
            usleep(20_000)   // polling for the socket, a condition (not a fixed wait)
        }
    }

    deinit { stop() }

    static func environment(_ directory: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory.path
        environment["PULSE_RUNTIME_PATH"] = directory.appendingPathComponent("run").path
        environment["PULSE_STATE_PATH"] = directory.appendingPathComponent("state").path
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        return environment
    }

    /// Stops the daemon at once (SIGKILL: a server that vanishes mid-clip).
    public func kill() {
        if daemon.isRunning { Glibc.kill(daemon.processIdentifier, SIGKILL) }
        daemon.waitUntilExit()
    }

    public func stop() {
        // SIGKILL: pulseaudio run with --disallow-exit took no notice of SIGTERM here.
        if daemon.isRunning { Glibc.kill(daemon.processIdentifier, SIGKILL) }
        if daemon.processIdentifier > 0 { daemon.waitUntilExit() }
        // try?: a temporary folder left behind is harmless.
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts `parec` on the null sink's monitor (48 kHz mono s16) and returns once it has recorded `lead`
    /// seconds (the recorder must run about 1 s before playback, or the start is lost).
    public func record(lead: Double = 1.0) throws -> Recording {
        try Recording(harness: self, lead: lead)
    }

    public final class Recording {
        private let process = Process()
        private let file: URL
        public static let sampleRate = 48000

        init(harness: PulseAudioHarness, lead: Double) throws {
            file = harness.directory.appendingPathComponent("capture-\(UUID().uuidString).raw")
            FileManager.default.createFile(atPath: file.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: try MissingRequirement.path(of: "parec", for: "recording"))
            process.arguments = ["-d", "t.monitor", "--raw", "--format=s16le", "--rate=48000", "--channels=1", "--latency-msec=20"]
            var environment = PulseAudioHarness.environment(harness.directory)
            environment["PULSE_SERVER"] = harness.server
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: file)
            process.standardError = FileHandle.nullDevice
            try process.run()
            // parec writes nothing while the sink is idle: ready is when the server lists its recording stream.
            let pactl = try MissingRequirement.path(of: "pactl", for: "checking that the recorder is connected")
            let deadline = Date().addingTimeInterval(15)
            while true {
                // Output to a file, not a pipe: reading pactl's pipe to its end hung here.
                let listing = harness.directory.appendingPathComponent("outputs.txt")
                FileManager.default.createFile(atPath: listing.path, contents: nil)
                let pactlRun = Process()
                pactlRun.executableURL = URL(fileURLWithPath: pactl)
                pactlRun.arguments = ["-s", harness.server, "list", "short", "source-outputs"]
                pactlRun.standardOutput = try FileHandle(forWritingTo: listing)
                pactlRun.standardError = FileHandle.nullDevice
                pactlRun.standardInput = FileHandle.nullDevice
                try pactlRun.run()
                pactlRun.waitUntilExit()
                let listed = (try? String(contentsOf: listing, encoding: .utf8)) ?? ""   // try?: unreadable = not yet
                if !listed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { break }
                guard process.isRunning, Date() < deadline else { throw MissingRequirement.Failure(description: "parec did not connect") }
                usleep(20_000)   // polling the server for the stream, a condition
            }
            _ = lead
        }

        /// Samples louder than a whisper recorded so far (a test waits for the sound to begin).
        public func loudSamplesSoFar() -> Int {
            guard let data = try? Data(contentsOf: file) else { return 0 }   // try?: not yet readable = nothing yet
            return data.withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).filter { abs(Int($0)) > 300 }.count }
        }

        var capturedBytes: Int {
            ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int) ?? 0
        }

        /// Stops recording and returns the samples.
        public func finish() throws -> [Int16] {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let data = try Data(contentsOf: file)
            return data.withUnsafeBytes { raw in Array(raw.bindMemory(to: Int16.self)) }
        }

        deinit { if process.isRunning { process.terminate() } }
    }
}

/// Comparisons of recorded sound with what it should be.
public enum SoundComparison {
    /// Mono s16 at 48 kHz of `movie`'s sound, decoded by ffmpeg (the independent reference).
    public static func reference(_ movie: String) throws -> [Int16] {
        let ffmpeg = try MissingRequirement.path(of: "ffmpeg", for: "the reference sound is decoded by ffmpeg")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-ref-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: file) }   // try?: a leftover temporary is harmless
        let result = try ExternalTool.runProgram(ffmpeg, ["-v", "error", "-y", "-i", movie, "-map", "0:a:0", "-f", "s16le", "-ac", "1", "-ar", "48000", file.path])
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
