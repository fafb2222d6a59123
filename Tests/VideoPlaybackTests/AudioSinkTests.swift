import Concurrent
import Foundation
import Imaging
import VideoPlayback
import XCTest

/// The audio sink's clock arithmetic (no server, no sleep) and how the player feeds an audio sink.
final class AudioClockEstimateTests: XCTestCase {
    func testNothingHeardBeforeTheFirstWrite() {
        XCTAssertNil(AudioClockEstimate().position(at: 100))
    }

    /// Written 0.0-0.1 s with 0.1 s in the server: nothing heard yet, so the first frame never waits for it.
    func testNilWhileTheServerStillHoldsEverything() {
        var estimate = AudioClockEstimate()
        estimate.wrote(from: 0, to: 0.1)
        estimate.measured(latency: 0.1, at: 5)
        XCTAssertNil(estimate.position(at: 5))
    }

    /// The position is what was written minus the latency, advanced by the time since it was measured.
    func testPositionIsWrittenMinusLatencyPlusElapsed() throws {
        var estimate = AudioClockEstimate()
        estimate.wrote(from: 1.0, to: 1.02)
        estimate.wrote(from: 1.02, to: 1.5)
        estimate.measured(latency: 0.06, at: 10)
        XCTAssertEqual(try XCTUnwrap(estimate.position(at: 10)), 1.44, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(estimate.position(at: 10.05)), 1.49, accuracy: 1e-9)
        XCTAssertEqual(estimate.firstPTS, 1.0)
    }

    /// Once everything written has played (an underrun, or the end), the frames go back to their own clock.
    func testNilOnceEverythingWrittenHasPlayed() {
        var estimate = AudioClockEstimate()
        estimate.wrote(from: 0, to: 0.5)
        estimate.measured(latency: 0.05, at: 0)
        XCTAssertNotNil(estimate.position(at: 0.04))
        XCTAssertNil(estimate.position(at: 0.05))
        XCTAssertNil(estimate.position(at: 3))
    }

    func testANegativeLatencyCountsAsNone() throws {
        var estimate = AudioClockEstimate()
        estimate.wrote(from: 0, to: 1)
        estimate.measured(latency: -1, at: 0)
        XCTAssertNil(estimate.position(at: 0), "all of it already heard: nothing left to follow")
        estimate.measured(latency: 0.5, at: 0)
        XCTAssertEqual(try XCTUnwrap(estimate.position(at: 0)), 0.5, accuracy: 1e-9)
    }
}

/// Sound a test makes: `count` chunks of 0.1 s at 1 kHz mono, each sample its chunk's number.
private final class SyntheticSound: AudioChunkSource {
    let format = AudioFormat(sampleRate: 1000, channels: 1)
    private let count: Int
    private var next = 0
    init(count: Int) { self.count = count }
    func nextChunk() throws(LibavError) -> AudioChunk? {
        guard next < count else { return nil }
        defer { next += 1 }
        return AudioChunk(samples: Array(repeating: Int16(next), count: 100), pts: Double(next) * 0.1, format: format)
    }
    func seek(to seconds: Double) throws(LibavError) { next = Int((seconds * 10).rounded(.down)) }
}

/// An audio sink that records what it was given and never answers a position (the frames keep their clock).
private final class RecordingAudioSink: AudioSink, @unchecked Sendable {
    struct Log: Sendable { var format: AudioFormat?; var chunks: [AudioChunk] = []; var ended = false; var stopped = false; var states: [SoundState] = [] }
    let log = Locked(Log())
    let done = DispatchSemaphore(value: 0)
    func position() -> Double? { nil }
    func begin(format: AudioFormat) { log.withLockedValue { $0.format = format } }
    func enqueue(_ chunk: AudioChunk) -> Bool { log.withLockedValue { $0.chunks.append(chunk); return !$0.stopped } }
    func endOfStream() { log.withLockedValue { $0.ended = true }; done.signal() }
    func stop() { log.withLockedValue { $0.stopped = true } }
    func sourceUnavailable(_ state: SoundState) { log.withLockedValue { $0.states.append(state) }; done.signal() }
    func waitUntilFinished(timeout: Double) -> Bool { log.withLockedValue { $0.ended || $0.stopped } }
}

final class PlayerAudioFeedTests: XCTestCase {
    private func makePlayer(options: PlaybackOptions = PlaybackOptions(), clock: ManualPlaybackClock, audio: RecordingAudioSink,
                            openAudio: @escaping MoviePlayer.AudioOpener) -> MoviePlayer {
        MoviePlayer(options: options, clock: clock, openDecoder: { SyntheticMovie(frameCount: 8) }, audio: audio,
                    openAudio: openAudio, video: RecordingSink(log: PresentedLog(), clock: clock))
    }

    func testTheWholeTrackIsFedInOrderThenEnded() {
        let clock = ManualPlaybackClock(now: 0)
        let audio = RecordingAudioSink()
        let player = makePlayer(clock: clock, audio: audio, openAudio: { SyntheticSound(count: 10) })
        player.start()
        XCTAssertEqual(drive(player, on: clock), .finished)
        XCTAssertEqual(audio.done.wait(timeout: .now() + 20), .success)
        let log = audio.log.value
        XCTAssertEqual(log.format, AudioFormat(sampleRate: 1000, channels: 1))
        XCTAssertEqual(log.chunks.map(\.pts), (0..<10).map { Double($0) * 0.1 })
        XCTAssertTrue(log.ended)
    }

