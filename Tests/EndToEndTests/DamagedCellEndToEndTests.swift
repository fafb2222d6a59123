import Foundation
import TestSupport
import XCTest

/// Issue 15.5/15.6 in the browser: a cut JPEG's cell shows its picture with a "! damaged" mark, a text file
/// named .jpg says "! not a picture", and the info panel gives the sentence and the library's detail.
final class DamagedCellEndToEndTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        try TmuxSession.requireTmux()
        root = try Fixtures.makeTemporaryDirectory("livegrid-damaged-cells")
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    func testDamagedAndNonPictureCellsAreMarkedAndTheInfoPanelSaysWhy() throws {
        let binary = try MissingRequirement.livegridBinary()
        let ffmpeg = try MissingRequirement.path(of: "ffmpeg", for: "cannot make the damaged JPEG")
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let whole = root.appendingPathComponent("whole.jpg")
        let made = try ExternalTool.runProgram(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x480",
                                                        "-frames:v", "1", whole.path])
        XCTAssertEqual(made.status, 0, made.err)
        let jpeg = try Data(contentsOf: whole)
        try jpeg.prefix(jpeg.count * 60 / 100).write(to: library.appendingPathComponent("a-cut.jpg"))
        try Data("Dear diary,\nthe photos are elsewhere.\n".utf8).write(to: library.appendingPathComponent("b-notes.jpg"))
        try jpeg.write(to: library.appendingPathComponent("c-whole.jpg"))

        let home = root.appendingPathComponent("home")
        let command = "env XDG_CONFIG_HOME='\(home.path)/config' XDG_CACHE_HOME='\(home.path)/cache' TERM=tmux-256color '\(binary)' '\(library.path)'"
        let session = try TmuxSession(command: command, columns: 120, rows: 40)
        try session.waitFor("the damaged mark and the not-a-picture placeholder", timeout: 30) { screen in
            let text = screen.joined(separator: "\n")
            return text.contains("! damaged") && text.contains("! not a picture")
        }
        let grid = try session.screen()
        let cells = ScreenGrid(lines: grid, names: ["a-cut.jpg", "b-notes.jpg", "c-whole.jpg"])
        let cut = try XCTUnwrap(cells.cell("a-cut.jpg"), grid.joined(separator: "\n"))
        XCTAssertNotNil(cells.find("! damaged", in: cut), "the mark sits on the cut JPEG's picture:\n" + grid.joined(separator: "\n"))
        let whole2 = try XCTUnwrap(cells.cell("c-whole.jpg"))
        XCTAssertNil(cells.find("damaged", in: whole2), "the intact JPEG carries no mark")

        try session.send("i")
        let panel = try session.waitFor("the info panel explaining the damage", timeout: 30) { screen in
            screen.joined(separator: "\n").contains("damaged JPEG: the file")
        }
        let text = panel.joined(separator: "\n")
        XCTAssertTrue(text.contains("Detail"), "the library's words are in the panel:\n" + text)
        XCTAssertTrue(text.contains("Premature end"), "libjpeg-turbo's message:\n" + text)
        try session.send("q")
    }
}
