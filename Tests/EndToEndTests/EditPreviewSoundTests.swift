import Foundation
import TestSupport
import XCTest

/// `livegrid edit --preview` (issue 29.1): the edit's kept range plays with its sound through a real PulseAudio
/// daemon, captured from its null sink and compared with ffmpeg's decoding of the same range; a muted edit
/// previews silent; the preview writes nothing.
final class EditPreviewSoundTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-edit-preview")
    }

    override func tearDown() {
        // try?: a temporary folder left behind is harmless.
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// train.jpg + train.mov (iPhone 6s, 1.23 s, PCM sound) copied into the test folder: the still's path.
    private func trainPair() throws -> String {
        for name in ["train.jpg", "train.mov"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: directory.appendingPathComponent(name).path)
        }
        return directory.appendingPathComponent("train.jpg").path
    }

    /// `livegrid edit ITEM ARGS --preview` to its end, spawned and reaped by the test (see `SpawnedProcess`).
    private func preview(_ item: String, _ arguments: [String], server: String) throws -> (status: Int32, out: String, err: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = server
        environment["COLORTERM"] = "truecolor"
        return try SpawnedProcess.run(try MissingRequirement.livegridBinary(),
                                      ["edit", item] + arguments + ["--preview", "--size", "20x6", "--format", "symbols"],
                                      environment: environment, timeout: 60)
    }

    /// 48 kHz samples `start..<end` seconds of `samples`.
    private func range(_ samples: [Int16], _ start: Double, _ end: Double) -> [Int16] {
        let from = min(samples.count, Int(start * 48000)), to = min(samples.count, Int(end * 48000))
        return Array(samples[from..<to])
    }

    func testATrimPreviewIsHeardForItsRangeOnly() throws {
        let still = try trainPair()
        let pulse = try PulseAudioHarness()
        let recording = try pulse.record()
        let result = try preview(still, ["--trim", "0.2:0.8"], server: pulse.server)
        let captured = try recording.finish()
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(result.err.contains("no sound"), result.err)
        let whole = try SoundComparison.reference(directory.appendingPathComponent("train.mov").path)
        let reference = range(whole, 0.2, 0.8)
        guard let refOnset = SoundComparison.onset(reference), let capOnset = SoundComparison.onset(captured),
              let refEnd = SoundComparison.offset(reference), let capEnd = SoundComparison.offset(captured) else {
            return XCTFail("nothing audible was captured (\(captured.count) samples): \(result.err)")
        }
        let match = SoundComparison.bestMatch(reference: reference, captured: captured, around: capOnset - refOnset)
        XCTAssertGreaterThan(match.peak, 0.8, "the capture is the range's sound")
        // The movie's first 0.6 s is not what was heard: the preview started at the trim's start.
        let start = SoundComparison.bestMatch(reference: range(whole, 0, 0.6), captured: captured, around: capOnset)
        XCTAssertLessThan(start.peak, match.peak - 0.2, "the preview began at 0.2 s, not at the movie's start")
        let heard = Double(capEnd - capOnset) / 48000, expected = Double(refEnd - refOnset) / 48000
        XCTAssertEqual(heard, expected, accuracy: 0.1, "the range played once, cut at its end (the movie is 1.23 s)")
        let level = SoundComparison.rms(captured[capOnset..<capEnd]) / max(1, SoundComparison.rms(reference[refOnset..<refEnd]))
        XCTAssertEqual(level, 1, accuracy: 0.3, "at its own level")
        XCTAssertTrue(result.err.contains("preview only: nothing was written"), result.err)
        print("edit preview: peak \(match.peak) (movie start \(start.peak)), heard \(heard) s of \(expected) s, level \(level)")
    }

    func testAMutedEditPreviewsSilentAndNoSoundToo() throws {
        let still = try trainPair()
        let pulse = try PulseAudioHarness()
        let recording = try pulse.record()
        let muted = try preview(still, ["--trim", "0.2:0.8", "--mute"], server: pulse.server)
        XCTAssertEqual(muted.status, 0, muted.err)
        XCTAssertFalse(muted.out.isEmpty, "the pictures were drawn")
        let silent = try preview(still, ["--trim", "0.2:0.8", "--no-sound"], server: pulse.server)
        XCTAssertEqual(silent.status, 0, silent.err)
        XCTAssertEqual(recording.loudSamplesSoFar(), 0, "nothing was played")
        // The same recorder hears the same preview without them: it was listening.
        let heard = try preview(still, ["--trim", "0.2:0.8"], server: pulse.server)
        XCTAssertEqual(heard.status, 0, heard.err)
        XCTAssertNotNil(SoundComparison.onset(try recording.finish()), "the recorder hears an unmuted preview")
    }

    func testThePreviewWritesNothing() throws {
        let still = try trainPair()
        let output = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let originals = try ["train.jpg", "train.mov"].map { try Data(contentsOf: directory.appendingPathComponent($0)) }
        // No server at all: the preview plays silent and says why; still nothing is written.
        let result = try preview(still, ["--trim", "0.2:0.8", "--key-photo-at", "0.5", "--mute", "-o", output.path],
                                 server: "unix:\(directory.appendingPathComponent("nobody-listens").path)")
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("preview only: nothing was written to \(output.path)"), result.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output.path), [], "nothing in -o, not even a temporary")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), before)
        XCTAssertEqual(try ["train.jpg", "train.mov"].map { try Data(contentsOf: directory.appendingPathComponent($0)) }, originals)
        // The same edit without --preview writes the pair: the command line was a real edit.
        let written = try SpawnedProcess.run(try MissingRequirement.livegridBinary(),
                                             ["edit", still, "--trim", "0.2:0.8", "--key-photo-at", "0.5", "--mute", "-o", output.path],
                                             environment: ProcessInfo.processInfo.environment, timeout: 120)
        XCTAssertEqual(written.status, 0, written.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output.path).count, 2)
    }

    func testATrimPastTheEndIsAPlainMessage() throws {
        let still = try trainPair()
        let result = try preview(still, ["--trim", "5:6"], server: "unix:\(directory.appendingPathComponent("nobody-listens").path)")
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.err.contains("--trim starts at 5"), result.err)
        XCTAssertFalse(result.err.contains("Fatal error"), result.err)
    }

    /// The symbols a silent preview leaves on the tmux screen once it has exited. Colours are left out: the
    /// cell writer skips a cell whose colours barely changed, so they carry a little of the earlier frames.
    /// The pane is kept alive after the preview (tmux's "Pane is dead" line scrolls the screen by one row,
    /// sometimes after the pane is reported dead), and the screen is read once the end marker shows.
    private func screenAfterPreview(_ still: String, _ arguments: [String]) throws -> String {
        let quoted = ([try MissingRequirement.livegridBinary(), "edit", still] + arguments
                      + ["--preview", "--no-sound", "--size", "40x12", "--format", "symbols"]).map { "'\($0)'" }
        let command = "env COLORTERM=truecolor PULSE_SERVER=unix:\(directory.appendingPathComponent("nobody-listens").path) "
            + quoted.joined(separator: " ") + " 2>/dev/null; echo PREVIEW-ENDED; exec cat"
        let session = try TmuxSession(command: command, columns: 60, rows: 20)
        let screen = try session.waitFor("the preview's end", timeout: 60) { $0.contains { $0.contains("PREVIEW-ENDED") } }
        return screen.prefix { !$0.contains("PREVIEW-ENDED") }.joined(separator: "\n")
    }

    /// After the range has played, the key photo is drawn: a long range and a three-frame range around the
    /// same key photo end on the same screen (without the key photo, the long one would end on a frame near
    /// 1.2 s, or an earlier one when the last was dropped), and another key photo ends on another screen.
    func testTheKeyPhotoIsShownAfterThePreview() throws {
        let still = try trainPair()
        let long = try screenAfterPreview(still, ["--trim", "0.2:1.2", "--key-photo-at", "0.3"])
        let short = try screenAfterPreview(still, ["--trim", "0.25:0.35", "--key-photo-at", "0.3"])
        let other = try screenAfterPreview(still, ["--trim", "0.2:1.2", "--key-photo-at", "1.1"])
        XCTAssertGreaterThan(long.unicodeScalars.filter { (0x2580...0x259F).contains($0.value) }.count, 100,
                             "the pictures were drawn: \(long)")
        XCTAssertEqual(long, short, "both end on the key photo at 0.3 s")
        XCTAssertNotEqual(long, other, "the last picture on screen is the chosen key photo")
    }
}
