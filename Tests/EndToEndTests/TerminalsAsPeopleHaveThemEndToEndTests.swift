import Foundation
import TestSupport
import XCTest

/// Issue 31.6, "terminals as people have them": `livegrid show` detects sixel as the browser does, and the kitty
/// graphics probe never becomes a tmux pane's title over ssh (TERM names tmux, TMUX is not forwarded).
final class TerminalsAsPeopleHaveThemEndToEndTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("livegrid-terminals")
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }   // a temporary directory: nothing to report
    }

    private func environment() -> [String: String] {
        let home = root.appendingPathComponent("home").path
        return ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache"]
    }

    /// xterm with sixel answers DA1 with attribute 4: `show` draws a sixel, as `chafa -f sixel` does (on main it
    /// never asked, and drew symbols "with no replies to the probe").
    func testShowDrawsSixelsWhenTheTerminalAnswersAsXtermWithSixel() throws {
        let binary = try MissingRequirement.livegridBinary()
        _ = try ScriptedPtyTerminal.requirePython()
        let outcome = try ScriptedPtyTerminal.run(
            [binary, "show", "--no-cache", "--size", "20x8", Fixtures.committed("train.jpg")], mode: .xterm,
            term: "xterm-256color", environment: environment(), in: root)
        let context = "output ended with \(outcome.outputTail.suffix(300).debugDescription)"
        XCTAssertTrue(outcome.probeSeen, "show sent no probe: \(context)")
        XCTAssertTrue(outcome.exited, "show did not end: \(context)")
        XCTAssertEqual(outcome.status, 0, context)
        XCTAssertEqual(outcome.sixelSeen, true, "no sixel (ESC P ... q) in show's output: \(context)")
    }

    /// xterm -ti vt340 shows nothing of a sixel bigger than its maxGraphicSize, and says how big with
    /// XTSMGRAPHICS: the viewer (Enter on the one photo of a library) and `show` keep every sixel within it.
    /// Without the limit the viewer's picture was 1200 px wide here (120x40 cells of 10x20 px): xterm's area blank.
    func testTheViewersSixelStaysWithinTheSizeTheTerminalReports() throws {
        let binary = try MissingRequirement.livegridBinary()
        _ = try ScriptedPtyTerminal.requirePython()
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"),
                                         toPath: library.appendingPathComponent("train.jpg").path)
        let limit = (width: 800, height: 480)
        let viewer = try ScriptedPtyTerminal.run(
            [binary, library.path], mode: .xterm, term: "xterm-256color", waitFor: "train.jpg", type: "\r",
            maxSixelSize: limit, untilSixelOver: 300, environment: environment(), in: root)
        let show = try ScriptedPtyTerminal.run(
            [binary, "show", "--no-cache", "--size", "120x39", Fixtures.committed("train.jpg")], mode: .xterm,
            term: "xterm-256color", maxSixelSize: limit, environment: environment(), in: root)
        for (name, outcome) in [("viewer", viewer), ("show", show)] {
            let context = "\(name): output ended with \(outcome.outputTail.suffix(300).debugDescription)"
            let sizes = try XCTUnwrap(outcome.sixelSizes, context)
            XCTAssertFalse(sizes.isEmpty, "no sixel: \(context)")
            for size in sizes {
                XCTAssertLessThanOrEqual(size[0], limit.width, "\(name): a sixel of \(size) px")
                XCTAssertLessThanOrEqual(size[1], limit.height, "\(name): a sixel of \(size) px")
            }
            // The big picture is there, as big as the limit lets it be (not a grid thumbnail).
            let widest = sizes.map { $0[0] }.max() ?? 0, tallest = sizes.map { $0[1] }.max() ?? 0
            XCTAssertTrue(widest >= 700 || tallest >= 400, "\(name): no picture near the limit: \(sizes)")
        }
    }

    /// A terminal that answers nothing: symbols, and show still ends by itself (the probe's deadline, 200 ms).
    func testShowDrawsSymbolsWhenTheTerminalAnswersNothing() throws {
        let binary = try MissingRequirement.livegridBinary()
        _ = try ScriptedPtyTerminal.requirePython()
        let outcome = try ScriptedPtyTerminal.run(
            [binary, "show", "--no-cache", "--size", "20x8", Fixtures.committed("train.jpg")], mode: .never,
            term: "xterm-256color", environment: environment(), in: root)
        let context = "output ended with \(outcome.outputTail.suffix(300).debugDescription)"
        XCTAssertTrue(outcome.exited, "show did not end: \(context)")
        XCTAssertEqual(outcome.status, 0, context)
        XCTAssertEqual(outcome.sixelSeen, false, "a sixel without a terminal that offers them: \(context)")
        XCTAssertTrue(outcome.outputTail.contains("\u{1B}[") && outcome.outputTail.contains("m"),
                      "no coloured symbols: \(context)")
    }

    /// ssh from inside tmux: TERM=tmux-256color, no TMUX variable, a pixel mode forced (as people do there; `auto`
    /// sends no probe inside tmux). tmux shows an APC it does not know as the pane title, so the kitty graphics
    /// query must not be sent there (on main the title became `Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA`).
    func testKittyProbeDoesNotBecomeThePaneTitleOverSshInTmux() throws {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"),
                                         toPath: library.appendingPathComponent("train.jpg").path)
        let home = root.appendingPathComponent("home").path
        let command = "env -u TMUX -u TMUX_PANE -u COLORTERM -u TERM_PROGRAM -u LIVEGRID_GRAPHICS "
            + "XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' TERM=tmux-256color "
            + "'\(binary)' --graphics sixel '\(library.path)'"
        let session = try TmuxSession(command: command, columns: 120, rows: 40)
        try session.waitFor("the item's name") { $0.joined().contains("train.jpg") }
        try session.waitForStableScreen()
        let title = try session.display("#{pane_title}")
        XCTAssertFalse(title.contains("Gi=31") || title.contains("AAAA") || title.contains("a=q"),
                       "the kitty probe became the pane title: \(title.debugDescription)")
        try session.send("q")
        try session.waitForExit()
    }
}

