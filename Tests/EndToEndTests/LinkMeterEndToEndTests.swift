import Foundation
import TestSupport
import XCTest

/// Issue 28.4: over SSH a first screen of pictures never blocks `write` (sshd's channel window takes it all), so
/// the link is measured by a round trip through the terminal: a cursor position query after the pictures, whose
/// reply comes once the terminal has taken every byte before it. Here a scripted pty answers as xterm with sixel
/// and delivers what livegrid writes at 40 KB/s (it reads at once, as sshd does: nothing blocks); the status
/// bar must say the link is slow. Without the round trip nothing ever measured this link.
final class LinkMeterEndToEndTests: XCTestCase {
    func testASlowLinkThatNeverBlocksIsMeasuredByTheRoundTrip() throws {
        let binary = try MissingRequirement.livegridBinary()
        _ = try ScriptedPtyTerminal.requirePython()
        let root = try Fixtures.makeTemporaryDirectory("livegrid-link-meter")
        defer { try? FileManager.default.removeItem(at: root) }   // a temporary directory: nothing to report
        let library = root.appendingPathComponent("library"), home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        // A screen of sixel pictures: well over the 128 KB burst that is worth a query. The status bar says
        // "link ~52 KB/s: motion hints off" (cut to the 120 columns of the pty). Python reading the pty may
        // block livegrid's writes a little on a busy machine, but never down to kilobytes a second: only the
        // round trip sees a link that slow.
        for index in 1...12 {
            try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"),
                                             toPath: library.appendingPathComponent("IMG_\(1000 + index).jpg").path)
        }
        let outcome = try ScriptedPtyTerminal.run(
            [binary, "--graphics", "sixels", library.path], mode: .slowLink, term: "xterm-256color",
            waitFor: "KB/s: motion", linkRate: 40_000,
            environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config", "XDG_CACHE_HOME": home.path + "/cache",
                          "COLORTERM": "truecolor"],
            in: root)
        let tail = outcome.outputTail.suffix(800).debugDescription
        XCTAssertEqual(outcome.sixelSeen, true, "the pictures went as sixels: \(tail)")
        XCTAssertEqual(outcome.waitedForSeen, true, "the status bar never said the link is slow: \(tail)")
        XCTAssertTrue(outcome.exited, "livegrid did not quit on `q`: \(tail)")
        XCTAssertEqual(outcome.status, 0, tail)
    }
}
