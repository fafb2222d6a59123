import ArgumentParser
import BrowserCore
import BrowserRuntime
import Concurrent
import Foundation
import GraphicsSettings
import Imaging
import MediaFormats
import TerminalGraphics
import TerminalProtocol
import TerminalUI
import VideoPlayback

struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play the movie of a Live Photo, Motion Photo or video in the terminal (the playback benchmark).",
        usage: "livegrid play <file> [<options>]",   // the full synopsis is wider than 80 columns
        discussion: """
        Frames are drawn in place (cursor home, then overwrite; nothing is cleared between frames) at the movie's \
        own timing: frames that would be late are dropped, never delayed. With --stats, a summary goes to stderr: \
        frames shown and dropped, source and achieved frame rate, bytes written and CPU time per frame, and the \
        latency to the first frame. The movie's sound plays through PulseAudio or PipeWire (PULSE_SERVER is \
        honoured) unless --mute is given; with no sound server the movie plays silent and says why once.
        """
    )

    @Argument(help: "A movie, a Motion Photo, or a Live Photo still (its movie beside it is played).", completion: .file())
    var file: String

    @OptionGroup var output: TerminalAreaOptions

    @OptionGroup var diagnostics: DiagnosticOptions

    @Flag(help: "Print playback statistics on stderr.")
    var stats = false

    @Flag(help: "Play without sound.")
    var mute = false

    @Option(help: "Play this many times.")
    var `repeat`: Int = 1

    func validate() throws {
        guard (1...1000).contains(`repeat`) else { throw ValidationError("--repeat must be 1 to 1000") }
    }

    func run() throws {
        let (area, capabilities) = output.resolve()
        let located: (source: any ByteSource, description: String)
        do {
            located = try PlayableMovie.locate(file: file)
        } catch PlaybackFailure.noMovie {
            // A file problem, not a usage error: no "Usage:" lines and status 64 (the corpus audit, issue 32).
            HumanOutput.error("\(file): nothing to play: not a movie, a Motion Photo, or a Live Photo still with its movie beside it")
            throw ExitCode(1)
        } catch {
            HumanOutput.error(describe(error, of: file, verbose: diagnostics.verbose))
            throw ExitCode(1)
        }
        let screen = MovieScreen(area: area, capabilities: capabilities)
        screen.begin()
        defer { screen.end() }
        var failed: PlaybackEnd?
        for round in 1...`repeat` {
            let played = try screen.play(located.source, muted: mute)
            if case .failed = played.end { failed = played.end }
            if stats {
                for line in played.report(round: round, of: `repeat`) { HumanOutput.note(line) }
            }
        }
        if case .failed(let error)? = failed {
            HumanOutput.error(describe(error, of: file, verbose: diagnostics.verbose))
            throw ExitCode(1)
        }
    }
}

/// The terminal side `livegrid play` and `livegrid edit --preview` share: the renderer chosen for the area, the
/// cursor hidden for the playback, and one movie (or a range of it) played in place with its sound.
struct MovieScreen {
    let area: (columns: Int, rows: Int)
    let capabilities: TerminalCapabilities
    /// The presenter thread renders every frame; the lock is its only one (never contended).
    private let renderer: Locked<any CellImageRenderer>
    private let rendererMode: GraphicsMode
    private let rendererDepth: ColorDepth
    /// The pixel box frames are decoded into.
    let target: PixelSize

    init(area: (columns: Int, rows: Int), capabilities: TerminalCapabilities) {
        self.area = area
        self.capabilities = capabilities
        renderer = Locked(PlaybackGeometry.frameRenderer(mode: capabilities.graphicsMode, colorDepth: capabilities.colorDepth,
                                                         cellPixelSize: capabilities.cellPixelSize,
                                                         maxSixelSize: capabilities.maxSixelSize))
        (rendererMode, rendererDepth) = renderer.withLockedValue { ($0.mode, $0.colorDepth) }
        target = PlaybackGeometry.pixelBox(columns: area.columns, rows: area.rows, mode: rendererMode,
                                           cell: capabilities.cellPixelSize)
    }

    /// Hides the cursor and homes it; `end` shows it again (and Ctrl-C does too).
    func begin() {
        // libav* is loaded before the first round's clock starts, as the browser loads it at start: the
        // first-frame figure is then what a press costs.
        MovieDecoder.preloadLibraries()
        TerminalOutput.installRestoreOnInterrupt()
        TerminalOutput.write(Array("\u{1B}[?25l\u{1B}[H".utf8))
    }

