import Foundation
import TestSupport
import XCTest

/// Issue 28.4: "a screen in flight is cancelled when the user moves on: never queue megabytes of pictures for a
/// screen already left", and a key is answered while pictures are in flight. A scripted pty answers as xterm
/// with sixel and delivers what livegrid writes at 50 KB/s; it reads at once, as sshd does, so no write ever
/// blocks and only the round trip through the terminal can tell what is still on its way. Page Down twice while
/// the first screen is drawn lands on a screen of files with no picture (broken JPEGs), so every sixel the
/// terminal receives after the keys is a picture of a screen already left.
///
/// Before the fix every picture went as soon as it was made: on a loaded 2-core machine four of the first
/// screen's 87 KB pictures (348 KB, seven seconds of this link) were still on their way when the keys were
/// typed, and the new screen's status bar reached the terminal 5.4-5.8 s after them (two runs).
final class ScreenLeftOnASlowLinkEndToEndTests: XCTestCase {
    func testPicturesOfAScreenLeftAreNotQueuedBehindTheKeys() throws {
        let binary = try MissingRequirement.livegridBinary()
        _ = try ScriptedPtyTerminal.requirePython()
        let ffmpeg = try MissingRequirement.path(of: "ffmpeg", for: "the slow-link test makes small JPEGs with it")
        let root = try Fixtures.makeTemporaryDirectory("livegrid-screen-left")
        defer { try? FileManager.default.removeItem(at: root) }   // a temporary directory: nothing to report
        let library = root.appendingPathComponent("library"), home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        // 640x480 pictures decode in milliseconds: pictures are made faster than the link carries them, as on
        // a real slow link. The first two screens (15 cells each at 120x40; two Page Downs leave items 21-35
        // on screen) are pictures, the rest broken files, which draw no picture.
        let small = root.appendingPathComponent("small.jpg").path
        let scaled = try ToolRunner.run(ffmpeg, ["-v", "error", "-i", Fixtures.committed("train.jpg"),
                                                 "-vf", "scale=640:480", "-y", small])
        XCTAssertEqual(scaled.status, 0, "ffmpeg could not scale train.jpg")
        for index in 1...20 {
            try FileManager.default.copyItem(atPath: small, toPath: library.appendingPathComponent("IMG_\(1000 + index).jpg").path)
        }
        for index in 1...40 {
            try Data(repeating: UInt8(index), count: 5_000).write(to: library.appendingPathComponent("IMG_\(9000 + index).jpg"))
        }
        let linkRate = 50_000.0
        let outcome = try ScriptedPtyTerminal.run(
            [binary, "--graphics", "sixels", library.path], mode: .slowLink, term: "xterm-256color",
            type: "\u{1B}[6~\u{1B}[6~", linkRate: linkRate, typeAfterSixels: 4, answer: "IMG_9011",
            environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config", "XDG_CACHE_HOME": home.path + "/cache",
                          "COLORTERM": "truecolor"],
            in: root)
        let tail = outcome.outputTail.suffix(600).debugDescription
        XCTAssertTrue(outcome.exited, "livegrid did not quit on `q`: \(tail)")
        XCTAssertEqual(outcome.status, 0, tail)
        let deliveries = try XCTUnwrap(outcome.sixelDeliveries, tail)
        let typedAt = try XCTUnwrap(outcome.typedAt, "the keys were never typed: \(deliveries.count) sixels came")
        let picture = try XCTUnwrap(deliveries.map(\.bytes).max(), "no sixel picture was drawn: \(tail)")
        // What reached the terminal after the keys: pictures of the screens left (the one shown has none).
        let late = deliveries.filter { $0.delivered > typedAt }
        let lateBytes = late.reduce(0) { $0 + $1.bytes }
        let report = "\(late.count) pictures (\(lateBytes) B) reached the terminal after the keys; sixels "
            + deliveries.map { String(format: "written %+.2f delivered %+.2f", $0.written - typedAt, $0.delivered - typedAt) }
                .joined(separator: ", ")
        // The one being written when the keys came, and at most one more the link's rate was misjudged by.
        XCTAssertLessThanOrEqual(lateBytes, 2 * picture, report)
        // The new screen's status bar: behind at most those pictures, not the whole first screen.
        let answered = try XCTUnwrap(outcome.answerDelivered, "the keys never moved the screen to IMG_9011: \(tail)")
        XCTAssertLessThanOrEqual(answered - typedAt, 2 * Double(picture) / linkRate + 0.5,
                                 "the keys' screen reached the terminal late; " + report)
    }
}
