import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Pixel pictures through real tmux passthrough. livegrid runs in an inner tmux whose client runs in a pane
/// of an outer tmux (nested: every sequence wrapped twice), and the outer tmux's client runs under
/// `script`, whose typescript is exactly what the terminal outside both tmux receives. The livegrid pane
/// sits right of a split, and the outer tmux has its status line on top, so a picture placed without the
/// panes' absolute offsets lands in the wrong cells.
final class TmuxPassthroughEndToEndTests: XCTestCase {
    /// The three processes of the nested setup, torn down in reverse.
    final class Nested {
        let inner: TmuxSession
        let outer: TmuxSession
        var outerClient: BackgroundProcess?
        let typescript: URL
        let livegridPane: String

        init(fixture: BrowserFixture, columns: Int = 110, rows: Int = 36) throws {
            typescript = fixture.directory.deletingLastPathComponent().appendingPathComponent("outer-terminal.bin")
            inner = try TmuxSession(command: "PS1='$ ' bash --norc --noprofile -i", columns: columns, rows: rows - 2)
            try inner.run(["set-option", "-g", "allow-passthrough", "on"], capture: false)
            livegridPane = try inner.display("#{pane_id}")
            try inner.run(["split-window", "-h", "-b", "-d", "-l", "30", "-t", livegridPane], capture: false)
            outer = try TmuxSession(command: "sh -c 'TMUX= tmux -L \(inner.socket) attach -t \(inner.name); sleep 600'",
                                    columns: columns, rows: rows - 1)
            try outer.run(["set-option", "-g", "allow-passthrough", "on"], capture: false)
            try outer.run(["set-option", "-g", "status-position", "top"], capture: false)
            try attachOuterClient(columns: columns, rows: rows)
        }

        /// The outermost "terminal": a pty from `script`, recording every byte the outer tmux writes to it.
        func attachOuterClient(columns: Int, rows: Int) throws {
            outerClient = try BackgroundProcess("/usr/bin/env", [
                "-u", "TMUX", "TERM=xterm-256color", "script", "-qfaec",
                "stty cols \(columns) rows \(rows); tmux -L \(outer.socket) attach -t \(outer.name)", typescript.path,
            ])
            try waitUntil("the outer client attached") { try Self.terminals(outer) == 1 }
            try waitUntil("the inner client attached") { try Self.terminals(inner) == 1 }
        }

        /// Clients that are terminals: livegrid's redraw watch attaches a control-mode client of its own.
        static func terminals(_ session: TmuxSession) throws -> Int {
            try session.run(["list-clients", "-F", "#{client_control_mode}"]).split(separator: "\n").filter { $0 == "0" }.count
        }

        static func controlClients(_ session: TmuxSession) throws -> Int {
            try session.run(["list-clients", "-F", "#{client_control_mode}"]).split(separator: "\n").filter { $0 == "1" }.count
        }

        /// The livegrid pane's top-left cell on the outer terminal: its place in the inner window, plus the
        /// inner client's pane in the outer window, plus the outer status line on top.
        func origin() throws -> (row: Int, column: Int) {
            let innerPane = try inner.run(["display-message", "-p", "-t", livegridPane, "#{pane_top} #{pane_left}"])
                .split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            let outerPane = try outer.display("#{pane_top} #{pane_left}").split(separator: " ").compactMap { Int($0) }
            guard innerPane.count == 2, outerPane.count == 2 else { throw ToolRunner.Failure(description: "no pane offsets") }
            return (innerPane[0] + outerPane[0] + 1, innerPane[1] + outerPane[1])
        }

        func screen() throws -> [String] {
            try inner.run(["capture-pane", "-p", "-t", livegridPane]).components(separatedBy: "\n")
        }

        func recorded() -> [UInt8] { (try? Data(contentsOf: typescript)).map { [UInt8]($0) } ?? [] }

        deinit { outerClient?.stop() }
    }

