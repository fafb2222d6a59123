import BrowserCore
import CNCurses
import Foundation
import LivePairing
import TerminalGraphics
import VideoPlayback

/// The browser's press-and-hold playback, in one place the event loop calls into: input (kitty keyboard
/// protocol with real key-up, mouse press/release, auto-repeat inference otherwise), the player, the
/// "hint of movement" after an item stays selected, and LIVE OFF for items that cannot play.
final class BrowserPlayback {
    /// Seconds an item stays selected before its hint plays.
    static let hintDelay = 1.0

    let controller: PlaybackController
    private var hold: PlayHoldInput
    private var raw: RawInputReader?
    private let trace: EventTrace?
    private let hintsEnabled: Bool
    private let post: @Sendable (BrowserAction) -> Void
    /// The selection the hint timer runs for, since when, and whether its hint already played.
    private var hintCandidate: (itemID: String, since: Double, done: Bool)?

    /// `pixels`/`badge`: the grid's pixel protocol and badge, so movie frames are drawn like its pictures.
    /// `wake`: wakes the event loop (each new movie frame).
    init(session: CursesSession, mouse: Bool, hints: Bool, pixels: PixelOutput? = nil, badge: BadgePainter? = nil,
         post: @escaping @Sendable (BrowserAction) -> Void, wake: @escaping @Sendable () -> Void) {
        let trace = EventTrace()
        self.trace = trace
        self.post = post
        hintsEnabled = hints
        controller = PlaybackController(depth: session.colorDecision?.depth, pixels: pixels, badge: badge, trace: trace,
                                        wake: wake, notify: { message in
                                            // The hold is over for the state too, so its release cannot clear the message.
                                            post(.playReleased)
                                            post(.showMessage(message))
                                        })
        let kitty = KittyKeyboard.detect(window: session.window)
        if kitty {
            KittyKeyboard.push()
            raw = RawInputReader(window: session.window, mouse: mouse)
        }
        hold = PlayHoldInput(kittyKeys: kitty)
        trace?.log("input \(hold.keySource.rawValue)")
    }

    /// Leaves the terminal as it was (flags popped, SGR mouse off); CursesSession.restore does the same on
    /// fatal paths.
    func shutdown() {
        controller.stop()
        if raw != nil { RawInputReader.restoreMouse() }
        KittyKeyboard.pop()
    }

    /// The next moment a timer of playback needs the loop (an auto-repeat hold that may have ended, the hint
    /// of movement coming due), or nil. Movie frames wake the loop themselves.
    var nextDeadline: Double? {
        let hold = self.hold.nextDeadline
        // A hint already due that could not start (a remote copy not here yet, a hold playing) waits for the
        // event that changes that, not for a timer (it would fire at once, again and again).
        let hint = hintDue.flatMap { $0 > MonotonicClock.now() ? $0 : nil }
        return [hold, hint].compactMap { $0 }.min()
    }

    private var hintDue: Double? {
        guard hintsEnabled, let candidate = hintCandidate, !candidate.done else { return nil }
        return candidate.since + Self.hintDelay
    }

    /// Reads the input already there (the loop waited for it in `LoopWait`): curses' decoder normally, raw
    /// bytes through InputDecoder with the kitty protocol. Also picks up a pending resize (curses reports
    /// SIGWINCH as a key).
    func readEvents(session: CursesSession) -> [TerminalEvent] {
        guard var reader = raw else {
            var events: [TerminalEvent] = []
            while let next = session.readEvent(timeoutMilliseconds: 0) { events.append(next) }
            return events
        }
        defer { raw = reader }
        return reader.read(timeoutMilliseconds: 0).compactMap { input in
            switch input {
            case .resize: return .resize(session.size)
            case .event(.key(let key)):
                // All keys arrive as escapes, Ctrl-C and Ctrl-Z included: give them their usual meaning.
                if key.modifiers == .ctrl, key.type == .press, case .character(let c) = key.key {
                    if c == "c" { raise(SIGINT); return nil }
                    if c == "z" { raise(SIGTSTP); return nil }
                }
                guard let legacy = key.keyInput else { return nil }
                return .keyEvent(legacy, key.type)
            case .event(.mouse(let mouse)):
                switch (mouse.button, mouse.kind) {
                case (.left, .press): return .mouse(x: mouse.column, y: mouse.row, kind: .press)
                case (.left, .release), (.none, .release): return .mouse(x: mouse.column, y: mouse.row, kind: .release)
                case (.wheelUp, _): return .mouse(x: mouse.column, y: mouse.row, kind: .wheelUp)
                case (.wheelDown, _): return .mouse(x: mouse.column, y: mouse.row, kind: .wheelDown)
                default: return nil
                }
            case .event: return nil
            }
        }
    }

    /// The actions for an input event that concerns playback (play key, mouse button 1), or nil for the
    /// usual handling.
    func actions(for event: TerminalEvent, state: BrowserState, keymap: Keymap) -> [BrowserAction]? {
        let now = MonotonicClock.now()
        switch event {
        case .key(let key):
            guard isPlayKey(key, state: state, keymap: keymap) else { return nil }
            trace?.log("key play press")
            return guarded(hold.playKey(.press, now: now), state: state)
        case .keyEvent(let key, let type):
            if isPlayKey(key, state: state, keymap: keymap) {
                trace?.log("key play \(type)")
                return guarded(hold.playKey(type, now: now), state: state)
            }
            // Other keys: presses and repeats act (navigation repeats), releases do nothing.
            guard type != .release, let action = keymap.action(for: key, in: state) else { return [] }
            return [action]
        case .mouse(let x, let y, .press):
            trace?.log("mouse press")
            let index = state.mode == .viewer ? state.selection
                : state.layout.index(atX: x, y: y, scrollRow: state.scrollRow, itemCount: state.items.count)
            return guarded(hold.mouseDown(x: x, y: y, index: index, state: state, now: now), state: state)
        case .mouse(_, _, .release):
            trace?.log("mouse release")
            return guarded(hold.mouseUp(now: now, mode: state.mode), state: state)
        default:
            return nil
        }
    }