/// Issue 31.6: in a locale that is not UTF-8 (LANG=C, `su -`, ssh without LANG) livegrid printed its block
/// symbols and borders as UTF-8 that the terminal there shows as garbage. Now ASCII only, and said so.
final class AsciiLocaleEndToEndTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("livegrid-ascii")
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }   // a temporary directory: nothing to report
    }

    /// LANG=C, no LC_ALL or LC_CTYPE: what a login shell without a locale has.
    private func environment() -> [String: String] {
        let home = root.appendingPathComponent("home").path
        return ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache",
                "LANG": "C", "LC_ALL": "", "LC_CTYPE": "", "LIVEGRID_GRAPHICS": ""]
    }

    func testTheBrowserDrawsAsciiOnlyAndSaysWhy() throws {
        let binary = try MissingRequirement.livegridBinary()
        _ = try ScriptedPtyTerminal.requirePython()
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        for name in ["train.jpg", "motion-photo-v1.jpeg"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: library.appendingPathComponent(name).path)
        }
        let outcome = try ScriptedPtyTerminal.run(
            [binary, library.path], mode: .never, term: "xterm-256color", waitFor: "ASCII only",
            environment: environment(), in: root)
        let context = "output ended with \(outcome.outputTail.suffix(600).debugDescription)"
        XCTAssertTrue(outcome.exited, "livegrid did not quit on q: \(context)")
        XCTAssertEqual(outcome.status, 0, context)
        XCTAssertEqual(outcome.highBytes, 0, "bytes ≥ 0x80 reached a terminal in the C locale: \(context)")
        XCTAssertEqual(outcome.waitedForSeen, true, "the status bar never said why it is ASCII: \(context)")
    }

    /// The same in tmux, as the issue has it (`env -u LC_ALL LANG=C`), everything livegrid writes recorded with
    /// pipe-pane from its first byte: no byte ≥ 0x80, the reason on the status line, pictures on screen.
    func testInTmuxUnderLangCNothingButAsciiReachesTheTerminal() throws {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        for name in ["train.jpg", "motion-photo-v1.jpeg"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: library.appendingPathComponent(name).path)
        }
        let home = root.appendingPathComponent("home").path
        let ready = root.appendingPathComponent("ready").path, record = root.appendingPathComponent("pane.bin").path
        // livegrid starts once the recording runs (a condition, polled), so its first bytes are in it.
        let command = "sh -c 'while [ ! -e \(ready) ]; do sleep 0.05; done; exec env -u LC_ALL -u LC_CTYPE -u COLORTERM "
            + "-u LIVEGRID_GRAPHICS LANG=C XDG_CONFIG_HOME=\(home)/config XDG_CACHE_HOME=\(home)/cache \(binary) \(library.path)'"
        let session = try TmuxSession(command: command, columns: 120, rows: 40)
        try session.run(["pipe-pane", "-O", "-t", session.name, "cat > '\(record)'"], capture: false)
        _ = FileManager.default.createFile(atPath: ready, contents: nil)
        try session.waitFor("the reason on the status line") { $0.joined().contains("ASCII only: the locale is not UTF-8 (LANG=C)") }
        let screen = try session.waitForStableScreen()
        try session.send("q")
        try session.waitForExit()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: record))
        XCTAssertGreaterThan(bytes.count, 1000, "nothing recorded")
        XCTAssertEqual(bytes.filter { $0 >= 0x80 }.count, 0, "bytes ≥ 0x80 reached tmux in the C locale")
        XCTAssertTrue(screen.contains("@ LIVE"), "no ASCII LIVE badge on screen:\n\(screen)")
        // Pictures: coloured cells (256-colour backgrounds, alone or in a combined SGR) in the recording.
        XCTAssertGreaterThan(bytes.count(of: Array("48;5;".utf8)), 50, "no picture cells drawn")
    }

    func testShowDrawsAsciiSymbolsWithTheLiveBadge() throws {
        let binary = try MissingRequirement.livegridBinary()
        _ = try ScriptedPtyTerminal.requirePython()
        let outcome = try ScriptedPtyTerminal.run(
            [binary, "show", "--no-cache", "--size", "24x8", Fixtures.committed("motion-photo-v1.jpeg")], mode: .never,
            term: "xterm-256color", waitFor: "@ LIVE", environment: environment(), in: root)
        let context = "output ended with \(outcome.outputTail.suffix(600).debugDescription)"
        XCTAssertTrue(outcome.exited, context)
        XCTAssertEqual(outcome.status, 0, context)
        XCTAssertEqual(outcome.highBytes, 0, "bytes ≥ 0x80 in show's output in the C locale: \(context)")
        XCTAssertEqual(outcome.waitedForSeen, true, "no ASCII LIVE badge: \(context)")
        // A picture, not a blank: coloured cells with visible ASCII symbols between the colour changes.
        let symbols = outcome.outputTail.replacingOccurrences(of: "\u{1B}\\[[0-9;:]*m", with: "", options: .regularExpression)
            .filter { $0 != " " && $0 != "\n" && $0 != "\r" }
        XCTAssertGreaterThan(symbols.count, 20, "no ASCII symbols drawn: \(context)")
    }
}