    func testNestedTmuxPicturesAreWrappedTwiceAndPlacedAtThePanesAbsolutePosition() throws {
        let fixture = try BrowserFixture.make()
        defer { fixture.remove() }
        try requireScript()
        let reference = try referencePositions(fixture, columns: 79, rows: 34)
        let nested = try Nested(fixture: fixture)
        let innerRecording = fixture.directory.deletingLastPathComponent().appendingPathComponent("inner-pane.bin")
        try nested.inner.run(["pipe-pane", "-O", "-t", nested.livegridPane, "cat > '\(innerRecording.path)'"], capture: false)
        try nested.inner.run(["send-keys", "-t", nested.livegridPane, fixture.command("--graphics sixel --no-motion"), "Enter"],
                             capture: false)
        let count = fixture.names.count
        do {
            try waitUntil("the grid in sixels", timeout: 60) {
                let screen = try nested.screen()
                return screen.first?.contains("\(count) items") == true && screen.contains { $0.contains("sixels") }
            }
        } catch {
            let panes = (try? nested.inner.run(["list-panes", "-a", "-F", "#{pane_id} #{pane_current_command} #{pane_dead}"])) ?? ""
            XCTFail("no sixel grid; panes: \(panes); screen:\n" + ((try? nested.screen().joined(separator: "\n")) ?? ""))
            throw error
        }
        let origin = try nested.origin()
        XCTAssertEqual(origin.column, 31, "the livegrid pane is right of a 30-column pane")
        XCTAssertEqual(origin.row, 1, "below the outer tmux's status line")
        let relative = { (picture: Position) in Position(row: picture.row - origin.row, column: picture.column - origin.column) }
        let firstPaint = try waitForPictures(in: nested) { Set($0.map(relative)).isSuperset(of: reference) }

        // What livegrid wrote: every sixel wrapped twice, the cursor move inside the innermost wrapper.
        let written = String(decoding: (try? Data(contentsOf: innerRecording)) ?? Data(), as: UTF8.self)
        let doubleWrapped = "\u{1B}Ptmux;\u{1B}\u{1B}Ptmux;\u{1B}\u{1B}\u{1B}\u{1B}7\u{1B}\u{1B}\u{1B}\u{1B}["
        XCTAssertTrue(written.contains(doubleWrapped), "no double-wrapped, positioned picture in what livegrid wrote")
        let unwrapped = try NSRegularExpression(pattern: "(?<!\u{1B})\u{1B}P[0-9;]*q")
        XCTAssertEqual(unwrapped.numberOfMatches(in: written, range: NSRange(written.startIndex..., in: written)), 0,
                       "a sixel sent without passthrough")

        // What the outer terminal received: the same relative positions as outside tmux, shifted by the origin.
        let placed = Set(firstPaint.map(relative))
        XCTAssertEqual(placed, reference, "absolute \(firstPaint), origin \(origin)")

        // A window switch away and back: tmux redraws the pane from its text, the pictures must come again.
        try settle(nested)
        var before = Self.positionedSixels(in: nested.recorded()).count
        try nested.inner.run(["new-window", "-t", nested.inner.name], capture: false)
        // Switched away once tmux shows the new window (livegrid's pane is then hidden).
        try waitUntil("the new window is active", timeout: 10) { try nested.inner.display("#{session_windows}") == "2" }
        try nested.inner.run(["select-window", "-t", "\(nested.inner.name):0"], capture: false)
        _ = try waitForPictures(in: nested) { Set($0.dropFirst(before).map(relative)).isSuperset(of: reference) }
        try settle(nested)
        let afterSwitch = Self.positionedSixels(in: nested.recorded())
        XCTAssertEqual(Set(afterSwitch.dropFirst(before).map(relative)), reference, "pictures after the window switch")

        // A resize that moves the pane: drawn again at the new place.
        before = afterSwitch.count
        try nested.inner.run(["resize-pane", "-t", nested.livegridPane, "-L", "6"], capture: false)
        let moved = try nested.origin()
        XCTAssertEqual(moved.column, 25)
        let afterResize = try waitForPictures(in: nested) { $0.count > before }
        for picture in afterResize.dropFirst(before) {
            XCTAssertGreaterThanOrEqual(picture.column, moved.column, "a picture left of the moved pane: \(picture)")
            XCTAssertGreaterThan(picture.row, moved.row, "a picture on the header or the status line: \(picture)")
        }

        // Detach and re-attach (the outer terminal's client goes away and comes back).
        try settle(nested)
        nested.outerClient?.stop()
        try waitUntil("the outer client gone") { try Nested.terminals(nested.outer) == 0 }
        before = Self.positionedSixels(in: nested.recorded()).count
        try nested.attachOuterClient(columns: 110, rows: 36)
        _ = try waitForPictures(in: nested) { $0.count > before }

        // Playback: holding Space plays the movie as sixel frames through passthrough, in the cell's place.
        if fixture.kinds["train.jpg"] == "live" {
            for _ in 0..<fixture.names.count where try nested.screen().last(where: { !$0.isEmpty })?.contains("train.jpg") != true {
                try nested.inner.run(["send-keys", "-t", nested.livegridPane, "l"], capture: false)
                Thread.sleep(forTimeInterval: 0.2)
            }
            try settle(nested)
            before = Self.positionedSixels(in: nested.recorded()).count
            let holdEnds = Date().addingTimeInterval(2)
            while Date() < holdEnds {
                try nested.inner.run(["send-keys", "-t", nested.livegridPane, "Space"], capture: false)
                Thread.sleep(forTimeInterval: 0.03)
            }
            try settle(nested)
            let frames = Self.positionedSixels(in: nested.recorded()).dropFirst(before)
            let moved = try nested.origin()
            XCTAssertGreaterThanOrEqual(frames.count, 3, "movie frames through passthrough while Space was held")
            // The key photo comes back at the cell's place; frames sized down for the link or the render's cost
            // are centred in the cell, so they start at or below and right of it, never above or left.
            let keyPhoto = try XCTUnwrap(frames.last)
            XCTAssertTrue(frames.allSatisfy { $0.row >= keyPhoto.row && $0.column >= keyPhoto.column },
                          "every frame within the cell's place: \(frames)")
            XCTAssertTrue(frames.allSatisfy { $0.column >= moved.column && $0.row > moved.row }, "\(frames)")
        }

        // The viewer over the grid: tmux forwards no unchanged blank cells, so the grid's sixels must be
        // erased through passthrough (ECH at their cells), or they would stay around the viewer.
        try settle(nested)
        let erases = { (bytes: [UInt8]) -> Int in
            String(decoding: bytes, as: UTF8.self).components(separatedBy: "\u{1B}7\u{1B}[0m\u{1B}[").count - 1
        }
        let erasedBefore = erases(nested.recorded())
        try nested.inner.run(["send-keys", "-t", nested.livegridPane, "Enter"], capture: false)
        try waitUntil("the grid's pictures erased on the outer terminal") { erases(nested.recorded()) > erasedBefore }
        try nested.inner.run(["send-keys", "-t", nested.livegridPane, "Escape"], capture: false)
        // The redraw watch listened to both tmux levels through control mode, and leaves neither attached.
        XCTAssertEqual(try Nested.controlClients(nested.inner), 1)
        XCTAssertEqual(try Nested.controlClients(nested.outer), 1)
        // q right behind Escape can arrive as Alt-q: ask again until livegrid has quit.
        var lastQuit = Date.distantPast
        try waitUntil("livegrid quit and its control clients detached") {
            if Date().timeIntervalSince(lastQuit) > 2 {
                try nested.inner.run(["send-keys", "-t", nested.livegridPane, "q"], capture: false)
                lastQuit = Date()
            }
            return try Nested.controlClients(nested.inner) == 0 && Nested.controlClients(nested.outer) == 0
        }
    }