    /// Timers: an auto-repeat hold whose repeats stopped ends.
    func tick(state: BrowserState) -> [BrowserAction] {
        guarded(hold.tick(now: MonotonicClock.now()), state: state)
    }

    /// A LIVE OFF item does not play: its reason goes to the status bar instead; a release with nothing
    /// playing is dropped (it would clear that message).
    private func guarded(_ actions: [BrowserAction], state: BrowserState) -> [BrowserAction] {
        var selected = state.selectedItem
        return actions.compactMap { action in
            switch action {
            case .select(let index):
                selected = state.items.indices.contains(index) ? state.items[index] : nil
                return action
            case .playPressed:
                if let item = selected, let reason = controller.liveOffReason(for: item) {
                    return .showMessage("LIVE OFF: \(reason)")
                }
                return action
            case .playReleased:
                return state.isPlayPressed || controller.current?.purpose == .hold ? action : nil
            default:
                return action
            }
        }
    }

    private func isPlayKey(_ key: KeyInput, state: BrowserState, keymap: Keymap) -> Bool {
        guard !state.isEditingFilter, case .playPressed? = keymap.action(for: key, in: state) else { return false }
        return true
    }

    // MARK: - effects

    /// `.startPlayback`: plays the item in its picture area (grid cell or viewer).
    /// `item` is what plays (a remote item's downloaded copy); `shownID` is the item the grid shows.
    func startHold(_ item: LibraryItem, shownID: String, state: inout BrowserState) {
        hintCandidate?.done = true
        guard let rect = Self.pictureRect(state) else {
            state.message = "LIVE OFF here: \(PlaybackFailure.tooSmall)"
            return
        }
        if let failure = controller.start(item, as: shownID, purpose: .hold, columns: rect.width, rows: rect.height) {
            state.message = "LIVE OFF: \(failure)"
        }
    }

    /// `.stopPlayback`: back to the key photo at once.
    func stopHold() {
        if controller.current?.purpose == .hold { controller.stop() }
    }

    /// After the actions of a loop turn: playback follows the selection, the hint timer runs.
    func update(state: BrowserState) {
        KittyKeyboard.repushIfNeeded()
        let selected = state.mode == .help ? nil : state.selectedItem
        if let current = controller.current, current.itemID != selected?.id {
            controller.stop()
        }
        if !state.isPlayPressed, controller.current?.purpose == .hold { controller.stop() }
        // A resize or zoom moved the picture: its frames no longer fit, back to the key photo.
        if let area = controller.area, let rect = Self.pictureRect(state), (area.columns, area.rows) != (rect.width, rect.height) {
            controller.stop()
        }
        guard let item = selected, item.kind.isLive else {
            hintCandidate = nil
            return
        }
        let now = MonotonicClock.now()
        if hintCandidate?.itemID != item.id { hintCandidate = (item.id, now, false) }
        guard hintsEnabled, let due = hintDue, now >= due, !state.isPlayPressed, !controller.isActive else { return }
        // A remote item plays its downloaded copy: until both halves are here there is nothing to hint with
        // (and trying would remember a false failure). The hint waits for it while the item stays selected.
        guard let playable = state.playableItem(id: item.id) else { return }
        hintCandidate?.done = true
        guard controller.liveOffReason(for: playable) == nil, let rect = Self.pictureRect(state) else { return }
        controller.start(playable, as: item.id, purpose: .hint, columns: rect.width, rows: rect.height)
    }

    /// For the renderer: the frame to draw instead of the key photo, and its number.
    func picture(for item: LibraryItem, in rect: CellRect) -> (image: RenderedImage, serial: Int)? {
        controller.frame(for: item.id, columns: rect.width, rows: rect.height)
    }

    /// For the status bar while a hold plays: which input tells when it ends.
    var statusNote: String? {
        guard controller.current?.purpose == .hold else { return nil }
        return "◎ hold: \((hold.activeSource ?? hold.keySource).rawValue)"
    }

    func didDraw() { controller.didDraw() }

    /// Where the selected item's picture is drawn: its grid cell, or the viewer's picture area.
    static func pictureRect(_ state: BrowserState) -> CellRect? {
        let layout = state.layout
        switch state.mode == .help ? state.modeBeforeHelp : state.mode {
        case .viewer:
            return viewerPictureRect(state)
        default:
            guard !layout.isList else { return nil }
            return layout.pictureRect(index: state.selection, scrollRow: state.scrollRow)
        }
    }

    /// The viewer's picture area: the content minus the info panel and the caption line.
    static func viewerPictureRect(_ state: BrowserState) -> CellRect? {
        let content = state.layout.content
        guard content.height >= 2 else { return nil }
        let infoWidth = state.showsInfo ? min(48, max(20, content.width / 2)) : 0
        return CellRect(x: content.x, y: content.y, width: content.width - infoWidth, height: content.height - 1)
    }
}
