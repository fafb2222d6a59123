import Foundation
import TestSupport
import XCTest

/// Issue 32.6 in the real browser (tmux): a rating typed in the grid changes only the rating's digit of a
/// Latin-1 sidecar ("Café Zürich" came back with U+FFFD), and a sidecar that is a symbolic link is written
/// where it points and stays a link. SidecarBytesTests holds the store to the same at the unit level.
final class SidecarRatingEndToEndTests: XCTestCase {
    private func bytes(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }

    func testARatingInTheBrowserKeepsALatin1SidecarByteForByteAndWritesThroughALink() throws {
        let fixture = try BrowserFixture.make()
        defer { fixture.remove() }
        let library = fixture.directory.path
        let latin1 = library + "/train.jpg.xmp"
        try Data(SidecarSamples.latin1(rating: 2)).write(to: URL(fileURLWithPath: latin1))
        let elsewhere = fixture.home.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let target = elsewhere + "/shared.xmp"
        try Data(SidecarSamples.latin1(rating: 1)).write(to: URL(fileURLWithPath: target))
        let link = library + "/motion-photo-v1.jpeg.xmp"
        XCTAssertEqual(symlink(target, link), 0)

        let session = try TmuxSession(command: fixture.command())
        let count = fixture.names.count
        try session.waitFor("the grid with \(count) items") { $0.first?.contains("\(count) items") == true }
        for (name, rating) in [("train", 5), ("motion-photo", 4)] {
            try session.send("Escape", "/")
            try session.run(["send-keys", "-t", session.name, "-l", name], capture: false)
            try session.send("Enter")
            try session.waitFor("only \(name) shown") { $0.first?.contains("1 item ") == true }
            try session.send(String(rating))
            try session.waitFor("\(rating) stars on \(name)") { screen in
                screen.contains { $0.contains(name) && $0.contains(String(repeating: "★", count: rating)) }
            }
        }
        // The writes are the worker's: wait for both files to hold the new rating.
        let expected = (SidecarSamples.latin1(rating: 5), SidecarSamples.latin1(rating: 4))
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, bytes(latin1) != expected.0 || bytes(target) != expected.1 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertEqual(bytes(latin1), expected.0, "only the rating's digit changed, no U+FFFD")
        XCTAssertEqual(bytes(target), expected.1, "the link's target holds the new rating, its other bytes kept")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), target, "still a link, to the same file")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), ["shared.xmp"], "no temporary left")
        try session.send("q")
        try session.waitForExit()
    }
}