    /// With passthrough off (tmux's default), the status bar says so with the one-line fix, and the grid
    /// uses symbols.
    func testPassthroughOffSaysSoWithTheFixAndUsesSymbols() throws {
        let fixture = try BrowserFixture.make()
        defer { fixture.remove() }
        try requireScript()
        // TMUX stays set: livegrid knows it runs in tmux and asks it. A client must be attached (with none,
        // nobody would read the hint): `script` stands in for the user's terminal.
        let session = try TmuxSession(command: "PS1='$ ' sh", columns: 120, rows: 30)
        XCTAssertEqual(try session.display("#{allow-passthrough}"), "0")
        let typescript = fixture.directory.deletingLastPathComponent().appendingPathComponent("terminal.bin")
        let client = try BackgroundProcess("/usr/bin/env", [
            "-u", "TMUX", "TERM=xterm-256color", "script", "-qfaec",
            "stty cols 120 rows 31; tmux -L \(session.socket) attach -t \(session.name)", typescript.path,
        ])
        defer { client.stop() }
        try waitUntil("the client attached") { try session.display("#{session_attached}") == "1" }
        try session.run(["send-keys", "-t", session.name, fixture.command(), "Enter"], capture: false)
        let screen = try session.waitFor("the grid", timeout: 60) { screen in
            screen.first?.contains("\(fixture.names.count) items") == true && screen.last?.contains("passthrough") == true
        }
        let status = screen.last ?? ""
        XCTAssertTrue(status.contains("passthrough is off"), status)
        XCTAssertTrue(status.contains("set -g allow-passthrough on"), status)
        XCTAssertTrue(status.contains("symbols"), status)
        // After a key the fix gives way to the item; the mode keeps saying why.
        try session.send("l")
        let later = try session.waitFor("the item in the status bar") { $0.last?.contains("passthrough off") == true }
        XCTAssertTrue(later.last?.contains("symbols, ") == true, later.last ?? "")
        try session.send("q")
    }

