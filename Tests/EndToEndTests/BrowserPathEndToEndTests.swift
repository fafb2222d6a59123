import Foundation
import MediaFormats
import TestSupport
import XCTest

/// Issue 15.3, 15.4 and 15.7 in the browser (tmux): `livegrid PHOTO.jpg` opens the photo's folder with it
/// selected, `-r` descends into folders named like files, and names that are not UTF-8 or hold escapes are
/// shown inert.
final class BrowserPathEndToEndTests: LibraryHomeTestCase {
    override class var temporaryPrefix: String { "livegrid-paths" }

    private func place(_ fixture: String, at relative: String) throws {
        let target = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.committed(fixture), toPath: target.path)
    }

    /// The browser on `arguments` (already shell-quoted), with a private config and cache.
    private func open(_ arguments: String) throws -> TmuxSession {
        let binary = try MissingRequirement.livegridBinary()
        let environment = "env XDG_CONFIG_HOME='\(home.path)/config' XDG_CACHE_HOME='\(home.path)/cache' TERM=tmux-256color"
        return try TmuxSession(command: "\(environment) '\(binary)' \(arguments)", columns: 120, rows: 40)
    }

    func testAPhotoPathOpensTheViewerAndEscShowsItsFolderWithThePhotoSelected() throws {
        for name in ["a.jpeg", "b.jpeg", "c.jpeg", "d.jpeg"] { try place("motion-photo-v1.jpeg", at: name) }
        try place("train.jpg", at: "e.jpg")
        try place("train.mov", at: "e.mov")
        try place("motion-photo-v1.jpeg", at: "f.jpeg")
        // Issue 31.3: the viewer opens on it; Esc shows its folder's grid with it selected.
        let session = try open("'\(root.path)/c.jpeg'")
        try session.waitFor("the viewer on c.jpeg, 3 of 6", timeout: 30) { screen in
            screen.first?.contains("6 items") == true
                && screen.contains { $0.contains("c.jpeg · ") && $0.contains("3/6") && $0.contains("Esc back") }
        }
        try session.send("Escape")
        try session.waitFor("c.jpeg selected in the grid, 3 of 6", timeout: 30) { screen in
            screen.contains { $0.contains(" 3/6 ") } && screen.contains { $0.contains("▸c.jpeg") }
                && !screen.contains { $0.contains("Esc back") }
        }
        // A Live Photo's movie selects its item (the still), in the viewer.
        let movie = try open("'\(root.path)/e.mov'")
        try movie.waitFor("the Live Photo of e.mov in the viewer", timeout: 30) { screen in
            screen.contains { $0.contains("e.jpg · ") && $0.contains("5/6") && $0.contains("Esc back") }
        }
    }

    func testRecursiveBrowserFindsFoldersNamedLikeFilesAndShowsOddNamesInert() throws {
        try place("train.jpg", at: "trip.jpg/IMG_1.jpg")
        try place("train.mov", at: "trip.jpg/IMG_1.mov")
        try place("motion-photo-v1.jpeg", at: "heic/m.jpeg")
        // "x\xFFy.jpeg" (not UTF-8) and "\e[2J.jpeg" (clears the screen if printed raw).
        for raw in [Array("x".utf8) + [0xFF] + Array("y.jpeg".utf8), Array("\u{1B}[2J.jpeg".utf8)] {
            let fd = PathBytes.open(root.path + "/" + PathBytes.string(from: raw), O_WRONLY | O_CREAT, 0o644)
            let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("motion-photo-v1.jpeg")))
            _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        let session = try open("-r '\(root.path)'")
        let screen = try session.waitFor("4 items from the folders named like files", timeout: 30) { screen in
            screen.first?.contains("4 items") == true && screen.contains { $0.contains("IMG_1.jpg") }
                && screen.contains { $0.contains("m.jpeg") }
        }
        XCTAssertTrue(screen.contains { $0.contains("x\u{FFFD}y.jpeg") }, screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains { $0.contains("?[2J.jpeg") }, screen.joined(separator: "\n"))
        XCTAssertTrue(screen.first?.contains("4 live") == true, "one Live Photo, three Motion Photos: \(screen[0])")
    }
}
