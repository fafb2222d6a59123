import LibraryCore
import LivePairing

/// Triage and sharing in the browser: keys translated by the keymap, and results of the file work the
/// front end does off the draw loop (`TriageRequest`).
public enum TriageAction: Sendable {
    case toggleMark
    case markAll
    case markNone
    case invertMarks
    case rate(Int)
    case pick
    case reject
    case trash
    case undo
    case copy
    case move
    case export
    case rotate(Adjustment)
    case filterMenu
    /// The prefix (`;`): the next rating, flag or file key acts on the marked items.
    case actOnMarked
    /// A key after the prefix that has no batch meaning: the prefix is dropped.
    case cancelActOnMarked
    /// Marks every item from the range anchor (the last item marked with `m`) to the cursor.
    case markRange
    /// The info panel shows or hides the item's coordinates (hidden by default).
    case toggleLocation
    /// A key that a prompt or dialog swallows without meaning anything.
    case ignored

    // The one-line prompt (directory entry, y/N questions, the filter menu).
    case promptInput(Character)
    case promptBackspace
    /// Ctrl-U: clear the typed text (as in a shell).
    case promptClear
    case promptCommit
    case promptCancel
    /// Tab: complete the typed path (repeated: the next candidate).
    case promptComplete
    /// Right/End on a prefilled (selected) text: keep it and edit at its end.
    case promptKeepText
    case answer(Bool)
    case filterChoice(Character)

    // The export dialog.
    case dialogMove(Int)
    case dialogSetChoice(ExportChoice, forAll: Bool)
    case dialogToggleChoice
    /// Whether the export strips the location (GPS) from the new files.
    case dialogToggleStripLocation
    case dialogCommit
    case dialogCancel
    case cancelExport

    /// Background work finished or progressed.
    case result(TriageResult)
}

/// What the front end reports back from a `TriageRequest`.
public enum TriageResult: Sendable {
    case statesLoaded([ItemID: TriageState])
    /// A rating or flag could not be written: the state read back from disk (or unrated) and why.
    case stateNotSaved(itemID: ItemID, state: TriageState, TriageFailure)
    /// A rating or flag was kept in livegrid's index, not a sidecar, and why (said once per session).
    case keptInIndex(reason: String)
    case trashed(ItemFileOperations.TrashUndo, message: String)
    /// A copy or move finished: the undo of what was done (nil when nothing was), the status line.
    case transferred(ItemFileOperations.TransferUndo?, message: String, filesChanged: Bool)
    /// Directories completing `text` in a path prompt (already in the user's spelling: `~/...`).
    case completions(for: String, candidates: [String])
    /// The item's coordinates for the info panel (asked for with `L`), or why there are none.
    case location(itemID: ItemID, text: String)
    case offerConvertToStill(LibraryItem, Adjustment, AdjustmentApplier.MovieNotAdjustable)
    /// An item turned in place (undoable by the inverse turn).
    case rotated(LibraryItem, Adjustment, message: String)
    /// Something done that `u` cannot take back (a rotated still written as a new file): kept on the undo
    /// stack so that `u` says so instead of reaching past it.
    case doneWithoutUndo(summary: String, reason: String, message: String, filesChanged: Bool)
    /// Export progress for the status bar.
    case progress(String)
    /// A finished operation: the line for the status bar, and whether files changed so a rescan is due.
    case finished(message: String, filesChanged: Bool)
    /// An operation that failed as a whole (a failure of some items among others is part of `finished`).
    case failed(TriageFailure)
}

/// File work the reducer asks the front end to run off the draw loop.
public enum TriageRequest: Sendable, Equatable {
    case loadStates([LibraryItem])
    case writeState(TriageState, LibraryItem)
    /// A remote library's items: their ratings live in livegrid's index, keyed by URL (issue 31.5).
    case loadRemoteStates([RemoteTriageSubject])
    case writeRemoteState(TriageState, RemoteTriageSubject)
    case trash([LibraryItem])
    case restore(ItemFileOperations.TrashUndo)
    /// Undo of a copy (removes the unchanged copies) or a move (moves back, never over something new).
    case undoTransfer(ItemFileOperations.TransferUndo)
    /// Lists the directories that complete a typed path (Tab in a prompt).
    case completePath(String)
    /// Reads the item's coordinates (only when the user asked to see them).
    case readLocation(LibraryItem)
    case transfer([LibraryItem], directory: String, move: Bool)
    /// In place, confirmed by the user.
    case rotate(LibraryItem, Adjustment)
    /// The movie cannot turn: export the still beside the original, then turn that copy.
    case rotatedStillCopy(LibraryItem, Adjustment)
    /// Undo of rotations: each item turned back by the inverse.
    case undoRotate([LibraryItem], Adjustment)
    /// `ratings`: ratings and flags the worker cannot read from the items' files (a remote library's, kept in
    /// the index under the item's URL), by item id, written as sidecars beside the copies.
    case export(items: [LibraryItem], choices: [ExportChoice], destination: String, stripLocation: Bool,
                ratings: [ItemID: TriageState] = [:])
    /// Cancels the running export, copy or move (its current item is rolled back).
    case cancelExport
}
