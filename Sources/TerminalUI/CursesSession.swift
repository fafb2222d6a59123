import BrowserRuntime
import CNCurses
import Concurrent
import Foundation
import MediaFormats
import BrowserCore
import TerminalGraphics
import TerminalProtocol

/// An input event, as `TerminalInputReader` hands it to the loop.
enum TerminalEvent {
    case key(KeyInput)
    /// A key with its event type (press / repeat / release), from the kitty keyboard protocol.
    case keyEvent(KeyInput, KeyEventType)
    case resize(TerminalSize)
    case mouse(x: Int, y: Int, kind: MouseKind)
    /// The tty is gone (EOF, EIO, POLLHUP): nobody can type or see anything any more.
    case hangup

    var isHangup: Bool {
        if case .hangup = self { return true }
        return false
    }
}

enum MouseKind {
    case click
    /// Button 1 down and up, reported separately so a held button can play (a quick pair is a click).
    case press
    case release
    /// Button 1 moved while held (reported only while the viewer is zoomed: xterm's mode 1002).
    case drag
    case wheelUp
    case wheelDown
}

/// Owns the terminal while the browser runs: full-screen setup, input, and restoring the terminal on every
/// way out (normal exit, thrown error, Ctrl-C, SIGTERM, a crash signal).
final class CursesSession {
    let colors: CursesColors
    let window: UnsafeMutablePointer<WINDOW>
    /// The colour decision as the pictures use it (lowered to what curses can send); nil = no colours.
    let colorDecision: ColorDepthDecision?

    /// - Parameter colorDecision: `TerminalColorChoice.decide`'s answer. Curses starts with a terminfo entry
    ///   that can send those colours (`TerminalColorChoice.cursesTerminal`): TERM=xterm has colors#8, and
    ///   ncurses cannot send 256 colours through it.
    init(mouse: Bool, colorDecision decided: ColorDepthDecision, term: String) throws {
        setlocale(LC_ALL, "")
        let (entry, decision) = TerminalColorChoice.cursesTerminal(for: decided, term: term)
        guard Self.start(terminal: entry) || Self.start(terminal: nil), let screen = lg_stdscr() else {
            throw TerminalUIError.cannotInitialise
        }
        window = screen
        Self.prepareSignalCells()
        Self.installSignalHandlers()
        Self.hookResume()
        Self.hookResize()
        cbreak()
        Self.takeSuspendKey()
        noecho()
        nonl()
        // Keys are decoded by TerminalInputReader (keypad off), not by curses.
        intrflush(screen, false)
        set_escdelay(25)
        curs_set(0)
        leaveok(screen, true)
        var depth = CursesColorDepth.monochrome
        if has_colors() {
            start_color()
            use_default_colors()
            depth = CursesColorDepth(colorCount: Int(lg_colors()), hasRGBFlag: tigetflag("RGB") > 0)
        }
        var pictureDecision: ColorDepthDecision?
        if let cursesCan = depth.renderDepth {
            var shown = decision
            if cursesCan.colorCount < decision.depth.colorCount {
                shown.depth = cursesCan
                shown.reason += "; curses can send \(cursesCan.displayName) only"
            }
            pictureDecision = shown
        }
        colorDecision = pictureDecision
        colors = CursesColors(depth: depth, pictureDepth: pictureDecision?.depth)
        if mouse {
            let mask = lg_button1_clicked() | lg_button1_pressed() | lg_button1_released() | lg_button1_double_clicked()
                | lg_button4_pressed() | lg_button5_pressed()
            mousemask(mask, nil)
            mouseinterval(0)
        }
    }

    deinit { Self.restore() }

    /// Leaves curses (alternate screen off, cursor on, modes reset). Safe to call more than once.
    static func restore() {
        if isendwin() == false {
            KittyKeyboard.pop()
            curs_set(1)
            endwin()
        }
    }

    var size: TerminalSize {
        TerminalSize(columns: Int(lg_getmaxx(window)), rows: Int(lg_getmaxy(window)))
    }

    /// Starts curses on stdin/stdout with terminfo entry `terminal` (nil: $TERM). Unlike initscr, a missing
    /// entry is a `false`, not an exit.
    private static func start(terminal: String?) -> Bool {
        let screen: OpaquePointer? = terminal.flatMap { $0.isEmpty ? nil : $0 }.map { name in
            name.withCString { newterm($0, stdout, stdin) }
        } ?? newterm(nil, stdout, stdin)
        guard let screen else { return false }
        set_term(screen)
        def_prog_mode()   // what initscr does after newterm: endwin/refresh toggle back into this mode
        return true
    }

