import Foundation
import TestSupport
import XCTest

/// The viewer's key-photo mode in a real terminal (tmux, issue 20): `K` on the train Live Photo shows its
/// movie's frames, left/right step them with the frame time in the status bar, Enter writes a new Live Photo
/// beside the original; `livegrid scan --json` then lists a new live item whose still-image time is within
/// one frame of the chosen frame's, and the originals are byte-identical.
final class KeyPhotoEndToEndTests: XCTestCase {
    private var root: URL!

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    func testChoosingAFrameWritesANewLivePhotoWithThatStillImageTime() throws {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        root = try Fixtures.makeTemporaryDirectory("livegrid-key-photo")
        let library = root.appendingPathComponent("library"), home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        // Copies (not links) of the committed pair: the test checks they are left byte for byte as they were.
        for name in ["train.jpg", "train.mov"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: library.appendingPathComponent(name).path)
        }
        let originals = try ["train.jpg", "train.mov"].map { try Data(contentsOf: library.appendingPathComponent($0)) }
        let before = try liveItems(binary, library)
        guard before.count == 1, let original = before.first, let duration = original["duration"] as? Double,
              let frameCount = original["frameCount"] as? Int, frameCount > 1 else {
            throw MissingRequirement.Failure(description: "train.jpg + train.mov should scan as one live item: \(before)")
        }
        let frameDuration = duration / Double(frameCount)

        let environment = "env XDG_CONFIG_HOME='\(home.path)/config' XDG_CACHE_HOME='\(home.path)/cache' TERM=tmux-256color"
        let session = try TmuxSession(command: "\(environment) '\(binary)' --no-motion '\(library.path)'", columns: 120, rows: 40)
        try session.waitFor("the grid") { $0.last?.contains("1/1 train.jpg") == true }
        try session.send("Enter")
        try session.waitFor("the viewer") { $0.contains { $0.contains("K key photo") } }
        try session.send("K")
        let first = try session.waitFor("the first frame shown", timeout: 30) { Self.status($0)?.shown == true }
        let start = try XCTUnwrap(Self.status(first))
        XCTAssertTrue(first.last?.contains("(the key photo)") == true, "starts on the current key photo: \(first.last ?? "")")
        XCTAssertTrue(first.contains { $0.contains("choosing the key photo") }, "the caption names the mode")
        // The frame's symbol cells reach the terminal in a write of their own, after curses' update has put
        // "· shown" in the status bar (DirectCellOutput): a capture can fall between the two. The start
        // picture is taken once the screen stops changing, so that it is the start frame's.
        try session.waitForStableScreen()
        let startPicture = Self.picture(try session.screen())

        // Three frames back (the still-image time of train.mov is near its middle, so they exist). "Shown" can
        // again come a write before the frame's cells: the wait is for both (a picture that never changes
        // fails it, after the timeout, with the screen).
        for _ in 0..<3 { try session.send("Left") }
        let stepped = try session.waitFor("three frames back, shown, the picture area showing the other frame", timeout: 30) {
            guard let status = Self.status($0) else { return false }
            return status.shown && status.frame == start.frame - 3 && Self.picture($0) != startPicture
        }
        let chosen = try XCTUnwrap(Self.status(stepped))
        XCTAssertEqual(chosen.count, frameCount, "every frame of the movie can be stepped to")
        XCTAssertLessThan(chosen.time, start.time)

        try session.send("Enter")
        let written = try session.waitFor("the new Live Photo written", timeout: 30) {
            $0.last?.contains("wrote a new Live Photo") == true
        }
        XCTAssertTrue(written.last?.contains("train-edit.JPG + train-edit.MOV") == true, written.last ?? "")
        // The rescan that follows lists it in the browser too.
        try session.waitFor("the rescan listing the new item", timeout: 30) { $0.first?.contains("2 items · 2 live") == true }