/// Issue 31.6: over ssh (TERM=xterm-256color, no COLORTERM) the colours fell back to 256 without asking the
/// terminal; now XTGETTCAP RGB (and DECRQSS) are asked first, and a "yes" gives truecolour with its reason.
final class TruecolorQueryEndToEndTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("livegrid-truecolor")
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }   // a temporary directory: nothing to report
    }

    private func showWhy(answersTruecolor: Bool, mode: ScriptedPtyTerminal.Mode, waitFor: String) throws
        -> ScriptedPtyTerminal.Outcome {
        let binary = try MissingRequirement.livegridBinary()
        _ = try ScriptedPtyTerminal.requirePython()
        let home = root.appendingPathComponent("home").path
        return try ScriptedPtyTerminal.run(
            [binary, "show", "--why", "--no-cache", "--format", "symbols", "--size", "12x4", Fixtures.committed("train.jpg")],
            mode: mode, term: "xterm-256color", waitFor: waitFor, answersTruecolor: answersTruecolor,
            environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache"], in: root)
    }

    func testATerminalAnsweringXtgettcapRGBGetsTruecolour() throws {
        let outcome = try showWhy(answersTruecolor: true, mode: .xterm, waitFor: "truecolour (the terminal answers XTGETTCAP RGB)")
        XCTAssertEqual(outcome.status, 0, outcome.outputTail)
        XCTAssertEqual(outcome.waitedForSeen, true, "no truecolour from the terminal's answer: \(outcome.outputTail.suffix(800).debugDescription)")
    }

    func testATerminalAnsweringNothingKeepsTodaysDecision() throws {
        let outcome = try showWhy(answersTruecolor: false, mode: .never, waitFor: "256 colours (TERM=xterm-256color, no COLORTERM)")
        XCTAssertEqual(outcome.status, 0, outcome.outputTail)
        XCTAssertEqual(outcome.waitedForSeen, true, "today's decision changed: \(outcome.outputTail.suffix(800).debugDescription)")
    }

    func testATerminalSayingNoKeepsTodaysDecision() throws {
        let outcome = try showWhy(answersTruecolor: false, mode: .xterm, waitFor: "256 colours (TERM=xterm-256color, no COLORTERM)")
        XCTAssertEqual(outcome.status, 0, outcome.outputTail)
        XCTAssertEqual(outcome.waitedForSeen, true, "a 'no' became truecolour: \(outcome.outputTail.suffix(800).debugDescription)")
    }
}

