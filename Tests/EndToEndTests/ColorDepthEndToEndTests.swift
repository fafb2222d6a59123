import Foundation
import Imaging
import TestSupport
import XCTest

/// Issue 14.1 as a user over SSH sees it: TERM=xterm and nothing else. The browser draws 256 colours and says
/// why in the status bar; with 8 colours forced and 40+ pictures on screen, a white photo stays white.
final class ColorDepthEndToEndTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        try TmuxSession.requireTmux()
        root = try Fixtures.makeTemporaryDirectory("livegrid-colors")
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    private func browse(_ library: URL, term: String, extra: String = "", config: String? = nil) throws -> TmuxSession {
        let binary = try MissingRequirement.livegridBinary()
        let home = root.appendingPathComponent("home")
        if let config {
            let dir = home.appendingPathComponent("config/livegrid")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try config.write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        }
        // COLORTERM and friends from the test runner's terminal must not leak in: only TERM, like over SSH.
        let command = "env -u COLORTERM -u TERM_PROGRAM -u VTE_VERSION -u LIVEGRID_GRAPHICS "
            + "XDG_CONFIG_HOME='\(home.path)/config' XDG_CACHE_HOME='\(home.path)/cache' TERM=\(term) "
            + "'\(binary)' \(extra) '\(library.path)'"
        return try TmuxSession(command: command, columns: 160, rows: 50)
    }

    /// PNG pictures: `count` colourful ones and a pure white one between them, so the white one is drawn
    /// while the frame's colour pairs are being handed out.
    private func makeLibrary(count: Int) throws -> URL {
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        var random = SplitMix64(seed: 14)
        for index in 0..<count {
            // Random colour fields: every 8-colour combination shows up across the pictures.
            var frame = PixelFrame(width: 64, height: 48)
            for block in 0..<(16 * 12) {
                let colour = [UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()),
                              UInt8(truncatingIfNeeded: random.next())]
                let bx = (block % 16) * 4, by = (block / 16) * 4
                for y in by..<(by + 4) {
                    for x in bx..<(bx + 4) {
                        let i = (y * 64 + x) * 4
                        frame.rgba[i] = colour[0]; frame.rgba[i + 1] = colour[1]; frame.rgba[i + 2] = colour[2]
                    }
                }
            }
            try Data(PNGCodec.encode(frame)).write(to: library.appendingPathComponent(String(format: "p%02d.png", index)))
        }
        let white = PixelFrame(width: 64, height: 48, fill: (255, 255, 255, 255))
        try Data(PNGCodec.encode(white)).write(to: library.appendingPathComponent("p20w.png"))
        return library
    }

    func testTermXtermShowsTwoHundredFiftySixColoursAndSaysWhy() throws {
        let library = try makeLibrary(count: 6)
        let session = try browse(library, term: "xterm")
        try session.waitFor("the status bar names the colour decision", timeout: 30) { lines in
            lines.last?.contains("256 colours (TERM=xterm: xterm-compatible)") == true
        }
        try waitForPictures(session, count: 7)
        let styled = try session.run(["capture-pane", "-p", "-e", "-t", session.name])
        let cells = SGRScreen(capture: styled).cells.joined()
        let beyondSixteen = cells.filter { ($0.foreground ?? 0) >= 16 || ($0.background ?? 0) >= 16 }
        XCTAssertGreaterThan(beyondSixteen.count, 100, "256-colour cells (38;5;N / 48;5;N with N >= 16)")
    }

    /// Over SSH from tmux or screen, TERM=xterm while the keys come in tmux's spelling: Home and End arrive as
    /// ESC [ 1 ~ and ESC [ 4 ~, which xterm's terminfo entry does not list. They move to the first and last
    /// item, and an escape sequence nobody knows is dropped: its "[" never asks to rotate the photo, and its digits
    /// never rate it.
    func testHomeAndEndInTmuxSpellingWorkUnderTermXterm() throws {
        let library = try makeLibrary(count: 6)
        let session = try browse(library, term: "xterm")
        try session.waitFor("the first item is selected", timeout: 30) { lines in
            lines.last?.contains("1/7 p00.png") == true
        }
        try session.run(["send-keys", "-t", session.name, "-l", "\u{1B}[4~"], capture: false)
        try session.waitFor("End selects the last item", timeout: 30) { lines in
            lines.last?.contains("7/7 p20w.png") == true
        }
        try session.run(["send-keys", "-t", session.name, "-l", "\u{1B}[1~"], capture: false)
        try session.waitFor("Home selects the first item", timeout: 30) { lines in
            lines.last?.contains("1/7 p00.png") == true
        }
        try session.run(["send-keys", "-t", session.name, "-l", "\u{1B}[99;5~"], capture: false)
        try session.send("Right")
        try session.waitFor("the next key after an unknown sequence is read as itself", timeout: 30) { lines in
            lines.last?.contains("2/7 p01.png") == true
        }
        XCTAssertFalse(try session.screen().joined(separator: "\n").contains("Rotate"), "no rotate prompt")
        // Read as keys, ESC [ 4 ~ also gave "4": a 4-star rating written to a sidecar beside the photo.
        let sidecars = try FileManager.default.contentsOfDirectory(atPath: library.path).filter { $0.hasSuffix(".xmp") }
        XCTAssertEqual(sidecars, [], "no rating was written")
    }

    /// The config's `graphics.colors` overrides the decision, in the browser and in `show`, and both say so.
    func testConfigColorsOverrideTheDecision() throws {
        let library = try makeLibrary(count: 2)
        let session = try browse(library, term: "xterm", config: "[graphics]\ncolors = \"16\"\n")
        try session.waitFor("the status bar names the config", timeout: 30) { lines in
            lines.last?.contains("16 colours (set by config graphics.colors)") == true
        }
        let config = root.appendingPathComponent("home/config").path
        let show = try LivegridCommand.run(["show", "--why", "--size", "10x4", "--format", "symbols",
                                            library.appendingPathComponent("p00.png").path],
                                           environment: ["XDG_CONFIG_HOME": config, "TERM": "xterm", "COLORTERM": ""])
        XCTAssertEqual(show.status, 0, show.err)
        XCTAssertTrue(show.err.contains("colours: 16 colours (set by config graphics.colors)"), show.err)
        XCTAssertFalse(show.out.contains("38;5;"), "no 256-colour SGR with 16 colours")
        let flag = try LivegridCommand.run(["show", "--why", "--colors", "256", "--size", "10x4", "--format", "symbols",
                                            library.appendingPathComponent("p00.png").path],
                                           environment: ["XDG_CONFIG_HOME": config, "TERM": "xterm"])
        XCTAssertTrue(flag.err.contains("colours: 256 colours (set by --colors 256)"), "the flag wins: \(flag.err)")
        XCTAssertTrue(flag.out.contains("38;5;"), "256-colour SGR")
    }

    /// The pair bug: 8 colours on TERM=xterm (64 pairs), 45 pictures on screen: the white picture must be white
    /// (colour 7, or 15) in every one of its cells, not red.
    func testEightColoursWithFortyFivePicturesKeepTheWhitePictureWhite() throws {
        try checkWhitePictureStaysWhite(colors: 8)
    }

    /// 16 colours on TERM=xterm start curses on xterm-16color (256 pairs, fewer than 16x16 + the interface's).
    func testSixteenColoursWithFortyFivePicturesKeepTheWhitePictureWhite() throws {
        try checkWhitePictureStaysWhite(colors: 16)
    }

    private func checkWhitePictureStaysWhite(colors: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let library = try makeLibrary(count: 44)
        let session = try browse(library, term: "xterm", extra: "--colors \(colors)", config: "[grid]\nzoom = 0\n")
        try session.waitFor("the status bar names the forced depth", timeout: 30) { lines in
            lines.last?.contains("\(colors) colours (set by --colors \(colors))") == true
        }
        try waitForPictures(session, count: 45)
        // Move the selection over every row (each move repaints the frame) and check after each.
        for step in 0..<4 {
            let styled = try session.run(["capture-pane", "-p", "-e", "-t", session.name])
            let screen = SGRScreen(capture: styled)
            let names = (0..<44).map { String(format: "p%02d.png", $0) } + ["p20w.png"]
            let grid = ScreenGrid(lines: try session.screen(), names: names)
            guard let white = grid.cell("p20w.png") else {
                return XCTFail("the white picture is not on screen:\n" + (try session.screen()).joined(separator: "\n"),
                               file: file, line: line)
            }
            var checked = 0
            for row in white.pictureTop..<white.captionRow {
                for column in white.x..<(white.x + white.width) {
                    guard let cell = screen.cell(row: row, column: column), cell.background != nil else { continue }
                    checked += 1
                    XCTAssertTrue([7, 15].contains(cell.background ?? -1),
                                  "step \(step): cell (\(column), \(row)) of the white picture: \(cell)", file: file, line: line)
                    if cell.character != " " {
                        XCTAssertTrue([7, 15].contains(cell.foreground ?? -1),
                                      "step \(step): cell (\(column), \(row)) of the white picture: \(cell)", file: file, line: line)
                    }
                }
            }
            XCTAssertGreaterThan(checked, 10, "the white picture has coloured cells", file: file, line: line)
            // Every picture uses the palette's colours only.
            let outOfPalette = screen.cells.joined().filter {
                ($0.foreground ?? 0) >= colors || ($0.background ?? 0) >= colors
            }
            XCTAssertEqual(outOfPalette.count, 0, "\(colors) colours only: \(outOfPalette.prefix(3))", file: file, line: line)
            try session.send("j")
        }
    }

    /// Waits until `count` captions are on screen and no placeholder (" png " in the middle) is left.
    private func waitForPictures(_ session: TmuxSession, count: Int) throws {
        try session.waitFor("\(count) pictures drawn", timeout: 60) { lines in
            let captions = lines.filter { $0.contains(".png") }.map { $0.components(separatedBy: ".png").count - 1 }
                .reduce(0, +)
            return captions >= count && !lines.joined().contains(" png ")
        }
        // The captions can come before the last pictures' colours: wait until the drawing stops.
        try session.waitForStableScreen()
    }
}