        let after = try liveItems(binary, library)
        XCTAssertEqual(after.count, 2, "\(after)")
        let edited = try XCTUnwrap(after.first { ($0["name"] as? String) == "train-edit.JPG" }, "\(after)")
        XCTAssertEqual(edited["kind"] as? String, "live")
        XCTAssertEqual(edited["identifier"] as? String, original["identifier"] as? String)
        let stillTime = try XCTUnwrap(edited["stillImageTime"] as? Double)
        XCTAssertEqual(stillTime, chosen.time, accuracy: frameDuration,
                       "the new still-image time lies within one frame (\(frameDuration) s) of the chosen frame")
        XCTAssertEqual(try ["train.jpg", "train.mov"].map { try Data(contentsOf: library.appendingPathComponent($0)) }, originals,
                       "the originals are byte-identical")
    }

    /// The export dialog's effects: `e` twice on the train Live Photo previews a loop (the preview area plays)
    /// with nothing in the destination; Enter and a folder then write train-loop.mp4 there.
    func testTheExportDialogPreviewsALoopBeforeWritingIt() throws {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        root = try Fixtures.makeTemporaryDirectory("livegrid-effect-dialog")
        let library = root.appendingPathComponent("library"), home = root.appendingPathComponent("home")
        let destination = root.appendingPathComponent("out")
        for folder in [library, home, destination] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        for name in ["train.jpg", "train.mov"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: library.appendingPathComponent(name).path)
        }
        let originals = try ["train.jpg", "train.mov"].map { try Data(contentsOf: library.appendingPathComponent($0)) }
        let environment = "env XDG_CONFIG_HOME='\(home.path)/config' XDG_CACHE_HOME='\(home.path)/cache' TERM=tmux-256color"
        let session = try TmuxSession(command: "\(environment) '\(binary)' --no-motion '\(library.path)'", columns: 160, rows: 40)
        try session.waitFor("the grid") { $0.last?.contains("1/1 train.jpg") == true }
        try session.send("e")
        try session.waitFor("the export dialog") { $0.contains { $0.contains("Export 1 item") } }
        try session.send("e")
        try session.waitFor("the loop chosen") { screen in
            screen.contains { $0.contains("Loop (effect)") } && screen.contains { $0.contains("Preview: Loop") }
        }
        let playing = try session.waitFor("the loop preview", timeout: 60) { $0.last?.contains("previewing loop") == true }
        // The preview plays: its area changes over time.
        var changed = false
        let deadline = Date().addingTimeInterval(10)
        while !changed, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            changed = Self.previewArea(try session.screen()) != Self.previewArea(playing)
        }
        XCTAssertTrue(changed, "the loop preview never changed")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: destination.path), [], "nothing is written before Enter")

        try session.send("Enter")
        try session.waitFor("the destination prompt") { $0.last?.contains("Export to:") == true }
        try session.send("C-u")
        try session.run(["send-keys", "-t", session.name, "-l", destination.path], capture: false)
        try session.send("Enter")
        let done = try session.waitFor("the loop written", timeout: 60) { $0.last?.contains("Exported") == true }
        XCTAssertTrue(done.last?.contains("train-loop.mp4") == true, done.last ?? "")
        let written = destination.appendingPathComponent("train-loop.mp4").path
        let size = (try FileManager.default.attributesOfItem(atPath: written)[.size] as? Int) ?? 0
        XCTAssertGreaterThan(size, 10_000, "train-loop.mp4 holds a movie")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: destination.path), ["train-loop.mp4"], "no temporaries left")
        XCTAssertEqual(try ["train.jpg", "train.mov"].map { try Data(contentsOf: library.appendingPathComponent($0)) }, originals)
    }

    /// The right part of the dialog, where the preview is drawn.
    private static func previewArea(_ screen: [String]) -> [String] {
        screen.dropFirst(2).prefix(30).map { String($0.suffix(60)) }
    }

    /// Live items of `livegrid scan --json`.
    private func liveItems(_ binary: String, _ library: URL) throws -> [[String: Any]] {
        let json = try ToolRunner.run(binary, ["scan", "--json", library.path]).output
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let items = object["items"] as? [[String: Any]] else {
            throw MissingRequirement.Failure(description: "scan --json gave no items: \(json.prefix(300))")
        }
        return items.filter { ($0["kind"] as? String) == "live" }
    }

    /// "frame 8/22  0.467 s ... · shown" from the status bar.
    private static func status(_ screen: [String]) -> (frame: Int, count: Int, time: Double, shown: Bool)? {
        guard let line = screen.last, let range = line.range(of: "frame ") else { return nil }
        let words = line[range.upperBound...].split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 2 else { return nil }
        let parts = words[0].split(separator: "/")
        guard parts.count == 2, let frame = Int(parts[0]), let count = Int(parts[1]), let time = Double(words[1]) else { return nil }
        return (frame, count, time, line.contains("· shown"))
    }

    /// The picture area: every row between the header and the caption.
    private static func picture(_ screen: [String]) -> [String] { Array(screen.dropFirst().dropLast(2)) }
}
