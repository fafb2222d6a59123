import Foundation
import TestSupport
import XCTest

/// The sound of a movie through a real PulseAudio daemon (issue 29): `livegrid play` plays it, a recorder on
/// the daemon's null sink captures it, and the capture is compared with the movie's own sound decoded by ffmpeg.
final class SoundPlaybackTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-sound")
    }

    override func tearDown() {
        // try?: a temporary folder left behind is harmless.
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A 2 s movie whose sound is a rising sweep (unlike a pure tone, it matches itself at one lag only), AAC.
    private func sweepMovie(codec: String = "aac", extra: [String] = []) throws -> String {
        let ffmpeg = try MissingRequirement.path(of: "ffmpeg", for: "the test movies are made with ffmpeg")
        let movie = directory.appendingPathComponent("sweep-\(codec).mov").path
        let result = try ExternalTool.runProgram(ffmpeg, [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30:duration=2",
            "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(200+300*t)*t):s=48000:d=2",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", codec] + extra + ["-shortest", movie])
        XCTAssertEqual(result.status, 0, result.err)
        return movie
    }

    /// `livegrid play` to its end (spawned and reaped by the test: Foundation's `Process` could wait forever
    /// beside the daemon, see `SpawnedProcess`).
    private func play(_ movie: String, server: String, extra: [String] = []) throws -> (status: Int32, out: String, err: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = server
        environment["COLORTERM"] = "truecolor"
        return try SpawnedProcess.run(try MissingRequirement.livegridBinary(),
                                      ["play", movie, "--size", "20x6", "--format", "symbols", "--stats"] + extra,
                                      environment: environment, timeout: 60)
    }

    /// Plays `movie` into a fresh daemon and checks the capture against ffmpeg's decoding of the same sound.
    private func assertHeard(_ movie: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let pulse = try PulseAudioHarness()
        let recording = try pulse.record()
        let result = try play(movie, server: pulse.server)
        let captured = try recording.finish()
        XCTAssertEqual(result.status, 0, result.err, file: file, line: line)
        XCTAssertFalse(result.err.contains("no sound"), result.err, file: file, line: line)
        let reference = try SoundComparison.reference(movie)
        guard let match = SoundComparison.match(reference: reference, captured: captured) else {
            return XCTFail("nothing audible was captured (\(captured.count) samples): \(result.err)", file: file, line: line)
        }
        XCTAssertGreaterThan(match.peak, 0.8, "the capture is the movie's sound", file: file, line: line)
        XCTAssertEqual(match.heard, match.expected, accuracy: 0.15, "it played whole, once", file: file, line: line)
        XCTAssertEqual(match.level, 1, accuracy: 0.3, "at its own level", file: file, line: line)
        print("sound: peak \(match.peak), heard \(match.heard) s of \(match.expected) s, level \(match.level), underruns \(pulse.underruns)")
    }

    func testPlayHearsAnAACMoviesSound() throws {
        try assertHeard(try sweepMovie())
    }

    func testPlayHearsTrainsLPCMSound() throws {
        try assertHeard(Fixtures.committed("train.mov"))
    }

    func testMuteIsSilent() throws {
        let movie = try sweepMovie()
        let pulse = try PulseAudioHarness()
        let recording = try pulse.record()
        let result = try play(movie, server: pulse.server, extra: ["--mute"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("frames shown"), result.err)
        XCTAssertEqual(recording.loudSamplesSoFar(), 0, "nothing was played")
        // The same recorder hears the same movie without --mute: it was listening.
        let unmuted = try play(movie, server: pulse.server)
        XCTAssertEqual(unmuted.status, 0, unmuted.err)
        XCTAssertNotNil(SoundComparison.onset(try recording.finish()), "the recorder hears an unmuted playback")
    }

    /// A movie without a sound track plays its pictures with a server running, silent, and says nothing about
    /// sound (no track is not worth a line).
    func testAMovieWithoutSoundPlaysSilentlyWithoutAWord() throws {
        let ffmpeg = try MissingRequirement.path(of: "ffmpeg", for: "the test movies are made with ffmpeg")
        let movie = directory.appendingPathComponent("silent.mov").path
        let made = try ExternalTool.runProgram(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30:duration=2",
                                                        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-an", movie])
        XCTAssertEqual(made.status, 0, made.err)
        let pulse = try PulseAudioHarness()
        let recording = try pulse.record()
        let result = try play(movie, server: pulse.server)
        let captured = try recording.finish()
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("frames shown"), result.err)
        XCTAssertFalse(result.err.contains("sound"), result.err)
        XCTAssertNil(SoundComparison.onset(captured, threshold: 50), "nothing was played")
    }

    /// No sound server is a normal state: the pictures play, and why there is no sound is said once.
    func testNoServerPlaysSilentlyAndSaysWhyOnce() throws {
        let movie = try sweepMovie()
        let result = try play(movie, server: "unix:\(directory.appendingPathComponent("nobody-listens").path)")
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err.components(separatedBy: "no sound: no PulseAudio or PipeWire server here").count - 1, 1, result.err)
        XCTAssertTrue(result.err.contains("frames shown 60") || result.err.contains("dropped"), result.err)
        XCTAssertTrue(result.err.contains("first frame after"), result.err)
    }

    /// A sound track cut short: what decoded plays, the rest is silent; no crash, no hang.
    func testATruncatedMovieNeitherCrashesNorHangs() throws {
        let movie = try sweepMovie()
        let cut = directory.appendingPathComponent("cut.mov")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: movie))
        try Data(bytes.prefix(bytes.count * 2 / 3)).write(to: cut)
        let pulse = try PulseAudioHarness()
        let result = try play(cut.path, server: pulse.server)
        XCTAssertTrue([0, 1].contains(result.status), result.err)
        XCTAssertFalse(result.err.contains("Fatal error"), result.err)
    }

    /// A sound track at 1 MHz: the header makes no sense for a sound server; the pictures play, silent, and
    /// the reason is one plain line.
    func testAnAbsurdSampleRateIsSilentWithAPlainMessage() throws {
        let movie = try sweepMovie(codec: "pcm_s16le", extra: ["-ar", "1000000"])
        let pulse = try PulseAudioHarness()
        let result = try play(movie, server: pulse.server)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("no sound: the sound track cannot be decoded (unsupported sound at 1000000 Hz)"), result.err)
        XCTAssertTrue(result.err.contains("frames shown"), result.err)
    }

    /// A header patched to claim 65535 channels.
    func testAnAbsurdChannelCountIsSilentWithoutACrash() throws {
        let movie = try sweepMovie(codec: "pcm_s16le")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: movie)))
        guard let stsd = Self.find(Array("stsd".utf8), in: bytes), let entry = Self.find(Array("sowt".utf8), in: bytes, from: stsd) else {
            return XCTFail("no sowt sample description in the generated movie")
        }
        // A version-0 sound description: the channel count is the 16-bit field 20 bytes after the type.
        bytes[entry + 20] = 0xFF
        bytes[entry + 21] = 0xFF
        let patched = directory.appendingPathComponent("channels.mov")
        try Data(bytes).write(to: patched)
        let pulse = try PulseAudioHarness()
        let result = try play(patched.path, server: pulse.server)
        XCTAssertFalse(result.err.contains("Fatal error"), result.err)
        XCTAssertTrue(result.err.contains("frames shown"), result.err)
    }

    /// The sound server killed in the middle of the clip: the pictures play to the end, one plain line.
    func testAServerKilledMidClipLeavesThePicturesPlaying() throws {
        let movie = try sweepMovie()
        let pulse = try PulseAudioHarness()
        let recording = try pulse.record()
        let errFile = directory.appendingPathComponent("play.err")
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = pulse.server
        let process = try SpawnedProcess(try MissingRequirement.livegridBinary(),
                                         ["play", movie, "--size", "20x6", "--format", "symbols", "--stats"],
                                         environment: environment, stderr: errFile.path)
        // Once sound is heard on the sink, the server goes.
        let deadline = Date().addingTimeInterval(20)
        while recording.loudSamplesSoFar() == 0 && Date() < deadline && process.isRunning { usleep(10_000) }
        XCTAssertTrue(process.isRunning, "the server was killed while the clip played")
        pulse.kill()
        let status = process.wait(timeout: 20)
        XCTAssertNotNil(status, "play did not hang")
        process.stop(grace: 0.5)
        let err = try String(contentsOf: errFile, encoding: .utf8)
        XCTAssertEqual(status, 0, err)
        XCTAssertTrue(err.contains("sound stopped: the sound server went away"), err)
        XCTAssertTrue(err.contains("frames shown"), err)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where bytes[index] == needle[0] {
            if Array(bytes[index..<index + needle.count]) == needle { return index }
        }
        return nil
    }
}
