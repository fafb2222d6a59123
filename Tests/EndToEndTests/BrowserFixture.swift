import Foundation
import TestSupport
import XCTest

/// A small library on disk for the end-to-end tests: the committed Live Photo pair and Motion Photo, plus a
/// corrupt file, with what `livegrid scan --json` says about it (so the tests hold whatever the pairing).
struct BrowserFixture {
    let directory: URL
    let home: URL
    let binary: String
    /// Item name → kind ("live", "motion", "still", "video"), from the scanner itself.
    let kinds: [String: String]
    let names: [String]

    static func make() throws -> BrowserFixture {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let root = try Fixtures.makeTemporaryDirectory("livegrid-e2e")
        let directory = root.appendingPathComponent("library")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
            let target = directory.appendingPathComponent(name)
            do {
                try FileManager.default.linkItem(atPath: Fixtures.committed(name), toPath: target.path)
            } catch {
                try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: target.path)
            }
        }
        // A JPEG that starts right and then is garbage: must not stop the directory from opening.
        var corrupt: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45, 0x78, 0x69, 0x66]
        corrupt += (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        try Data(corrupt).write(to: directory.appendingPathComponent("broken.jpg"))

        let json = try runCapturing(binary, ["scan", "--json", directory.path])
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let items = object["items"] as? [[String: Any]] else {
            throw MissingRequirement.Failure(description: "livegrid scan --json gave no items list: \(json.prefix(300))")
        }
        var kinds: [String: String] = [:]
        var names: [String] = []
        for item in items {
            guard let name = item["name"] as? String, let kind = item["kind"] as? String else { continue }
            kinds[name] = kind
            names.append(name)
        }
        return BrowserFixture(directory: directory, home: home, binary: binary, kinds: kinds, names: names)
    }

    /// A ~170 MB Live Photo (`big-live.MOV` + `.JPG`) in the library, made by livegrid itself from generated
    /// noisy frames: copying it takes long enough for a key or a signal to land in every phase of a transfer.
    func addBigLivePhoto() throws -> (movie: String, still: String) {
        let ffmpeg = try MissingRequirement.path(of: "ffmpeg", for: "cannot make the big Live Photo")
        let work = home.appendingPathComponent("inputs").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let movie = work + "/big.mov", photo = work + "/big.jpg"
        XCTAssertEqual(try ExternalTool.runProgram(ffmpeg, [
            "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "4",
            "-vf", "noise=alls=60:allf=t+u", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0",
            "-pix_fmt", "yuv420p", "-y", movie]).status, 0)
        XCTAssertEqual(try ExternalTool.runProgram(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x480",
                                                            "-frames:v", "1", "-y", photo]).status, 0)
        let made = try ExternalTool.runProgram(binary, ["make-live", photo, movie, "-o", directory.path])
        XCTAssertEqual(made.status, 0, made.err)
        return (directory.appendingPathComponent("big-live.MOV").path, directory.appendingPathComponent("big-live.JPG").path)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    var liveNames: [String] { names.filter { kinds[$0] == "live" || kinds[$0] == "motion" } }

    /// The shell command that runs the browser with a private config and cache.
    /// With `after`, a shell runs the browser then `after`; the shell traps SIGINT (the trap resets in the
    /// browser) so Ctrl-C ends only the browser and the test can look at the terminal it left.
    func command(_ extra: String = "", after: String = "") -> String {
        let environment = "env XDG_CONFIG_HOME='\(home.path)/config' XDG_CACHE_HOME='\(home.path)/cache' "
            + "LIVEGRID_TRACE='\(tracePath)' TERM=tmux-256color"
        let run = "\(environment) '\(binary)' \(extra) '\(directory.path)'"
        return after.isEmpty ? run : "sh -c \"trap : INT; \(run); \(after)\""
    }

    /// The browser's start-up trace (`LIVEGRID_TRACE`): it logs `grid-complete` once every picture on the
    /// first screen is drawn or has failed.
    var tracePath: String { home.appendingPathComponent("trace").path }

    /// Waits until the `occurrence`-th start of the browser traced a complete grid, then until the screen stops
    /// changing (the frame with the last picture is painted right after the trace line).
    @discardableResult
    func waitForCompleteGrid(_ session: TmuxSession, occurrence: Int = 1, timeout: TimeInterval = 30,
                             file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        func completions() -> Int {
            let log = (try? String(contentsOfFile: tracePath, encoding: .utf8)) ?? ""
            return log.split(separator: "\n").filter { $0.hasSuffix(" grid-complete") }.count
        }
        while completions() < occurrence {
            guard Date() < deadline else {
                XCTFail("no complete grid traced within \(timeout) s", file: file, line: line)
                return try session.screen()
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        var previous = try session.screen()
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            let current = try session.screen()
            if current == previous { return current }
            previous = current
        }
        return previous
    }

    func writeConfig(_ text: String) throws {
        let dir = home.appendingPathComponent("config/livegrid")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try text.write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    }

    static func runCapturing(_ executable: String, _ arguments: [String]) throws -> String {
        try ToolRunner.run(executable, arguments).output
    }
}

/// Reads cells off a captured grid: each caption names its cell; the picture is the rows above it.
struct ScreenGrid {
    struct Cell {
        var name: String
        var captionRow: Int
        var x: Int
        var width: Int
        var pictureTop: Int
    }
    let lines: [[Character]]
    var cells: [Cell] = []

    init(lines: [String], names: [String]) {
        self.lines = lines.map(Array.init)
        // Caption rows: lines where some item name starts one column after a cell's first column.
        var found: [(row: Int, x: Int, name: String)] = []
        for (row, line) in lines.enumerated() where row > 0 && row < lines.count - 1 {
            for name in names {
                guard let range = line.range(of: name) else { continue }
                let x = line.distance(from: line.startIndex, to: range.lowerBound) - 1
                if x >= 0 { found.append((row, x, name)) }
            }
        }
        for entry in found {
            let sameRow = found.filter { $0.row == entry.row && $0.x > entry.x }.map(\.x)
            // The last cell of a row has no right neighbour (and tmux trims trailing blanks): it is as wide
            // as its neighbours, or reaches the screen's right edge when alone.
            let pitch = found.filter { $0.row == entry.row }.map(\.x).sorted()
            let neighbourWidth = pitch.count > 1 ? pitch[1] - pitch[0] - 1 : nil
            let screenWidth = self.lines.map(\.count).max() ?? 0
            let width = sameRow.min().map { $0 - 1 - entry.x } ?? neighbourWidth ?? (screenWidth - entry.x)
            let previousCaption = found.filter { $0.row < entry.row }.map(\.row).max() ?? 0
            cells.append(Cell(name: entry.name, captionRow: entry.row, x: entry.x, width: max(1, width),
                              pictureTop: previousCaption + (previousCaption == 0 ? 1 : 2)))
        }
    }

    func cell(_ name: String) -> Cell? { cells.first { $0.name == name } }

    /// Where `text` appears inside the picture area of `cell`: (row offset, column offset), if anywhere.
    func find(_ text: String, in cell: Cell) -> (row: Int, column: Int)? {
        let needle = Array(text)
        for row in cell.pictureTop..<cell.captionRow where row < lines.count {
            let line = lines[row]
            guard line.count >= cell.x + needle.count else { continue }
            let end = min(line.count, cell.x + cell.width)
            guard end - needle.count >= cell.x else { continue }
            for start in cell.x...(end - needle.count) where Array(line[start..<(start + needle.count)]) == needle {
                return (row - cell.pictureTop, start - cell.x)
            }
        }
        return nil
    }
}