    func end() {
        TerminalOutput.write(Array("\u{1B}[0m\u{1B}[?25h\n".utf8))
    }

    /// One playback's outcome: how it ended, and its figures for `--stats`.
    struct Played {
        var end: PlaybackEnd
        fileprivate var run: PlayRun
        fileprivate var stats: PlaybackStats
        fileprivate var info: MovieStreamInfo?
        fileprivate var cpuSeconds: Double
        fileprivate var target: PixelSize
        fileprivate var mode: GraphicsMode

        func report(round: Int, of rounds: Int) -> [String] {
            // One note per line: a note escapes control characters, a newline included.
            run.report(stats: stats, info: info, cpuSeconds: cpuSeconds, round: round, of: rounds, target: target, mode: mode)
                .split(separator: "\n").map(String.init)
        }
    }

    /// Plays `source` from `startTime` up to `endTime` (nil: its end) in place, with its sound unless `muted`.
    /// A playback with no frame at all is a failure. The terminal gone mid-way is said and ends the command.
    func play(_ source: any ByteSource, startTime: Double = 0, endTime: Double? = nil, muted: Bool) throws -> Played {
        let run = PlayRun(renderer: renderer, colorDepth: rendererDepth, area: area, insideTmux: capabilities.insideTmux)
        let usage = CPUUsage.now()
        // Pipelined: the presenter renders each frame while the decode thread decodes the next ones, and
        // writes it when it is due.
        let sound = muted ? nil : SoundOutputs.open(SoundOutputs.Request(environment: LaunchEnvironment.current.variables, report: { state in
            if state.isWorthSaying { HumanOutput.note(state.description) }
        }))
        let options = PlaybackOptions(targetSize: target, startTime: startTime, endTime: endTime)
        let player = MoviePlayer(source: source, options: options, audio: sound,
                                 video: TerminalVideoSink(render: { frame in run.render(frame) }, target: run))
        player.start()
        // A terminal that is gone (writes fail with EIO once its pty's other side closed; no SIGHUP comes when
        // it was not the controlling terminal) ends the playback at once: nobody sees the frames (issue 32.1).
        var end = player.waitUntilEnded(timeout: 0.1)
        while end == nil {
            if TerminalOutput.isGone { player.stop() }
            end = player.waitUntilEnded(timeout: 0.1)
        }
        if TerminalOutput.isGone {
            HumanOutput.error("the terminal went away during playback; stopped")
            throw ExitCode(1)
        }
        // The last samples are still in the server's buffer when the last frame's time is over.
        if end == .finished { sound?.waitUntilFinished(timeout: 1) } else { sound?.stop() }
        let cpu = CPUUsage.now().seconds - usage.seconds
        var outcome = end ?? .finished
        if outcome == .finished, player.stats.framesShown == 0 { outcome = .failed(.unsupported("stream: no frame could be decoded")) }
        return Played(end: outcome, run: run, stats: player.stats, info: player.info, cpuSeconds: cpu, target: target,
                      mode: rendererMode)
    }

    /// Draws one picture in place over what `played` left on screen (the key photo after a preview).
    func show(_ picture: PixelFrame, after played: Played) {
        let area = area
        // try?: a picture that cannot be rendered leaves the last frame on screen, which is the next best thing.
        guard let image = renderer.withLockedValue({ try? $0.render(picture, maxColumns: area.columns, maxRows: area.rows) }) else { return }
        played.run.show(image)
    }
}

/// One playback's output side: renders each frame and writes it in place, counting bytes and render time.
private final class PlayRun: RenderedFrameTarget, Sendable {
    /// A chafa or quadrant renderer (C state for chafa), used on the player's presenter thread.
    private let renderer: Locked<any CellImageRenderer>
    private let area: (columns: Int, rows: Int)
    private let insideTmux: Bool
    private let totals = Locked((bytesWritten: 0, frames: 0, renderSeconds: 0.0, rendersDone: 0))
    /// What is on screen, so a frame writes only the cells that changed.
    private let writer: Locked<CellScreenWriter>

    init(renderer: Locked<any CellImageRenderer>, colorDepth: ColorDepth, area: (columns: Int, rows: Int), insideTmux: Bool) {
        self.renderer = renderer
        self.area = area
        self.insideTmux = insideTmux
        writer = Locked(CellScreenWriter(colorDepth: colorDepth, screenColumns: area.columns, screenRows: area.rows))
    }

