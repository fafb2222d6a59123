import BrowserCore
import BrowserRuntime
import CNCurses
import Foundation
import LivePairing
import TerminalGraphics
import TerminalProtocol
import VideoPlayback

/// The browser's side of press-and-hold playback: turns the play events the input reader decoded (kitty
/// keyboard protocol with real key-up, mouse press/release, plain keys otherwise) into `.playInput` actions
/// (it reads nothing itself: `TerminalInputReader` owns the tty), and carries
/// out the playback effects on the engine (`PlaybackController`), reporting back as `.playback(...)` actions.
/// The state machine itself (hold, hint timer, LIVE OFF memory, phase) is `BrowserState.playback`, changed
/// only by the reducer: nothing here writes the state.
final class BrowserPlayback {
    let controller: PlaybackController
    private let trace: EventTrace?
    /// True when the terminal reports key releases (kitty keyboard protocol).
    let kittyKeys: Bool

    /// `pixels`/`badge`: the grid's pixel protocol and badge, so movie frames are drawn like its pictures.
    /// `post`: reports from the engine's threads; `wake`: wakes the event loop (each new movie frame).
    /// `kittyKeys`: the input reader gets key releases. `link`: what the terminal takes (frames are sized to it).
    init(session: CursesSession, kittyKeys kitty: Bool, pixels: PixelOutput? = nil, badge: BadgePainter? = nil,
         post: @escaping @Sendable (BrowserAction) -> Void, wake: @escaping @Sendable () -> Void,
         link: (@Sendable () -> ThroughputWindow.Estimate?)? = nil) {
        let trace = EventTrace()
        self.trace = trace
        controller = PlaybackController(depth: session.colorDecision?.depth, pixels: pixels, badge: badge, trace: trace,
                                        wake: wake, notify: { post(.showMessage($0)) },
                                        onEnd: { itemID, failure in
                                            post(.playback(failure.map { .failed(itemID: itemID, $0) }
                                                           ?? .ended(itemID: itemID)))
                                        },
                                        soundNote: { post(.playback(.soundNote($0))) },
                                        soundPlaying: { post(.playback(.soundPlaying)); wake() },
                                        link: link)
        kittyKeys = kitty
        trace?.log("input \(kitty ? HoldSource.kittyKeys.rawValue : HoldSource.keyRepeat.rawValue)")
    }

    func shutdown() {
        controller.stop()
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
    func start(_ item: LibraryItem, shownID: ItemID, purpose: PlaybackPurpose, state: BrowserState) -> [BrowserAction] {
        guard let rect = state.selectedPictureRect else {
            return [.playback(.refused(itemID: shownID, .tooSmall))]
        }
        let enginePurpose: PlaybackController.Purpose = purpose == .hold ? .hold : .hint
        if let failure = controller.start(item, as: shownID, purpose: enginePurpose, columns: rect.width, rows: rect.height) {
            return [.playback(.refused(itemID: shownID, failure))]
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
        controller.setSound(state.playback.soundEnabled)
        guard let current = controller.current else {
            // Resting on a local item with a movie (Live or Motion Photo, video): its sound track is opened
            // before the press (a cheap check per turn; a remote item's movie is a download away, and plays
            // from a copy with other paths).
            if state.remote == nil, let item = state.selectedItem { controller.prepareSound(for: item) }
            return []
        }
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
