import Foundation
import TestSupport
import XCTest

/// Issue 31.7.2: a cut JPEG, a JPEG with a corrupt marker in its picture data and a truncated HEIC get the same
/// verdict, "damaged", in the browser's grid (symbols, kitty and sixel), in `show`, in `thumbnail` and (where the
/// headers tell) in `scan`. A cut portrait JPEG too: its picture fills its cell's box, where a pixel picture
/// covered the mark (seen in xterm -ti vt340 under Xvfb).
final class DamagedVerdictEndToEndTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("livegrid-damaged-verdict")
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    private func makeLibrary() throws -> URL {
        let ffmpeg = try MissingRequirement.path(of: "ffmpeg", for: "cannot make the damaged files")
        let heifEnc = try MissingRequirement.path(of: "heif-enc", for: "cannot make the truncated HEIC")
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let whole = root.appendingPathComponent("whole.jpg")
        let made = try ExternalTool.runProgram(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x480",
                                                        "-frames:v", "1", whole.path])
        XCTAssertEqual(made.status, 0, made.err)
        let jpeg = [UInt8](try Data(contentsOf: whole))
        try Data(jpeg.prefix(jpeg.count * 60 / 100)).write(to: library.appendingPathComponent("a-cut.jpg"))
        // A reserved marker (FF C8) half-way through the entropy-coded data.
        let sos = try XCTUnwrap((0..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        var marker = jpeg
        let middle = sos + (jpeg.count - sos) / 2
        marker[middle] = 0xFF
        marker[middle + 1] = 0xC8
        try Data(marker).write(to: library.appendingPathComponent("b-marker.jpg"))
        let heic = root.appendingPathComponent("whole.heic")
        let encoded = try ExternalTool.runProgram(heifEnc, ["-q", "50", whole.path, "-o", heic.path])
        XCTAssertEqual(encoded.status, 0, encoded.err)
        let heicBytes = try Data(contentsOf: heic)
        try heicBytes.prefix(heicBytes.count * 60 / 100).write(to: library.appendingPathComponent("c-cut.heic"))
        try Data(jpeg).write(to: library.appendingPathComponent("d-whole.jpg"))
        let tall = root.appendingPathComponent("tall.jpg")
        let madeTall = try ExternalTool.runProgram(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=480x640",
                                                            "-frames:v", "1", tall.path])
        XCTAssertEqual(madeTall.status, 0, madeTall.err)
        let tallBytes = try Data(contentsOf: tall)
        try tallBytes.prefix(tallBytes.count * 60 / 100).write(to: library.appendingPathComponent("e-tall-cut.jpg"))
        return library
    }

    func testEveryPathCallsTheThreeFilesDamaged() throws {
        let library = try makeLibrary()
        let damaged = ["a-cut.jpg", "b-marker.jpg", "c-cut.heic", "e-tall-cut.jpg"]
        let cache = ["XDG_CACHE_HOME": root.appendingPathComponent("cache").path]
        for name in damaged + ["d-whole.jpg"] {
            let path = library.appendingPathComponent(name).path
            let shown = try LivegridCommand.run(["show", "--size", "20x6", "--format", "symbols", "--no-cache", path], environment: cache)
            let thumbnail = try LivegridCommand.run(["thumbnail", path, "--force", "-o", root.appendingPathComponent("t.png").path],
                                                    environment: cache)
            for (verb, result) in [("show", shown), ("thumbnail", thumbnail)] {
                if damaged.contains(name) {
                    XCTAssertTrue(result.err.contains("livegrid: \(path): damaged "), "\(verb) \(name) says damaged: \(result.err)")
                } else {
                    XCTAssertEqual(result.err, "", "\(verb) \(name): no complaint")
                    XCTAssertEqual(result.status, 0)
                }
            }
        }
        let scan = try LivegridCommand.run(["scan", library.path], environment: cache)
        XCTAssertEqual(scan.status, 0, scan.err)
        // scan reads headers and the file's end, not the picture data: a corrupt marker inside it is only found by
        // decoding, so b-marker.jpg is marked damaged by every path that decodes (the grid, show, thumbnail).
        for name in ["a-cut.jpg", "c-cut.heic", "e-tall-cut.jpg"] {
            XCTAssertTrue(scan.out.contains("! \(name): damaged "), "scan warns about \(name):\n\(scan.out)")
        }
        XCTAssertFalse(scan.out.contains("d-whole.jpg: damaged"), scan.out)
        // `scan --check` decodes as the other paths do, so it calls the same four files damaged, in their words.
        let checked = try LivegridCommand.run(["scan", "--check", library.path], environment: cache)
        XCTAssertEqual(checked.status, 0, checked.err)
        for name in damaged {
            XCTAssertEqual(checked.out.components(separatedBy: "! \(name): damaged ").count - 1, 1,
                           "scan --check calls \(name) damaged once:\n\(checked.out)")
        }
        XCTAssertFalse(checked.out.contains("d-whole.jpg: "), checked.out)

        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        // Symbol cells draw the mark over the picture; kitty's pixels would cover it, so it goes under the picture.
        // Sixel: below, with the sixels read from the pane's output (Debian's tmux 3.3a shows none).
        for mode in ["symbols", "kitty"] {
            let home = root.appendingPathComponent("home-\(mode)")
            let command = "env XDG_CONFIG_HOME='\(home.path)/config' XDG_CACHE_HOME='\(home.path)/cache' TERM=tmux-256color "
                + "'\(binary)' --graphics \(mode) '\(library.path)'"
            let session = try TmuxSession(command: command, columns: 120, rows: 40)
            let grid = try session.waitFor("four damaged marks in \(mode) mode", timeout: 40) { screen in
                screen.joined(separator: "\n").components(separatedBy: "! damaged").count - 1 >= damaged.count
            }
            let cells = ScreenGrid(lines: grid, names: damaged + ["d-whole.jpg"])
            for name in damaged {
                let cell = try XCTUnwrap(cells.cell(name), "\(name) in the grid:\n" + grid.joined(separator: "\n"))
                XCTAssertNotNil(cells.find("! damaged", in: cell), "\(mode): \(name) carries the damaged mark:\n" + grid.joined(separator: "\n"))
            }
            let whole = try XCTUnwrap(cells.cell("d-whole.jpg"))
            XCTAssertNil(cells.find("damaged", in: whole), "\(mode): the intact JPEG carries no mark")
            try session.send("q")
        }
    }

    /// The sixel grid: the browser in tmux as in xterm (`--graphics sixel`, TERM=xterm-256color, TMUX unset), its
    /// output recorded with pipe-pane. tmux keeps the text (the marks) and drops the sixels, which the recording
    /// keeps: the marks are on the damaged cells, and the portrait picture's sixel ends above its mark's row.
    func testTheSixelGridMarksTheDamagedFilesWhereThePictureLeavesTheMarkVisible() throws {
        let library = try makeLibrary()
        let damaged = ["a-cut.jpg", "b-marker.jpg", "c-cut.heic", "e-tall-cut.jpg"]
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let home = root.appendingPathComponent("home-sixel"), recording = root.appendingPathComponent("tty.bin")
        let ready = root.appendingPathComponent("recording")
        let browser = "env -u TMUX XDG_CONFIG_HOME='\(home.path)/config' XDG_CACHE_HOME='\(home.path)/cache' TERM=xterm-256color "
            + "'\(binary)' --graphics sixel --no-motion '\(library.path)'"
        // The browser starts once the recording runs (its first pictures must be in it).
        let session = try TmuxSession(command: "sh -c \"while [ ! -e '\(ready.path)' ]; do sleep 0.05; done; exec \(browser)\"",
                                      columns: 120, rows: 40)
        _ = try session.run(["pipe-pane", "-O", "-t", session.name, "cat > '\(recording.path)'"], capture: false)
        try Data().write(to: ready)
        let grid = try session.waitFor("four damaged marks in sixel mode", timeout: 40) { screen in
            screen.joined(separator: "\n").components(separatedBy: "! damaged").count - 1 >= damaged.count
                && screen.contains { $0.contains("sixels") }
        }
        let cells = ScreenGrid(lines: grid, names: damaged + ["d-whole.jpg"])
        for name in damaged {
            let cell = try XCTUnwrap(cells.cell(name), "\(name) in the grid:\n" + grid.joined(separator: "\n"))
            XCTAssertNotNil(cells.find("! damaged", in: cell), "sixel: \(name) carries the damaged mark:\n" + grid.joined(separator: "\n"))
        }
        let whole = try XCTUnwrap(cells.cell("d-whole.jpg"))
        XCTAssertNil(cells.find("damaged", in: whole), "sixel: the intact JPEG carries no mark")

        // The portrait picture: the last sixel taller than wide is its picture as shown now; its rows end above the
        // mark's row (a pixel picture covers text drawn under it).
        let status = grid.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
        let cellHeight = try XCTUnwrap(status.range(of: #"\d+x(\d+) px cells"#, options: .regularExpression)
            .flatMap { Int(status[$0].split(separator: "x")[1].prefix { $0.isNumber }) }, "the cell size in the status bar: \(status)")
        let tallCell = try XCTUnwrap(cells.cell("e-tall-cut.jpg"))
        let markRow = try XCTUnwrap(cells.find("! damaged", in: tallCell)?.row)
        var tall: SixelImage?
        let deadline = Date().addingTimeInterval(30)
        repeat {
            let bodies = SixelImage.bodies(in: (try? Data(contentsOf: recording)).map { [UInt8]($0) } ?? [])   // try?: not written yet
            tall = bodies.compactMap(SixelImage.init).last { $0.height > $0.width }
            if let tall, tall.height <= markRow * cellHeight { break }
            Thread.sleep(forTimeInterval: 0.2)
        } while Date() < deadline
        let picture = try XCTUnwrap(tall, "a portrait sixel in the recording")
        XCTAssertLessThanOrEqual(picture.height, markRow * cellHeight,
                                 "the portrait sixel (\(picture.height) px from the cell's top) ends above its mark, on row \(markRow) of "
                                 + "\(cellHeight) px rows")
        try session.send("q")
    }
}
