import BrowserCore
import BrowserRuntime
import CNCurses
import Foundation
import TerminalProtocol

/// The browser's one reader of the tty (issue 27.4, 31, 32.1). Every byte the terminal sends goes through one
/// `InputDecoder` that lives for the whole session (it starts with the start-up probe's unfinished bytes), so a
/// reply to a probe is recognised whenever it arrives and however it is split, and never becomes keys.
/// Curses' own key decoding (keypad) is off: ncurses knows only the sequences its terminfo entry lists, and
/// handed the bytes of every other one (a late `ESC _ G i=31;OK ESC \`) over as keys. Curses still reports a
/// resize (SIGWINCH) as KEY_RESIZE through the same read.
///
/// A terminal that is gone (EOF or EIO on the tty, POLLHUP/POLLERR/POLLNVAL) is reported as `.hangup`:
/// the user cannot come back to this tty, and without that the loop woke on it forever (issue 32.1).
final class TerminalInputReader {
    private var decoder: InputDecoder
    private let window: UnsafeMutablePointer<WINDOW>
    private let input: Int32
    /// True when the terminal reports key releases (kitty keyboard protocol, flags pushed).
    let kittyKeys: Bool
    private let mouse: Bool
    /// Whether button-1 motion is reported now (nil: unknown, after a suspend).
    private var reportsButtonMotion: Bool? = false
    /// The link meter: the cursor position reports (its round trip's replies) are handed to it with the time
    /// they were read, never to the loop as keys.
    private let meter: TerminalThroughput?

    /// Asks for the kitty keyboard protocol (its answer is normally already in from the start-up probe) and
    /// pushes its flags when the terminal speaks it; switches SGR mouse reports on (curses no longer decodes
    /// the mouse).
    init(window: UnsafeMutablePointer<WINDOW>, mouse: Bool, input: Int32 = STDIN_FILENO, meter: TerminalThroughput? = nil) {
        self.window = window
        self.meter = meter
        self.input = input
        self.mouse = mouse
        let kitty = KittyKeyboard.detect(window: window)
        if kitty { KittyKeyboard.push() }
        kittyKeys = kitty
        decoder = TerminalProbe.takeDecoder()
        keypad(window, false)
        if mouse { KittyKeyboard.writeRaw(TerminalSequences.sgrMouseOn) }
    }

    /// Leaves the terminal's input modes as they were: SGR mouse off, kitty flags popped (CursesSession.restore
    /// and the signal handlers pop the flags on the other ways out; endwin switches the mouse off). Writes to a
    /// terminal that is gone fail; that is fine.
    func shutdown() {
        if mouse, reportsButtonMotion != false { KittyKeyboard.writeRaw(TerminalSequences.buttonMotionOff) }
        if mouse { KittyKeyboard.writeRaw(TerminalSequences.sgrMouseOff) }
        KittyKeyboard.pop()
    }

    /// Motion reports while button 1 is held (drag to pan the zoomed viewer), only while they are wanted: with
    /// them on, a held button reports every cell it crosses, which the grid and the fitted viewer have no use
    /// for. Writes only when the mode changes; `again` after a resume, when curses set the mouse up anew.
    func reportButtonMotion(_ wanted: Bool, again: Bool = false) {
        guard mouse else { return }
        if again { reportsButtonMotion = nil }
        guard reportsButtonMotion != wanted else { return }
        KittyKeyboard.writeRaw(wanted ? TerminalSequences.buttonMotionOn : TerminalSequences.buttonMotionOff)
        reportsButtonMotion = wanted
    }

    /// Takes everything already there (the loop waited for it in `LoopWait`) and decodes it. An unfinished
    /// sequence that just came waits up to 25 ms for its end; then only a lone ESC becomes the Escape key (a late
    /// reply's beginning stays in the decoder until its end comes).
    func readEvents(size: () -> TerminalSize) -> [TerminalEvent] {
        var (bytes, resized) = drain(waitingMilliseconds: 0)
        let direct = readDirectly()
        if case .bytes(let more) = direct { bytes += more }
        var decoded = decoder.feed(bytes)
        handOverReplies(decoded, readAt: meter?.now)
        // Only bytes that just came wait for their end here: a reply's beginning held since an earlier turn
        // costs no turn a wait.
        if !bytes.isEmpty, decoder.hasPending {
            let (more, _) = drain(waitingMilliseconds: 25)
            let late = more.isEmpty ? decoder.flushPending() : decoder.feed(more)
            handOverReplies(late, readAt: meter?.now)
            decoded += late
        }
        var events = decoded.flatMap(loopEvents(for:))
        if resized { events.append(.resize(size())) }
        if case .gone = direct { events.append(.hangup) }
        return events
    }

