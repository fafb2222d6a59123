import Library
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
    /// A key that a prompt or dialog swallows without meaning anything.
    case ignored

    // The one-line prompt (directory entry, y/N questions, the filter menu).
    case promptInput(Character)
    case promptBackspace
    /// Ctrl-U: clear the typed text (as in a shell).
    case promptClear
    case promptCommit
    case promptCancel
    case answer(Bool)
    case filterChoice(Character)

    // The export dialog.
    case dialogMove(Int)
    case dialogSetChoice(ExportChoice, forAll: Bool)
    case dialogToggleChoice
    case dialogCommit
    case dialogCancel
    case cancelExport

    /// Background work finished or progressed.
    case result(TriageResult)
}

/// What the front end reports back from a `TriageRequest`.
public enum TriageResult: Sendable {
    case statesLoaded([String: TriageState])
    /// A rating or flag could not be written: the state read back from disk (or unrated) and why.
    case stateNotSaved(itemID: String, state: TriageState, error: String)
    case trashed(ItemFileOperations.TrashUndo, message: String)
    case offerConvertToStill(LibraryItem, Adjustment, reason: String)
    /// Export progress for the status bar.
    case progress(String)
    /// A finished operation: the line for the status bar, and whether files changed so a rescan is due.
    case finished(message: String, filesChanged: Bool)
}

/// File work the reducer asks the front end to run off the draw loop.
public enum TriageRequest: Sendable, Equatable {
    case loadStates([LibraryItem])
    case writeState(TriageState, LibraryItem)
    case trash([LibraryItem])
    case restore(ItemFileOperations.TrashUndo)
    case transfer([LibraryItem], directory: String, move: Bool)
    /// In place, confirmed by the user.
    case rotate(LibraryItem, Adjustment)
    /// The movie cannot turn: export the still beside the original, then turn that copy.
    case rotatedStillCopy(LibraryItem, Adjustment)
    case export(items: [LibraryItem], choices: [ExportChoice], destination: String)
    case cancelExport
}
