import Foundation
import MediaFormats
import TestSupport
import XCTest

/// Issue 31.2 and 31.3 in the browser (tmux): a local folder shows its subfolders as cells, Enter goes in,
/// Backspace comes back with the cursor on the folder left, `F` toggles `-r`, a folder of only subfolders
/// shows them, a hostile folder name is shown escaped; `livegrid PHOTO.jpg` opens the viewer and Esc shows
/// the photo's folder.
final class LocalFoldersEndToEndTests: LibraryHomeTestCase {
    override class var temporaryPrefix: String { "livegrid-folders" }

    /// A copy of the committed still at `relative` (folders made as needed).
    private func place(_ relative: String) throws {
        let target = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: target.path)
    }

    private func open(_ arguments: String) throws -> TmuxSession {
        let binary = try MissingRequirement.livegridBinary()
        let environment = "env XDG_CONFIG_HOME='\(home.path)/config' XDG_CACHE_HOME='\(home.path)/cache' TERM=tmux-256color"
        return try TmuxSession(command: "\(environment) '\(binary)' \(arguments)", columns: 120, rows: 40)
    }

    func testSubfoldersAreCellsToEnterAndLeaveAndTheToggleShowsEveryPhoto() throws {
        for name in ["a.jpg", "b.jpg", "alpha/c.jpg", "beta/d.jpg", "beta/e.jpg"] { try place(name) }
        let session = try open("'\(root.path)'")
        try session.waitFor("two folder cells and two photos") { screen in
            screen.first?.contains("2 items · 2 folders") == true
                && screen.contains { $0.contains("alpha/") } && screen.contains { $0.contains("beta/") }
                && screen.contains { $0.contains("a.jpg") }
        }
        try session.send("Right", "Enter")   // beta
        try session.waitFor("inside beta: its two photos and the breadcrumb") { screen in
            screen.first?.contains("library › beta") == true && screen.first?.contains("2 items") == true
                && screen.contains { $0.contains("d.jpg") } && screen.contains { $0.contains("e.jpg") }
                && !screen.contains { $0.contains("a.jpg") }
        }
        // On the first cell, `h` (as Left) goes up too; at the top it stops (it is also "move left").
        try session.send("h")
        try session.waitFor("h on the first cell: up, the cursor on beta") { screen in
            screen.first?.contains("2 folders") == true && screen.first?.contains("›") == false
                && screen.last?.contains("2/4 beta/ · folder") == true
        }
        try session.send("Left", "Left", "h")
        try session.waitFor("at the top, Left and h stay in the library") { screen in
            screen.first?.contains("2 folders") == true && screen.first?.contains("›") == false
                && screen.last?.contains("1/4 alpha/ · folder") == true
        }
        try session.send("Right", "Enter")
        try session.waitFor("inside beta again") { $0.first?.contains("library › beta") == true }
        try session.send("BSpace")
        try session.waitFor("back in the library with the cursor on beta") { screen in
            screen.first?.contains("2 folders") == true && screen.first?.contains("›") == false
                && screen.contains { $0.contains("▸beta/") }
                && screen.last?.contains("2/4 beta/ · folder") == true
        }
        try session.send("F")
        try session.waitFor("-r: every photo below, no folder cells") { screen in
            screen.first?.contains("5 items") == true && screen.first?.contains("library (-r)") == true
                && !screen.contains { $0.contains("alpha/") }
                && ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg"].allSatisfy { name in screen.contains { $0.contains(name) } }
        }
        try session.send("F")
        try session.waitFor("the folder's own view again") { screen in
            screen.first?.contains("2 items · 2 folders") == true && screen.contains { $0.contains("alpha/") }
        }
        try session.send("?")
        try session.waitFor("the help lists the toggle") { screen in
            screen.contains { $0.contains("All below (-r)") && $0.contains("F") }
        }
    }

    func testAFolderOfOnlySubfoldersShowsThemAndAHostileNameIsEscaped() throws {
        try place("2023/x.jpg")
        try place("2024/y.jpg")
        // A folder named ESC [ 2 J (clears the screen if printed raw).
        try FileManager.default.createDirectory(atPath: root.path + "/\u{1B}[2J", withIntermediateDirectories: false)
        let session = try open("'\(root.path)'")
        let screen = try session.waitFor("the three folders, not \"No photos\"") { screen in
            screen.first?.contains("0 items · 3 folders") == true
                && screen.contains { $0.contains("2023/") } && screen.contains { $0.contains("2024/") }
        }
        XCTAssertFalse(screen.contains { $0.contains("No photos") }, screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains { $0.contains("\\e[2J/") }, "escaped, never raw:\n" + screen.joined(separator: "\n"))
        // Into the hostile folder: the breadcrumb shows its name escaped too.
        try session.send("Enter")
        try session.waitFor("the breadcrumb with the escaped name") { screen in
            screen.first?.contains("library › \\e[2J") == true
        }
    }

    func testAPhotoPathOpensTheViewerAndEscShowsItsFolder() throws {
        for name in ["a.jpg", "b.jpg", "c.jpg", "sub/d.jpg"] { try place(name) }
        let session = try open("'\(root.path)/b.jpg'")
        try session.waitFor("the viewer on b.jpg") { screen in
            screen.contains { $0.contains("b.jpg · ") && $0.contains("Esc back") }
                && screen.last?.contains("viewer") == true
        }
        try session.send("Escape")
        try session.waitFor("its folder's grid with b.jpg selected") { screen in
            screen.contains { $0.contains("▸b.jpg") } && screen.contains { $0.contains("sub/") }
                && screen.last?.contains("grid") == true
        }
    }
}