    /// Called on the player's presenter thread, ahead of the frame's time.
    func render(_ frame: DecodedFrame) -> RenderedImage? {
        let began = MonotonicClock.now()
        let area = area
        // try?: a frame that cannot be rendered is not presented; the player goes on with the next one.
        let image = renderer.withLockedValue { try? $0.render(frame.pixels, maxColumns: area.columns, maxRows: area.rows) }
        let rendered = MonotonicClock.now() - began
        totals.withLockedValue { $0.renderSeconds += rendered; $0.rendersDone += 1 }
        return image
    }

    /// Called on the presenter thread when the frame is due: symbol cells through `CellScreenWriter` (only
    /// the cells that changed since the previous frame, one SGR per colour change), pixel pictures whole.
    func show(_ image: RenderedImage) {
        let bytes: [UInt8]
        if image.mode == .symbols {
            bytes = writer.withLockedValue { $0.paint([CellPlacement(image: image, x: 0, y: 0)]) }
        } else {
            bytes = PlaybackGeometry.inPlaceBytes(image, insideTmux: insideTmux)
        }
        TerminalOutput.write(bytes)
        totals.withLockedValue {
            $0.bytesWritten += bytes.count
            $0.frames += 1
        }
    }

    func report(stats: PlaybackStats, info: MovieStreamInfo?, cpuSeconds: Double, round: Int, of rounds: Int,
                target: PixelSize, mode: GraphicsMode) -> String {
        let (written, shown, render, renders) = totals.value
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        let perFrame = shown > 0 ? written / shown : 0
        let achieved = stats.wallTime > 0 ? Double(stats.framesShown) / stats.wallTime : 0
        let total = stats.framesShown + stats.framesDropped
        let droppedPercent = total > 0 ? 100 * Double(stats.framesDropped) / Double(total) : 0
        var lines = [
            "play\(rounds > 1 ? " \(round)/\(rounds)" : ""): \(info.map { "\($0.codecName) \($0.codedSize)" } ?? "?") -> \(area.columns)x\(area.rows) cells \(mode.rawValue) (decoded at \(target))",
            "  frames shown \(stats.framesShown), dropped \(stats.framesDropped) (\(f(droppedPercent, 2)) %)",
            "  source fps \(info?.averageFrameRate.map { f($0, 2) } ?? "?"), achieved fps \(f(achieved, 2))",
            "  bytes per frame \(perFrame) (total \(written))",
            "  cpu per frame \(f(shown > 0 ? cpuSeconds * 1000 / Double(shown) : 0, 2)) ms (getrusage, all threads); render \(f(renders > 0 ? render * 1000 / Double(renders) : 0, 2)) ms",
            "  first frame after \(stats.firstFrameLatency.map { f($0 * 1000) + " ms" } ?? "-")",
        ]
        lines.append("  decode avg \(f(stats.averageDecodeTime * 1000, 2)) ms, max \(f(stats.maximumDecodeTime * 1000, 2)) ms; wall \(f(stats.wallTime, 3)) s")
        return lines.joined(separator: "\n")
    }
}

/// Process CPU time (user + system, all threads) from getrusage.
private struct CPUUsage {
    var seconds: Double
    static func now() -> CPUUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1_000_000 }
        return CPUUsage(seconds: s(usage.ru_utime) + s(usage.ru_stime))
    }
}

/// Raw writes to stdout (unbuffered, whole buffer), and the terminal put back on Ctrl-C.
private enum TerminalOutput {
    private static let gone = Locked(false)

    /// A write failed for good (EIO: the terminal is gone; or any error but EINTR/EAGAIN): playback stops.
    static var isGone: Bool { gone.value }

    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let n = Glibc.write(STDOUT_FILENO, base + offset, raw.count - offset)
                if n <= 0 {
                    if errno == EINTR { continue }
                    // A full non-blocking pipe drops this frame; anything else means nobody reads any more.
                    if n < 0, errno != EAGAIN { gone.set(true) }
                    return
                }
                offset += n
            }
        }
    }

    static func installRestoreOnInterrupt() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                let reset: StaticString = "\u{1B}[0m\u{1B}[?25h\n"
                _ = Glibc.write(STDOUT_FILENO, reset.utf8Start, reset.utf8CodeUnitCount)
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