    /// `endTime` cuts the sound where it cuts the pictures.
    func testTheSoundEndsAtTheEndTime() {
        let clock = ManualPlaybackClock(now: 0)
        let audio = RecordingAudioSink()
        let player = makePlayer(options: PlaybackOptions(endTime: 0.25), clock: clock, audio: audio, openAudio: { SyntheticSound(count: 10) })
        player.start()
        _ = drive(player, on: clock)
        XCTAssertEqual(audio.done.wait(timeout: .now() + 20), .success)
        let chunks = audio.log.value.chunks
        XCTAssertEqual(chunks.map(\.pts), [0, 0.1, 0.2])
        XCTAssertEqual(chunks.last?.frameCount, 50, "0.20-0.25 s of the last chunk")
    }

    func testStopSilencesTheSink() {
        let clock = ManualPlaybackClock(now: 0)
        let audio = RecordingAudioSink()
        let player = makePlayer(clock: clock, audio: audio, openAudio: { SyntheticSound(count: 10) })
        player.start()
        player.stop()
        XCTAssertTrue(audio.log.value.stopped)
        XCTAssertEqual(player.waitUntilEnded(timeout: 20), .stopped)
    }

    func testAMovieWithoutSoundSaysSoAndPlays() {
        let clock = ManualPlaybackClock(now: 0)
        let audio = RecordingAudioSink()
        let player = makePlayer(clock: clock, audio: audio, openAudio: { () throws(LibavError) -> any AudioChunkSource in
            throw LibavError.noVideoStream("no sound track")
        })
        player.start()
        XCTAssertEqual(drive(player, on: clock), .finished)
        XCTAssertEqual(audio.done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(audio.log.value.states, [.noTrack])
        XCTAssertEqual(player.stats.framesShown, 8)
    }

    func testAnUndecodableTrackIsSilentWithAReason() {
        let clock = ManualPlaybackClock(now: 0)
        let audio = RecordingAudioSink()
        let player = makePlayer(clock: clock, audio: audio, openAudio: { () throws(LibavError) -> any AudioChunkSource in
            throw LibavError.unsupported("sound at 1000000 Hz")
        })
        player.start()
        XCTAssertEqual(drive(player, on: clock), .finished)
        XCTAssertEqual(audio.done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(audio.log.value.states.map(\.description),
                       ["no sound: the sound track cannot be decoded (unsupported sound at 1000000 Hz)"])
    }

    /// Looping previews (the studio's loop and bounce) are silent: their exports have no sound. The sound
    /// track is not even opened.
    func testALoopingPlaybackIsSilent() {
        let clock = ManualPlaybackClock(now: 0)
        let audio = RecordingAudioSink()
        let opened = Locked(false)
        let log = PresentedLog()
        let holder = PlayerHolder()
        let sink = RecordingSink(log: log, clock: clock, after: { _ in if log.count >= 10 { holder.player?.stop() } })
        let player = MoviePlayer(options: PlaybackOptions(loops: true), clock: clock, openDecoder: { SyntheticMovie(frameCount: 4) },
                                 audio: audio, openAudio: { opened.set(true); return SyntheticSound(count: 10) }, video: sink)
        holder.player = player
        player.start()
        XCTAssertEqual(drive(player, on: clock), .stopped)
        XCTAssertFalse(opened.value)
        XCTAssertNil(audio.log.value.format)
    }

    func testANetworkServerGetsTheLargerBuffer() {
        XCTAssertEqual(PulseAudioSink.serverBuffer(forServer: nil), PulseAudioSink.serverBufferSeconds)
        XCTAssertEqual(PulseAudioSink.serverBuffer(forServer: "unix:/run/user/0/pulse/native"), PulseAudioSink.serverBufferSeconds)
        XCTAssertEqual(PulseAudioSink.serverBuffer(forServer: "tcp:127.0.0.1:24713"), PulseAudioSink.networkServerBufferSeconds)
        XCTAssertEqual(PulseAudioSink.serverBuffer(forServer: "otherhost"), PulseAudioSink.networkServerBufferSeconds)
    }
}

/// The sound-output table: the browser and `play` get their sink from it, and the sink it opens is a real one
/// that says in words why it is silent.
final class SoundOutputsTests: XCTestCase {
    func testTheTableOpensPulseAudioFirstAndItsSinkSaysWhyItIsSilent() {
        XCTAssertEqual(SoundOutputs.names.first, "pulse")
        let said = Locked<[SoundState]>([])
        let heard = DispatchSemaphore(value: 0)
        // A server socket that does not exist: the connection fails in the background, as with no server at all.
        let request = SoundOutputs.Request(environment: ["PULSE_SERVER": "unix:/nonexistent/livegrid-test/native"],
                                           report: { state in said.withLockedValue { $0.append(state) }; heard.signal() })
        guard let sink = SoundOutputs.open(request) else { return XCTFail("the table opened no sink") }
        let format = AudioFormat(sampleRate: 48_000, channels: 2)
        sink.begin(format: format)
        _ = sink.enqueue(AudioChunk(samples: Array(repeating: 0, count: 960), pts: 0, format: format))
        sink.endOfStream()
        XCTAssertEqual(heard.wait(timeout: .now() + 10), .success, "the sink said nothing within 10 s")
        let states = said.withLockedValue { $0 }
        XCTAssertTrue(states.contains(.noServer) || states.contains(.noLibrary), "\(states)")
        XCTAssertNil(sink.position(), "a silent sink is no clock: the frames keep theirs")
        XCTAssertTrue(sink.waitUntilFinished(timeout: 5), "a failed sink is finished: play does not wait for it")
        sink.stop()
    }
}