    /// The round trip's replies go to the meter, stamped with the time their bytes were read.
    private func handOverReplies(_ events: [InputEvent], readAt: Double?) {
        guard let meter, let readAt else { return }
        for event in events { if case .cursorPosition = event { meter.replyArrived(at: readAt) } }
    }

    /// On quit with the meter's query in flight: its reply is read (up to `seconds`) before the terminal is given
    /// back, so that it never reaches the shell as typed text. Keys typed meanwhile are dropped: livegrid is quitting.
    func awaitMeterReply(seconds: Double) {
        guard let meter, meter.isQueryInFlight else { return }
        let deadline = meter.now + seconds
        while meter.isQueryInFlight, meter.now < deadline {
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let wait = Int32(max(1, (deadline - meter.now) * 1000))
            guard poll(&descriptor, 1, wait) > 0, Int32(descriptor.revents) & Int32(POLLIN) != 0 else { return }
            guard case .bytes(let bytes) = readDirectly() else { return }
            handOverReplies(decoder.feed(bytes), readAt: meter.now)
        }
    }

    /// Reads through curses (keypad off: plain bytes, and KEY_RESIZE after a SIGWINCH) until nothing is left.
    private func drain(waitingMilliseconds: Int32) -> (bytes: [UInt8], resized: Bool) {
        var bytes: [UInt8] = []
        var resized = false
        wtimeout(window, waitingMilliseconds)
        var next = wgetch(window)
        while next != ERR {
            if next == lg_key_resize() { resized = true } else if (0...255).contains(next) { bytes.append(UInt8(next)) }
            wtimeout(window, 0)
            next = wgetch(window)
        }
        return (bytes, resized)
    }

    private enum DirectRead {
        case nothing
        case bytes([UInt8])
        /// EOF, EIO, POLLHUP/POLLERR/POLLNVAL.
        case gone
    }

    /// After curses read everything (its ERR says nothing about why): a tty that hung up, or that still polls
    /// ready and gives 0 bytes or an error, is gone. Bytes that came after curses' last read are kept (curses
    /// reads one byte at a time and holds none back once it returned ERR, so their order is kept).
    private func readDirectly() -> DirectRead {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return .nothing }
        let revents = Int32(descriptor.revents)
        if revents & (Int32(POLLHUP) | Int32(POLLERR) | Int32(POLLNVAL)) != 0 { return .gone }
        guard revents & Int32(POLLIN) != 0 else { return .nothing }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
        if count > 0 { return .bytes(Array(buffer.prefix(count))) }
        if count < 0, errno == EINTR || errno == EAGAIN { return .nothing }
        return .gone
    }

    /// What the loop sees of a decoded event. Replies and unknown bytes are dropped here: they are the
    /// terminal's answers, not the user's keys.
    private func loopEvents(for decoded: InputEvent) -> [TerminalEvent] {
        guard let event = event(for: decoded) else { return [] }
        // Without the kitty protocol, ESC and a key in one read (Alt-key, or Esc then a key typed fast, pasted,
        // or in one ssh packet) are Escape then the key, as they were when curses read them: Esc leaves the
        // prompt before the key acts.
        if !kittyKeys, case .key(let key) = decoded, key.modifiers.contains(.alt) { return [.key(.escape), event] }
        return [event]
    }

    private func event(for decoded: InputEvent) -> TerminalEvent? {
        switch decoded {
        case .key(let key):
            // With all keys as escapes (kitty flags 8), Ctrl-C and Ctrl-Z come as keys: give them their usual
            // meaning. Without, Ctrl-Z is read as a key too (`CursesSession.takeSuspendKey`).
            if key.modifiers == .ctrl, key.type == .press, case .character(let c) = key.key {
                if c == "c", kittyKeys { raise(SIGINT); return nil }
                if c == "z" { raise(SIGTSTP); return nil }
            }
            guard let legacy = key.keyInput else { return nil }
            return kittyKeys ? .keyEvent(legacy, key.type) : .key(legacy)
        case .mouse(let mouse):
            switch (mouse.button, mouse.kind) {
            case (.left, .press): return .mouse(x: mouse.column, y: mouse.row, kind: .press)
            case (.left, .release), (.none, .release): return .mouse(x: mouse.column, y: mouse.row, kind: .release)
            case (.left, .motion): return .mouse(x: mouse.column, y: mouse.row, kind: .drag)
            case (.wheelUp, _): return .mouse(x: mouse.column, y: mouse.row, kind: .wheelUp)
            case (.wheelDown, _): return .mouse(x: mouse.column, y: mouse.row, kind: .wheelDown)
            default: return nil
            }
        default:
            return nil
        }
    }
}
