import BrowserCore
import BrowserRuntime
import CNCurses
import Foundation
import LivePairing
import TerminalGraphics
import TerminalProtocol
import VideoPlayback

/// The browser's side of press-and-hold playback: reads the input (kitty keyboard protocol with real key-up,
/// mouse press/release, curses keys otherwise) and turns play events into `.playInput` actions, and carries
/// out the playback effects on the engine (`PlaybackController`), reporting back as `.playback(...)` actions.
/// The state machine itself (hold, hint timer, LIVE OFF memory, phase) is `BrowserState.playback`, changed
/// only by the reducer: nothing here writes the state.
final class BrowserPlayback {
    let controller: PlaybackController
    private var raw: RawInputReader?
    private let trace: EventTrace?
    /// True when the terminal reports key releases (kitty keyboard protocol).
    let kittyKeys: Bool

    /// `pixels`/`badge`: the grid's pixel protocol and badge, so movie frames are drawn like its pictures.
    /// `post`: reports from the engine's threads; `wake`: wakes the event loop (each new movie frame).
    init(session: CursesSession, mouse: Bool, pixels: PixelOutput? = nil, badge: BadgePainter? = nil,
         post: @escaping @Sendable (BrowserAction) -> Void, wake: @escaping @Sendable () -> Void) {
        let trace = EventTrace()
        self.trace = trace
        controller = PlaybackController(depth: session.colorDecision?.depth, pixels: pixels, badge: badge, trace: trace,
                                        wake: wake, notify: { _ in },
                                        onEnd: { itemID, failure in
                                            post(.playback(failure.map { .failed(itemID: itemID, reason: $0.description) }
                                                           ?? .ended(itemID: itemID)))
                                        })
        let kitty = KittyKeyboard.detect(window: session.window)
        if kitty {
            KittyKeyboard.push()
            raw = RawInputReader(window: session.window, mouse: mouse)
        }
        kittyKeys = kitty
        trace?.log("input \(kitty ? HoldSource.kittyKeys.rawValue : HoldSource.keyRepeat.rawValue)")
    }

    /// Leaves the terminal as it was (flags popped, SGR mouse off); CursesSession.restore does the same on
    /// fatal paths.
    func shutdown() {
        controller.stop()
        if raw != nil { RawInputReader.restoreMouse() }
        KittyKeyboard.pop()
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
    /// usual handling. `now`: the loop's clock, stamped on the input for the reducer's hold detection.
    func actions(for event: TerminalEvent, state: BrowserState, keymap: Keymap, now: Double) -> [BrowserAction]? {
        switch event {
        case .key(let key):
            guard isPlayKey(key, state: state, keymap: keymap) else { return nil }
            trace?.log("key play press")
            return [.playInput(.key(.press), at: now)]
        case .keyEvent(let key, let type):
            if isPlayKey(key, state: state, keymap: keymap) {
                trace?.log("key play \(type)")
                return [.playInput(.key(type), at: now)]
            }
            // Other keys: presses and repeats act (navigation repeats), releases do nothing.
            guard type != .release, let action = keymap.action(for: key, in: state) else { return [] }
            return [action]
        case .mouse(let x, let y, .press):
            trace?.log("mouse press")
            let index = state.mode == .viewer ? state.selection
                : state.layout.index(atX: x, y: y, scrollRow: state.scrollRow, itemCount: state.items.count)
            return [.playInput(.mouseDown(x: x, y: y, index: index), at: now)]
        case .mouse(_, _, .release):
            trace?.log("mouse release")
            return [.playInput(.mouseUp, at: now)]
        default:
            return nil
        }
    }

    private func isPlayKey(_ key: KeyInput, state: BrowserState, keymap: Keymap) -> Bool {
        guard !state.isEditingFilter, case .playPressed? = keymap.action(for: key, in: state) else { return false }
        return true
    }

    // MARK: - effects

    /// `.startPlayback` / `.startHint`: plays `item` (what plays: a remote item's downloaded copy) in the
    /// picture area of `shownID` (grid cell or viewer). Returns the engine's refusal, if any, as a report.
    func start(_ item: LibraryItem, shownID: String, purpose: PlaybackPurpose, state: BrowserState) -> [BrowserAction] {
        guard let rect = state.selectedPictureRect else {
            return [.playback(.refused(itemID: shownID, reason: PlaybackFailure.tooSmall.description, permanent: false))]
        }
        let enginePurpose: PlaybackController.Purpose = purpose == .hold ? .hold : .hint
        if let failure = controller.start(item, as: shownID, purpose: enginePurpose, columns: rect.width, rows: rect.height) {
            return [.playback(.refused(itemID: shownID, reason: failure.description, permanent: failure.isPermanent))]
        }
        return []
    }

    /// `.stopPlayback`: back to the key photo at once.
    func stop() -> [BrowserAction] {
        controller.stop()
        return [.playback(.stopped)]
    }

    /// After the actions of a loop turn: the engine follows the state (it plays only what the state says
    /// plays, in the picture area the state has), and the first frame is reported.
    func update(state: BrowserState) -> [BrowserAction] {
        KittyKeyboard.repushIfNeeded()
        guard let current = controller.current else { return [] }
        let phase = state.playback.phase
        guard phase.isActive, phase.itemID == current.itemID else {
            controller.stop()
            return []
        }
        // A resize or zoom moved the picture: its frames no longer fit, back to the key photo.
        if let area = controller.area, let rect = state.selectedPictureRect, (area.columns, area.rows) != (rect.width, rect.height) {
            controller.stop()
            return [.playback(.ended(itemID: current.itemID))]
        }
        if case .loading = phase, controller.hasFrame { return [.playback(.firstFrame(itemID: current.itemID))] }
        return []
    }

    /// For the renderer: the frame to draw instead of the key photo, and its number.
    func picture(for item: LibraryItem, in rect: CellRect) -> (image: RenderedImage, serial: Int)? {
        controller.frame(for: item.id, columns: rect.width, rows: rect.height)
    }

    func didDraw() { controller.didDraw() }
}