private extension Data {
    /// How many times `needle` occurs (without overlaps).
    func count(of needle: [UInt8]) -> Int {
        let bytes = [UInt8](self)
        guard !needle.isEmpty, bytes.count >= needle.count else { return 0 }
        var count = 0, index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle {
                count += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        return count
    }
}

/// Issue 31.6 against the real terminal: xterm 379 as a VT340 (sixel) under Xvfb, `show` run through `script`,
/// which records everything show writes while xterm answers its queries. On main: symbols, "no replies to the
/// probe", 256 colours; now sixels, and truecolour from xterm's answer (DECRQSS keeps the direct colour).
final class ShowInXtermEndToEndTests: XCTestCase {
    func testShowDrawsSixelsAndAsksTheColoursInXtermAsAVT340() throws {
        let binary = try MissingRequirement.livegridBinary()
        let xvfbRun = try MissingRequirement.path(of: "xvfb-run", for: "the xterm test runs xterm under Xvfb")
        let xterm = try MissingRequirement.path(of: "xterm", for: "the xterm test needs xterm")
        let script = try MissingRequirement.path(of: "script", for: "the xterm test records show's output with script")
        let root = try Fixtures.makeTemporaryDirectory("livegrid-xterm")
        defer { try? FileManager.default.removeItem(at: root) }   // a temporary directory: nothing to report
        let record = root.appendingPathComponent("show.log").path
        let home = root.appendingPathComponent("home").path
        let show = "env XDG_CACHE_HOME=\(home)/cache XDG_CONFIG_HOME=\(home)/config \(binary) show --why --no-cache "
            + "--size 30x10 \(Fixtures.committed("train.jpg"))"
        // xterm ends when the script ends, and script when show does: no waiting on anything else.
        try ToolRunner.run("/usr/bin/timeout", ["120", xvfbRun, "-a", "-s", "-screen 0 1280x800x24", xterm,
                                                "-ti", "vt340", "-xrm", "XTerm*decTerminalID: vt340",
                                                "-xrm", "XTerm*numColorRegisters: 256",
                                                "-e", script, "-q", "-c", show, record], capture: false)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: record))
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertNotNil(text.range(of: "\u{1B}P[0-9;]*q", options: .regularExpression),
                        "no sixel from show in xterm: \(text.prefix(600).debugDescription)")
        XCTAssertTrue(text.contains("graphics: sixels (DA1 reports sixel graphics"), text.prefix(600).debugDescription)
        XCTAssertTrue(text.contains("colours: truecolour (DECRQSS: the terminal keeps a direct colour)")
                      || text.contains("colours: truecolour (the terminal answers XTGETTCAP"),
                      text.prefix(600).debugDescription)
    }
}