    // MARK: helpers

    struct Position: Hashable, CustomStringConvertible {
        var row: Int
        var column: Int
        var description: String { "(\(row),\(column))" }
    }

    /// Zero-based cells of the pictures livegrid draws with the same pane size outside tmux.
    private func referencePositions(_ fixture: BrowserFixture, columns: Int, rows: Int) throws -> Set<Position> {
        let recording = fixture.directory.deletingLastPathComponent().appendingPathComponent("reference.bin")
        let browser = fixture.command("--graphics sixel").replacingOccurrences(of: "TERM=tmux-256color", with: "TERM=xterm-256color")
        let session = try TmuxSession(command: "sh -c \"sleep 1; exec env -u TMUX \(browser)\"", columns: columns, rows: rows)
        try session.run(["pipe-pane", "-O", "-t", session.name, "cat > '\(recording.path)'"], capture: false)
        try session.waitFor("the reference grid", timeout: 60) { $0.contains { $0.contains("sixels") } }
        var last = -1
        var positions: [Position] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            positions = Self.positionedSixels(in: (try? Data(contentsOf: recording)).map { [UInt8]($0) } ?? [])
            // Every item but the corrupt one has a picture; then no new one for 0.7 s.
            if Set(positions).count >= fixture.names.count - 1, positions.count == last { break }
            last = positions.count
            Thread.sleep(forTimeInterval: 0.7)
        }
        try session.send("q")
        XCTAssertFalse(positions.isEmpty, "no sixel outside tmux")
        return Set(positions)
    }

    /// The pictures the outer terminal received once `enough` holds for them (fails after 60 s).
    private func waitForPictures(in nested: Nested, file: StaticString = #filePath, line: UInt = #line,
                                 until enough: ([Position]) -> Bool) throws -> [Position] {
        var positions: [Position] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            positions = Self.positionedSixels(in: nested.recorded())
            if enough(positions) { return positions }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTFail("the pictures the outer terminal received within 60 s are not the expected ones: \(positions)",
                file: file, line: line)
        return positions
    }

    /// Waits until no new picture arrived for a second.
    private func settle(_ nested: Nested) throws {
        var last = -1
        for _ in 0..<30 {
            let count = Self.positionedSixels(in: nested.recorded()).count
            if count == last { return }
            last = count
            Thread.sleep(forTimeInterval: 1)
        }
    }

    /// Zero-based cell of every `ESC 7 ESC [ row ; col H ESC P … q` (a sixel with its cursor move).
    static func positionedSixels(in bytes: [UInt8]) -> [Position] {
        PixelGraphicsEndToEndTests.sixels(in: bytes).compactMap { sixel in
            guard let row = sixel.row, let column = sixel.column else { return nil }
            return Position(row: row - 1, column: column - 1)
        }
    }

    private func requireScript() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw MissingRequirement.tool("script (bsdutils) is missing")
        }
    }
}

/// Polls `condition` every 0.1 s for up to `timeout` seconds; throws when it never holds.
func waitUntil(_ what: String, timeout: TimeInterval = 30, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if (try? condition()) == true { return }
        Thread.sleep(forTimeInterval: 0.1)
    }
    throw ToolRunner.Failure(description: "timed out waiting for \(what)")
}

/// A program left running in the background (posix_spawn), stopped by its own pid. Its stdin is a pipe kept
/// open until it stops: `script` sends its child an end-of-file (Ctrl-D) when its stdin ends, which would
/// travel through both tmux levels and end the shell in the inner pane.
final class BackgroundProcess {
    private var pid: pid_t = 0
    private var stdinWriter: Int32 = -1

    init(_ path: String, _ arguments: [String]) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ToolRunner.Failure(description: "pipe failed") }
        stdinWriter = fds[1]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            close(fds[0])
        }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else {
            throw ToolRunner.Failure(description: "cannot start \(path)")
        }
    }

    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
        if stdinWriter >= 0 { close(stdinWriter) }
        stdinWriter = -1
    }

    deinit { stop() }
}
