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
        guard let refOnset = SoundComparison.onset(reference), let capOnset = SoundComparison.onset(captured),
              let refEnd = SoundComparison.offset(reference), let capEnd = SoundComparison.offset(captured) else {
            return XCTFail("nothing audible came home (\(captured.count) samples): \(result.err)")
        }
        let match = SoundComparison.bestMatch(reference: reference, captured: captured, around: capOnset - refOnset)
        XCTAssertGreaterThan(match.peak, 0.8, "what came home is the movie's sound")
        XCTAssertEqual(Double(capEnd - capOnset) / 48000, Double(refEnd - refOnset) / 48000, accuracy: 0.15, "all of it")
        print("sound over ssh: peak \(match.peak), underruns \(home.underruns)")
    }
}
