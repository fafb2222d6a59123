import BrowserCore
import BrowserRuntime
import CNCurses
import Concurrent
import Foundation
import TerminalProtocol

/// The kitty keyboard protocol (https://sw.kovidgoyal.net/kitty/keyboard-protocol/): with it the terminal
/// reports key releases, so "hold Space" ends the moment Space comes up instead of after auto-repeat stops.
///
/// Detected at start-up by asking `CSI ? u` (flags) followed by DA1 `CSI c`, which every terminal answers:
/// a flags reply before the DA1 reply means the protocol is there. When it is, flags 11 are pushed
/// (disambiguate 1 | event types 2 | all keys as escapes 8: text keys like Space only report releases with
/// 8) and popped on every way out: normal exit, Ctrl-Z (pushed again on resume), fatal signals.
/// The flags live per screen (main / alternate), so push happens after curses entered the alternate screen.
enum KittyKeyboard {
    static let pushFlags = TerminalSequences.kittyKeyboardPush
    static let popFlags = TerminalSequences.kittyKeyboardPop
    static let query = TerminalSequences.kittyKeyboardQuery

    // Signal-safe cells, not `Locked`: the Ctrl-Z and fatal-signal handlers read and write them.
    /// True while flags are pushed; read by signal handlers.
    static let isPushed = SignalSafeFlag(false)
    /// Set by the Ctrl-Z handler: the loop pushes again after the terminal is back.
    static let needsRepush = SignalSafeFlag(false)
    private static let previousStopHandler = SignalHandlerSlot()

    /// Makes the cells above before any handler can read them (`CursesSession.prepareSignalCells`).
    static func prepareSignalCells() {
        _ = (isPushed.load(), needsRepush.load(), previousStopHandler.callable())
    }

    /// Asks the terminal; reads replies until the DA1 answer or `timeout` seconds. Keys typed meanwhile
    /// are kept for the main loop (`TerminalProbe.takeTypedAhead`). Curses must be set up (cbreak, before its
    /// first read).
    static func detect(window: UnsafeMutablePointer<WINDOW>, timeout: Double = 0.15) -> Bool {
        guard RuntimeEnvironment.launch.kittyKeysAllowed else { return false }
        // The graphics probe at start-up asked `CSI ? u` too: no second round trip to the terminal.
        if let probed = TerminalProbe.lastReplies { return probed.keyboardProtocolFlags != nil }
        refresh()
        writeRaw(query)
        // Curses is in cbreak mode: the replies are read straight from the tty by the start-up reply reader
        // (curses has read nothing yet), and decoded by TerminalProtocol's InputDecoder.
        var supported = false
        _ = TerminalProbe.readReplies(timeoutMilliseconds: Int(timeout * 1000)) { event in
            switch event {
            case .keyboardProtocolFlags: supported = true
            case .primaryDeviceAttributes: return true
            default: break
            }
            return false
        }
        return supported
    }

    /// Pushes flags 11 and hooks Ctrl-Z / resume so the flags follow the process.
    static func push() {
        writeRaw(pushFlags)
        isPushed.store(true)
        installSuspendHooks()
    }

    /// Pops the flags if pushed. Async-signal-safe (one write(2)).
    static func pop() {
        guard isPushed.exchange(false) else { return }
        popForSignal()
    }

    /// For signal handlers: writes the pop sequence without touching anything else.
    static func popForSignal() {
        let bytes: StaticString = "\u{1B}[<u"
        _ = write(STDOUT_FILENO, bytes.utf8Start, bytes.utf8CodeUnitCount)
    }

    /// Called each loop turn: after a resume the flags are pushed again (the screen was left and entered).
    static func repushIfNeeded() {
        guard needsRepush.exchange(false) else { return }
        writeRaw(pushFlags)
        isPushed.store(true)
    }

    private static func installSuspendHooks() {
        // ncurses installed its SIGTSTP handler (leave curses, stop, repaint on resume) in initscr: pop first,
        // then hand over to it; SIGCONT asks the loop to push again.
        let previous = CursesSession.installWithoutRestart(SIGTSTP) { received in
            if KittyKeyboard.isPushed.exchange(false) {
                KittyKeyboard.popForSignal()
                KittyKeyboard.needsRepush.store(true)
            }
            if let previous = KittyKeyboard.previousStopHandler.callable() {   // not SIG_DFL / SIG_IGN
                previous(received)
            } else {
                signal(SIGTSTP, SIG_DFL)
                raise(SIGTSTP)
            }
        }
        previousStopHandler.store(previous)
    }

    static func writeRaw(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            _ = write(STDOUT_FILENO, base, raw.count)
        }
    }
}
