import LibraryCore
import LivePairing

/// A direction of the selection cursor.
public enum MoveDirection: Sendable, Hashable {
    case up, down, left, right
}

/// Everything that can happen to the browser: keys already translated by the keymap, mouse, resizes and
/// results of background work.
public enum BrowserAction: Sendable {
    case move(MoveDirection)
    case pageUp
    case pageDown
    case first
    case last
    case zoomIn
    case zoomOut
    case openViewer
    /// The viewer's 1:1 zoom on and off (`z`).
    case toggleViewerZoom
    /// Button 1 pressed, moved or released over the zoomed viewer: the picture follows the pointer.
    case viewerDrag(ViewerDragStep)
    case toggleInfo
    case toggleHelp
    /// Sound on or off for press and hold (`[playback] sound`, `--mute`).
    case toggleSound
    /// Esc / q outside the grid: close the topmost thing.
    case back
    case quit
    case rescan
    /// Repaint the whole terminal (Ctrl-L), after another program wrote over it.
    case redraw
    case beginFilter
    case filterInput(Character)
    case filterBackspace
    case commitFilter
    case cancelFilter
    case resize(TerminalSize)
    /// A click at a screen position (selects the item under it; a click on the selection opens it).
    case click(x: Int, y: Int)
    /// Mouse wheel: positive scrolls down.
    case scroll(rows: Int)
    case select(index: Int)
    /// The seam for press-and-hold playback: the front end sends these, a player reacts to the effects.
    case playPressed
    case playReleased
    /// Play key or button 1 as the terminal reported it, at monotonic time `at`: the reducer's hold input
    /// turns it into the actions above (and selections and clicks for the mouse).
    case playInput(PlayInput, at: Double)
    /// The loop's clock: ends auto-repeat holds whose repeats stopped, starts a hint that came due.
    case playbackTick(at: Double)
    /// What the playback engine reports back.
    case playback(PlaybackReport)
    case scanStarted
    case scanFinished(LibraryScan)
    /// A progressive scan's first items (the first screen) while the rest is still probed.
    case scanProgress(LibraryScanProgress)
    /// The scan failed: typed, so the status bar (the edge) words it.
    case scanFailed(ScanFailure)
    /// A one-line note for the status bar from background work (a cache that cannot be written...).
    case showMessage(String)
    /// Remote libraries: listing/download events and remote-only keys (`R`, `a`, Backspace).
    case remote(RemoteAction)
    /// Marks, ratings, trash, copy/move, export, rotate (BrowserCore/Triage).
    case triage(TriageAction)
    /// The viewer's key-photo mode (BrowserCore/Studio).
    case studio(StudioAction)
    /// Sort order, grouping and jump to date (BrowserCore/Views).
    case view(ViewAction)
}

/// Work the front end must do after a state change (the reducer stays pure).
public enum BrowserEffect: Sendable, Equatable {
    case startScan
    case redrawAll
    case startPlayback(itemID: ItemID)
    /// Plays the hint of movement of `itemID` (about a second, once).
    case startHint(itemID: ItemID)
    case stopPlayback
    case quit
    /// Network work for a remote library.
    case remote(RemoteEffect)
    /// File work for triage, run off the draw loop; results come back as `.triage(.result(...))`.
    case triage(TriageRequest)
    /// Frames and writes of the key-photo mode, run off the draw loop; results come back as `.studio(...)`.
    case studio(StudioRequest)
}
