import Foundation
import Imaging
import TestSupport
import XCTest

/// Issue 18.2: symbol pictures written straight to the terminal (CellScreenWriter beside curses) must leave
/// exactly the screen curses would have drawn: same glyphs, same colours, after the first paint, after the
/// grid scrolls (a scroll region made outside curses) and back, with the info panel over the pictures.
final class DirectCellsEndToEndTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        try TmuxSession.requireTmux()
        root = try Fixtures.makeTemporaryDirectory("livegrid-direct")
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    /// `count` distinct pictures of random colour fields.
    private func makeLibrary(count: Int, subfolderCount: Int = 0) throws -> URL {
        let library = root.appendingPathComponent("library")
        // The subfolder only when it holds photos: an empty one is a folder cell of its own now (issue 31.2).
        let subfolder = library.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: subfolderCount > 0 ? subfolder : library, withIntermediateDirectories: true)
        var random = SplitMix64(seed: 18)
        for index in 0..<count {
            let folder = index < subfolderCount ? subfolder : library
            var frame = PixelFrame(width: 64, height: 48)
            for block in 0..<(16 * 12) {
                let colour = (0..<3).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                let bx = (block % 16) * 4, by = (block / 16) * 4
                for y in by..<(by + 4) {
                    for x in bx..<(bx + 4) {
                        let i = (y * 64 + x) * 4
                        frame.rgba[i] = colour[0]; frame.rgba[i + 1] = colour[1]; frame.rgba[i + 2] = colour[2]
                    }
                }
            }
            try Data(PNGCodec.encode(frame)).write(to: folder.appendingPathComponent(String(format: "p%02d.png", index)))
        }
        return library
    }

    /// The screen as (glyph, foreground, background) per cell; a space's foreground does not show, so it is
    /// left out (the direct writer does not send it).
    private func cells(_ session: TmuxSession) throws -> [String] {
        let capture = try session.run(["capture-pane", "-p", "-e", "-t", session.name])
        return SGRScreen(capture: capture).cells.map { row in
            row.map { cell in
                let fg = cell.character == " " ? "-" : cell.foreground.map(String.init) ?? "d"
                return "\(cell.character)|\(fg)|\(cell.background.map(String.init) ?? "d")"
            }.joined(separator: " ")
        }
    }

    /// Waits until the screen stays the same for a second (every picture drawn), and returns it.
    private func settled(_ session: TmuxSession, timeout: TimeInterval = 30) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try cells(session)
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 1.0)
            let now = try cells(session)
            if now == last { return now }
            last = now
        }
        XCTFail("the screen kept changing for \(timeout) s")
        return last
    }

    private func screens(library: URL, cursesPictures: Bool, keys: [String], options: String = "") throws -> [[String]] {
        let binary = try MissingRequirement.livegridBinary()
        let home = root.appendingPathComponent("home")
        let command = "env -u COLORTERM -u TERM_PROGRAM -u VTE_VERSION -u LIVEGRID_GRAPHICS "
            + (cursesPictures ? "LIVEGRID_CURSES_PICTURES=1 " : "")
            + "XDG_CONFIG_HOME='\(home.path)/config' XDG_CACHE_HOME='\(home.path)/cache' TERM=tmux-256color "
            + "'\(binary)' --no-motion \(options) '\(library.path)'"
        let session = try TmuxSession(command: command, columns: 120, rows: 40)
        try session.waitFor("the grid", timeout: 30) { $0.contains { $0.contains(" 1/40 ") } }
        var result = [try settled(session)]
        for key in keys {
            try session.send(key)
            result.append(try settled(session))
        }
        try session.send("q")
        return result
    }

    func testDirectPicturesLeaveTheScreenCursesWouldDraw() throws {
        let library = try makeLibrary(count: 40)
        let keys = ["Down", "Down", "Down", "Down", "Up", "Up", "Up", "Up", "i", "i"]
        let direct = try screens(library: library, cursesPictures: false, keys: keys)
        let curses = try screens(library: library, cursesPictures: true, keys: keys)
        XCTAssertEqual(direct.count, curses.count)
        for (step, (a, b)) in zip(direct, curses).enumerated() {
            let differing = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            XCTAssertTrue(differing.isEmpty, "after \(step == 0 ? "the first paint" : keys[step - 1]) (step \(step)): rows \(differing) differ")
        }
        XCTAssertNotEqual(direct[0], direct[4], "the grid scrolled (the comparison covers a scroll)")
    }

    /// Issue 18 (found in a real terminal): grouping by folder inserts header rows, so the pictures of the
    /// first folder move by one row and those of the second by two. The writer scrolls by the larger part;
    /// curses used to pair a stale hash of an old text line with a new one and scroll a few rows again on its
    /// own, writing its hidden markers over a picture row the writer believed shown (holes until a repaint).
    func testRegroupingThatMovesRowsByDifferentAmountsLeavesTheScreenCursesWouldDraw() throws {
        let library = try makeLibrary(count: 40, subfolderCount: 5)
        let keys = ["t", "t", "t", "Down", "Down", "t", "Up", "t"]
        let direct = try screens(library: library, cursesPictures: false, keys: keys, options: "--recursive")
        let curses = try screens(library: library, cursesPictures: true, keys: keys, options: "--recursive")
        XCTAssertEqual(direct.count, curses.count)
        for (step, (a, b)) in zip(direct, curses).enumerated() {
            let differing = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            XCTAssertTrue(differing.isEmpty, "after \(step == 0 ? "the first paint" : keys[step - 1]) (step \(step)): rows \(differing) differ")
            let markers = a.joined().unicodeScalars.filter { (0x2800...0x28FF).contains($0.value) }.count
            XCTAssertEqual(markers, 0, "step \(step): curses' hidden picture markers are on screen")
        }
        XCTAssertNotEqual(direct[0], direct[1], "grouping by folder changed the layout")
    }
}