    /// Ctrl-C, SIGTERM, SIGHUP and crash signals restore the terminal before the process ends, so the user
    /// never lands in a shell without echo inside the alternate screen. (Ctrl-Z is handled by ncurses
    /// itself: it leaves curses on stop and repaints on resume.)
    /// Set when the process continues after Ctrl-Z (the user typed `fg`). ncurses repaints the text itself,
    /// but pictures sent with a pixel protocol are gone from the terminal: the loop takes this flag and sends
    /// them again.
    /// Signal-safe cells, not `Locked`: the Ctrl-Z and SIGWINCH handlers below read and write them.
    static let resumedFromStop = SignalSafeFlag(false)
    private static let cursesStopHandler = SignalHandlerSlot()
    private static let cursesResizeHandler = SignalHandlerSlot()

    /// True once after each resume.
    static func takeResumed() -> Bool {
        resumedFromStop.exchange(false)
    }

    /// Touches every signal-safe cell the handlers read before they are installed: a `static let` is made on
    /// first use (through swift_once in debug builds), and a first use inside a handler that interrupted that
    /// very initialisation on the same thread would deadlock.
    private static func prepareSignalCells() {
        _ = (resumedFromStop.load(), cursesStopHandler.callable(), cursesResizeHandler.callable(), TemporaryFileRegistry.isEnding)
        KittyKeyboard.prepareSignalCells()
        LoopWake.prepareForSignals()
    }

    /// Makes Ctrl-Z arrive as a key instead of the tty's SIGTSTP, and saves that as curses' program mode.
    /// The tty sends its SIGTSTP to the whole process: it may land on any thread that does not block it
    /// (libraries' own threads) while the main thread draws, and ncurses ignores SIGTSTP for the length of
    /// each `doupdate` (it sets SIG_IGN there), so a Ctrl-Z pressed mid-update was lost (seen in end-to-end
    /// tests about once in a few hundred). Read as a key, the main loop raises SIGTSTP on itself between two
    /// updates. endwin restores the shell's modes (with its suspend key); `kill -TSTP` still works.
    private static func takeSuspendKey() {
        var modes = termios()
        guard tcgetattr(STDIN_FILENO, &modes) == 0 else { return }
        withUnsafeMutableBytes(of: &modes.c_cc) { characters in
            characters[Int(VSUSP)] = 0   // _POSIX_VDISABLE on Linux
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &modes) == 0 else { return }
        def_prog_mode()
    }

    /// Installs `handler` without SA_RESTART and returns the handler it replaces: a read(2) or poll(2)
    /// the signal interrupted then returns, so the event loop wakes up and sees what the handler set.
    @discardableResult
    static func installWithoutRestart(_ signalNumber: Int32, _ handler: @convention(c) (Int32) -> Void)
        -> (@convention(c) (Int32) -> Void)?
    {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(signalNumber, &action, &previous)
        return previous.__sigaction_handler.sa_handler
    }

    /// Wraps ncurses's Ctrl-Z handler (installed by initscr: leave curses, stop, repaint on resume). When it
    /// returns the process has been continued.
    private static func hookResume() {
        let stop = installWithoutRestart(SIGTSTP) { received in
            if let previous = CursesSession.cursesStopHandler.callable() {
                previous(received)   // returns after SIGCONT
            }
            CursesSession.resumedFromStop.store(true)
            LoopWake.wakeFromSignal()
        }
        cursesStopHandler.store(stop)
    }

    /// Wraps ncurses's SIGWINCH handler (it only sets a flag that the next read turns into KEY_RESIZE) so the
    /// sleeping event loop wakes: a signal landing just before `poll()` would otherwise wait for the next key.
    static func hookResize() {
        let resize = installWithoutRestart(SIGWINCH) { received in
            if let previous = CursesSession.cursesResizeHandler.callable() {
                previous(received)
            }
            LoopWake.wakeFromSignal()
        }
        cursesResizeHandler.store(resize)
    }

    private static func installSignalHandlers() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { received in
                TemporaryFileRegistry.removeAllForSignal()   // no half-written file or half pair left behind
                if KittyKeyboard.isPushed.load() { KittyKeyboard.popForSignal() }
                endwin()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
        for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP] {
            signal(signalNumber) { received in
                if KittyKeyboard.isPushed.load() { KittyKeyboard.popForSignal() }
                endwin()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}

public enum TerminalUIError: Error, CustomStringConvertible {
    case cannotInitialise
    case notATerminal
    /// The terminal went away under livegrid (EOF or EIO on it): the exit status says so.
    case terminalGone
    public var description: String {
        switch self {
        case .terminalGone: return "the terminal went away (end of input on it); livegrid stopped"
        case .cannotInitialise: return "cannot initialise the terminal (is TERM set?)"
        case .notATerminal: return "livegrid browse needs a terminal; use `livegrid scan` for plain output"
        }
    }
}
