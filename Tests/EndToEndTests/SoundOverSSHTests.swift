import Foundation
import TestSupport
import XCTest

/// The README's recipe for hearing an SSH session's sound at home (issue 29.6), end to end: the local sound
/// server listens on loopback TCP, `ssh -R` forwards a port on the host to it, and livegrid on the host plays
/// with `PULSE_SERVER=tcp:127.0.0.1:<forwarded>`. The host is a throwaway sshd on loopback; the sound is
/// captured on the *client's* null sink and compared with the movie's own sound.
final class SoundOverSSHTests: XCTestCase {
    func testTheSoundOfAnSSHSessionComesHomeThroughARemoteForward() throws {
        let ssh = try MissingRequirement.path(of: "ssh", for: "the SSH sound test (package openssh-client)")
        try SSHTestServer.requireSSHD()
        let root = try Fixtures.makeTemporaryDirectory("livegrid-sound-ssh")
        defer { try? FileManager.default.removeItem(at: root) }   // try?: a leftover temporary folder is harmless
        let localPort = try RemoteTestHarness.freePort()
        let home = try PulseAudioHarness(extraModules: ["module-native-protocol-tcp port=\(localPort) listen=127.0.0.1 auth-anonymous=1"])
        let recording = try home.record()
        let sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
        defer { sshd.stop() }
        let config = try sshd.clientConfig()
        let forwarded = try RemoteTestHarness.freePort()
        let movie = Fixtures.committed("train.mov")
        let binary = try MissingRequirement.livegridBinary()
        let remote = "PULSE_SERVER=tcp:127.0.0.1:\(forwarded) COLORTERM=truecolor '\(binary)' play '\(movie)' --size 20x6 --format symbols --stats"
        let result = try SpawnedProcess.run(ssh, ["-F", config, "-o", "BatchMode=yes", "-o", "ExitOnForwardFailure=yes",
                                                  "-R", "\(forwarded):127.0.0.1:\(localPort)", SSHTestServer.alias, remote],
                                            environment: ProcessInfo.processInfo.environment, timeout: 60)
        let captured = try recording.finish()
        XCTAssertEqual(result.status, 0, result.err + sshd.log.suffix(500))
        XCTAssertTrue(result.err.contains("frames shown"), result.err)
        XCTAssertFalse(result.err.contains("no sound"), result.err)
        let reference = try SoundComparison.reference(movie)
        guard let match = SoundComparison.match(reference: reference, captured: captured) else {
            return XCTFail("nothing audible came home (\(captured.count) samples): \(result.err)")
        }
        XCTAssertGreaterThan(match.peak, 0.8, "what came home is the movie's sound")
        XCTAssertEqual(match.heard, match.expected, accuracy: 0.15, "all of it")
        print("sound over ssh: peak \(match.peak), underruns \(home.underruns)")
    }

    /// The issue's "Over SSH" test as a user meets it: livegrid's browser runs in the SSH session (inside tmux,
    /// the client's terminal), the train Live Photo is held with the mouse, and its sound is captured on the
    /// *client's* null sink through the `RemoteForward`, compared with the movie's own sound.
    func testAHeldLivePhotoInTheBrowserOverSSHIsHeardAtHome() throws {
        let ssh = try MissingRequirement.path(of: "ssh", for: "the SSH sound test (package openssh-client)")
        try SSHTestServer.requireSSHD()
        let fixture = try BrowserFixture.make()
        defer { fixture.remove() }
        guard fixture.kinds["train.jpg"] == "live" else {
            throw MissingRequirement.Failure(description: "train.jpg should pair as live, scan says \(fixture.kinds["train.jpg"] ?? "nothing")")
        }
        let localPort = try RemoteTestHarness.freePort()
        let home = try PulseAudioHarness(extraModules: ["module-native-protocol-tcp port=\(localPort) listen=127.0.0.1 auth-anonymous=1"])
        let sshd = try SSHTestServer(directory: fixture.home.appendingPathComponent("ssh"))
        defer { sshd.stop() }
        let config = try sshd.clientConfig()
        let forwarded = try RemoteTestHarness.freePort()
        // The host's only sound server is the forwarded port: what is heard at home came through the forward.
        let remote = "PULSE_SERVER=tcp:127.0.0.1:\(forwarded) " + fixture.command("--no-motion")
        let command = "'\(ssh)' -t -F '\(config)' -o BatchMode=yes -o ExitOnForwardFailure=yes "
            + "-R \(forwarded):127.0.0.1:\(localPort) \(SSHTestServer.alias) \"\(remote)\""
        let session = try TmuxSession(command: command, columns: 120, rows: 40)
        try session.waitFor("the grid over ssh", timeout: 60) { $0.contains { $0.contains("train.jpg") } }
        for _ in 0..<fixture.names.count {
            if try session.screen().last?.contains("train.jpg") == true { break }
            try session.send("l")
        }
        try session.waitFor("train.jpg selected") { $0.last?.contains("train.jpg") == true }
        let grid = ScreenGrid(lines: try session.screen(), names: fixture.names)
        guard let cell = grid.cell("train.jpg") else { return XCTFail("no train.jpg cell") }

        let recording = try home.record()
        let x = cell.x + cell.width / 2, y = (cell.pictureTop + cell.captionRow) / 2
        try session.mouseButton(pressed: true, x: x, y: y)
        // Held until the clip's sound has come home and ended: loud samples arrived, then no new ones for 0.5 s
        // (conditions read off the capture, at most 15 s in all).
        var statusWhileHeld = ""
        let deadline = Date().addingTimeInterval(15)
        var loud = 0, lastGrowth = Date()
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            if let line = try session.screen().last, line.contains("hold:") { statusWhileHeld = line }
            let now = recording.loudSamplesSoFar()
            if now > loud { loud = now; lastGrowth = Date() }
            if loud > 0, Date().timeIntervalSince(lastGrowth) > 0.5 { break }
        }
        try session.mouseButton(pressed: false, x: x, y: y)
        let captured = try recording.finish()
        XCTAssertTrue(statusWhileHeld.contains("hold: mouse"), "the browser played a hold: '\(statusWhileHeld)'")
        XCTAssertFalse(statusWhileHeld.contains("no sound"), statusWhileHeld)

        let movie = Fixtures.committed("train.mov")
        let reference = try SoundComparison.reference(movie)
        guard let match = SoundComparison.match(reference: reference, captured: captured) else {
            return XCTFail("nothing audible came home (\(captured.count) samples); screen: \(try session.screen().suffix(2))")
        }
        XCTAssertGreaterThan(match.peak, 0.8, "what came home is the held movie's sound")
        XCTAssertEqual(match.heard, match.expected, accuracy: 0.15, "all of it, once")
        XCTAssertEqual(match.level, 1, accuracy: 0.3, "at its own level")
        print("held over ssh: peak \(match.peak), heard \(match.heard) s of \(match.expected) s, level \(match.level), underruns \(home.underruns)")
    }
}