/// A `capture-pane -e` screen decoded into cells with their colours (SGR 0, 7, 30-37, 39, 40-47, 49, 90-97,
/// 100-107, 38;5;N, 48;5;N, 38;2;R;G;B). Reverse video is applied, so a cell holds what the eye sees.
struct SGRScreen {
    struct Cell: CustomStringConvertible {
        var character: Character
        var foreground: Int?
        var background: Int?
        var description: String { "'\(character)' fg \(foreground.map(String.init) ?? "default") bg \(background.map(String.init) ?? "default")" }
    }

    var cells: [[Cell]] = []

    init(capture: String) {
        for line in capture.components(separatedBy: "\n") {
            var row: [Cell] = []
            var fg: Int?, bg: Int?, reverse = false
            var scalars = Array(line.unicodeScalars)[...]
            while let scalar = scalars.first {
                scalars = scalars.dropFirst()
                if scalar == "\u{1B}", scalars.first == "[" {
                    scalars = scalars.dropFirst()
                    var parameters = ""
                    while let next = scalars.first, !("@"..."~").contains(next) {
                        parameters.unicodeScalars.append(next)
                        scalars = scalars.dropFirst()
                    }
                    let final = scalars.first
                    scalars = scalars.dropFirst()
                    guard final == "m" else { continue }
                    var numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
                    if numbers.isEmpty { numbers = [0] }
                    while let n = numbers.popFirst() {
                        switch n {
                        case 0: fg = nil; bg = nil; reverse = false
                        case 7: reverse = true
                        case 27: reverse = false
                        case 30...37: fg = n - 30
                        case 39: fg = nil
                        case 40...47: bg = n - 40
                        case 49: bg = nil
                        case 90...97: fg = n - 90 + 8
                        case 100...107: bg = n - 100 + 8
                        case 38, 48:
                            let mode = numbers.popFirst()
                            var value: Int?
                            if mode == 5 { value = numbers.popFirst() }
                            if mode == 2 {
                                let r = numbers.popFirst() ?? 0, g = numbers.popFirst() ?? 0, b = numbers.popFirst() ?? 0
                                value = 0x1000000 | r << 16 | g << 8 | b
                            }
                            if n == 38 { fg = value } else { bg = value }
                        default: break
                        }
                    }
                    continue
                }
                row.append(Cell(character: Character(scalar), foreground: reverse ? bg : fg,
                                background: reverse ? fg : bg))
            }
            cells.append(row)
        }
    }

    func cell(row: Int, column: Int) -> Cell? {
        guard cells.indices.contains(row), cells[row].indices.contains(column) else { return nil }
        return cells[row][column]
    }
}
