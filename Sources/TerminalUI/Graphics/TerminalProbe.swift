import Concurrent
import Foundation
import TerminalGraphics
import TerminalProtocol

/// Asks the terminal once, at start-up, what it can do (ARCHITECTURE.md example 6): sends the kitty graphics
/// query, `CSI 16 t`, `CSI 14 t`, then DA1, and reads until the DA1 reply (every terminal answers it, and
/// in order, so nothing arrives after it) or the deadline. The decoding and the decision are pure
/// (TerminalProtocol's `InputDecoder` and `TerminalReplies`, `TerminalCapabilities.detect`); this is the only
/// part that touches the tty.
enum TerminalProbe {
    /// What the start-up reads leave for the loop. Loop-bound, not `Locked`: the browser's thread makes the
    /// reads before its first turn and takes their results in it; no other thread may touch them.
    private struct StartupReads {
        var lastReplies: TerminalReplies?
        var typedAhead: [KeyEvent] = []
        var decoder = InputDecoder()
    }
    private static let startup = LoopBound(StartupReads())

    /// The replies of the probe this process already made (nil: none made): the kitty keyboard check reads
    /// its answer from here instead of asking again.
    static var lastReplies: TerminalReplies? { startup.value.lastReplies }

    /// - Parameter passthroughDepth: inside tmux with passthrough on, the queries are wrapped this many
    ///   times so the terminal outside tmux answers (tmux 3.3a forwards its replies to the pane); the kitty
    ///   keyboard query is left out (tmux itself never passes key-up events).
    /// - Parameter kittyGraphics: send the kitty graphics query (not where tmux would show it as the pane
    ///   title: `TerminalReplies.mayAskKittyGraphicsUnwrapped`).
    static func query(timeoutMilliseconds: Int = 200, input: Int32 = STDIN_FILENO,
                      output: Int32 = STDOUT_FILENO, passthroughDepth: Int = 0,
                      kittyGraphics: Bool = true) -> TerminalReplies {
        guard isatty(input) == 1, isatty(output) == 1 else { return .none }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return .none }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return .none }
        defer { tcsetattr(input, TCSANOW, &saved) }

        let probe = passthroughDepth > 0
            ? TmuxPassthrough.wrap(Array(TerminalReplies.passthroughProbeSequence.utf8), depth: passthroughDepth)
            : Array(TerminalReplies.probe(kittyGraphics: kittyGraphics, keyboard: true).utf8)
        let sent = probe.withUnsafeBytes { write(output, $0.baseAddress!, $0.count) }
        guard sent == probe.count else { return .none }

        var replies = TerminalReplies()
        _ = readReplies(input: input, timeoutMilliseconds: timeoutMilliseconds) { replies.record($0) }
        if replies.cellPixelSize == nil { replies.cellPixelSize = cellSizeFromWindowSize(output) }
        // Only a probe the terminal answered (DA1 arrived) can stand in for a later keyboard query.
        if replies.primaryDeviceAttributes != nil { startup.withValue { $0.lastReplies = replies } }
        return replies
    }

    /// Asks the terminal whether it shows 24-bit colour (`TruecolorQuery`), before curses starts; the
    /// evidence in words, or nil (no such answer, or no answer before the deadline).
    static func queryTruecolor(timeoutMilliseconds: Int = 200, input: Int32 = STDIN_FILENO,
                               output: Int32 = STDOUT_FILENO) -> String? {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(input, TCSANOW, &saved) }
        let query = Array(TruecolorQuery.sequence.utf8)
        let sent = query.withUnsafeBytes { write(output, $0.baseAddress!, $0.count) }
        guard sent == query.count else { return nil }
        let events = readReplies(input: input, timeoutMilliseconds: timeoutMilliseconds) {
            if case .primaryDeviceAttributes = $0 { return true }
            return false
        }
        let bodies = events.compactMap { event -> String? in
            if case .deviceControlReply(let body) = event { return body }
            return nil
        }
        return TruecolorQuery.evidence(inDeviceControlReplies: bodies)
    }

    /// The one reader of terminal replies at start-up (this probe and the kitty keyboard check): reads what
    /// arrives on `input` and decodes it with TerminalProtocol's `InputDecoder`, the decoder the main input
    /// loop uses, until `isComplete` accepts an event (the DA1 reply, which every terminal sends last) or
    /// `timeoutMilliseconds` pass. Returns every event decoded. Keys typed meanwhile are kept in `typedAhead`
    /// for the main loop's first turns (they were read from the tty, so curses will never see them).
    /// It runs only before curses' first read (docs/ARCHITECTURE.md, "one tty reader").
    static func readReplies(input: Int32 = STDIN_FILENO, timeoutMilliseconds: Int,
                            until isComplete: (InputEvent) -> Bool) -> [InputEvent] {
        let events = readEvents(input: input, timeoutMilliseconds: timeoutMilliseconds, until: isComplete)
        startup.withValue { $0.typedAhead += events.compactMap(\.typedKey) }
        return events
    }

    /// The keys typed during the start-up probes, in order, once (the main loop acts on them before curses'
    /// input).
    static func takeTypedAhead() -> [KeyEvent] {
        startup.withValue { reads in
            defer { reads.typedAhead = [] }
            return reads.typedAhead
        }
    }

    /// The start-up decoder with what it still holds, once (the main input reader continues with it). What it
    /// holds when the start-up reads end (a reply whose end is late) is the beginning of the main reader's
    /// input: `TerminalInputReader` takes it over, so the rest of that reply, whenever it comes, completes it
    /// instead of being read as keys (issue 31).
    static func takeDecoder() -> InputDecoder {
        startup.withValue { reads in
            defer { reads.decoder = InputDecoder() }
            return reads.decoder
        }
    }

    private static func readEvents(input: Int32, timeoutMilliseconds: Int,
                                   until isComplete: (InputEvent) -> Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var bytesRead = 0
        let deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
        var buffer = [UInt8](repeating: 0, count: 512)
        while bytesRead < 16_384 {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0 else { break }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, left) > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
            // 0 or an error: the terminal is gone (or never answers); the main reader finds out and ends.
            guard count > 0 else { break }
            bytesRead += count
            // Keys typed right after the last reply may share its read: the whole read is decoded and kept.
            var complete = false
            let decoded = startup.withValue { $0.decoder.feed(Array(buffer.prefix(count))) }
            for event in decoded {
                events.append(event)
                if !complete, isComplete(event) { complete = true }
            }
            if complete { break }
        }
        // A fragment left pending is neither dropped nor flushed into keys: at the deadline it is more likely
        // the start of a late reply than an Esc the user typed, and its end may come later (`takeDecoder`).
        return events
    }

    /// The cell size from the kernel's window size when the terminal fills in its pixel fields (many do).
    static func cellSizeFromWindowSize(_ fd: Int32) -> PixelSizeInCells? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0,
              size.ws_xpixel > 0, size.ws_ypixel > 0 else { return nil }
        let cell = PixelSizeInCells(width: Int(size.ws_xpixel) / Int(size.ws_col),
                                    height: Int(size.ws_ypixel) / Int(size.ws_row))
        return cell.width > 0 && cell.height > 0 ? cell : nil
    }
}
