import LibraryCore
import TerminalProtocol

/// Keys while a triage prompt or the export dialog is open: they take every key, so typing a directory
/// never moves the grid.
public enum TriageKeys {
    /// The action for `key` when triage is modal; nil when it is not (the normal keymap applies).
    public static func modalAction(for key: KeyInput, in state: BrowserState) -> BrowserAction? {
        if let prompt = state.triage.prompt {
            return .triage(promptAction(for: key, prompt: prompt))
        }
        if state.triage.exportDialog != nil {
            return dialogAction(for: key)
        }
        if state.triage.isBusyWithFiles, key == .escape { return .triage(.cancelExport) }
        return nil
    }

    private static func promptAction(for key: KeyInput, prompt: TriagePrompt) -> TriageAction {
        if prompt.isYesNo {
            if case .character(let c) = key, c == "y" || c == "Y" { return .answer(true) }
            return .answer(false)
        }
        if case .filterMenu = prompt.purpose {
            if case .character(let c) = key { return .filterChoice(c) }
            return .promptCancel
        }
        switch key {
        case .enter: return .promptCommit
        case .escape: return .promptCancel
        case .backspace: return .promptBackspace
        case .tab: return .promptComplete
        case .right, .end: return .promptKeepText
        case .character("\u{15}"): return .promptClear
        case .character(let c) where !c.isControl: return .promptInput(c)
        default: return .ignored
        }
    }

    private static func dialogAction(for key: KeyInput) -> BrowserAction {
        switch key {
        case .up, .character("k"): return .triage(.dialogMove(-1))
        case .down, .character("j"): return .triage(.dialogMove(1))
        case .pageUp: return .triage(.dialogMove(-10))
        case .pageDown: return .triage(.dialogMove(10))
        case .character("l"): return .triage(.dialogSetChoice(.livePhoto, forAll: false))
        case .character("s"): return .triage(.dialogSetChoice(.stillPhoto, forAll: false))
        case .character("L"): return .triage(.dialogSetChoice(.livePhoto, forAll: true))
        case .character("S"): return .triage(.dialogSetChoice(.stillPhoto, forAll: true))
        case .tab: return .triage(.dialogToggleChoice)
        case .character("g"): return .triage(.dialogToggleStripLocation)
        // Loop, bounce, GIF, long exposure: previewed at once, written only after Enter.
        case .character("e"): return .studio(.dialogCycleEffect)
        // Holding the play key previews the item under the cursor (the playback seam).
        case .character(" "): return .playPressed
        case .enter: return .triage(.dialogCommit)
        case .escape, .character("q"): return .triage(.dialogCancel)
        default: return .triage(.ignored)
        }
    }

    /// The triage action of a keymap command, or nil for commands that are not triage's.
    static func action(for command: KeyCommand) -> TriageAction? {
        switch command {
        case .mark: return .toggleMark
        case .markAll: return .markAll
        case .markNone: return .markNone
        case .markInvert: return .invertMarks
        case .rate0: return .rate(0)
        case .rate1: return .rate(1)
        case .rate2: return .rate(2)
        case .rate3: return .rate(3)
        case .rate4: return .rate(4)
        case .rate5: return .rate(5)
        case .pick: return .pick
        case .reject: return .reject
        case .trash: return .trash
        case .undo: return .undo
        case .copy: return .copy
        case .move: return .move
        case .export: return .export
        case .rotateLeft: return .rotate(.rotateCounterclockwise)
        case .rotateRight: return .rotate(.rotateClockwise)
        case .triageFilter: return .filterMenu
        case .onMarked: return .actOnMarked
        case .markRange: return .markRange
        case .showLocation: return .toggleLocation
        default: return nil
        }
    }

    /// Actions the prefix (`;`) can direct at the marked items.
    static func actsOnMarks(_ action: TriageAction) -> Bool {
        switch action {
        case .rate, .pick, .reject, .trash, .copy, .move, .export, .rotate: return true
        default: return false
        }
    }

    /// Default keys of the triage commands (merged into the keymap's defaults).
    static let defaultBindings: [(KeyCommand, [KeyInput])] = [
        (.mark, [.character("m")]),
        (.markAll, [.character("M")]),
        (.markNone, [.character("U")]),
        (.markInvert, [.character("I")]),
        (.rate0, [.character("0")]), (.rate1, [.character("1")]), (.rate2, [.character("2")]),
        (.rate3, [.character("3")]), (.rate4, [.character("4")]), (.rate5, [.character("5")]),
        (.pick, [.character("p")]),
        (.reject, [.character("x")]),
        (.trash, [.character("d"), .delete]),
        (.undo, [.character("u")]),
        (.copy, [.character("c")]),
        (.move, [.character("v")]),
        (.export, [.character("e")]),
        (.rotateLeft, [.character("[")]),
        (.rotateRight, [.character("]")]),
        (.triageFilter, [.character("f")]),
        (.onMarked, [.character(";")]),
        (.markRange, [.character("V")]),
        (.showLocation, [.character("L")]),
    ]

    /// Help screen rows for the triage commands: a label and the commands whose keys it lists.
    public static let helpRows: [(String, [KeyCommand])] = [
        ("Mark / next", [.mark]), ("Mark range", [.markRange]), ("Mark all", [.markAll]),
        ("Mark none", [.markNone]), ("Invert marks", [.markInvert]),
        ("Rating 0-5", [.rate0, .rate1, .rate2, .rate3, .rate4, .rate5]), ("Pick", [.pick]), ("Reject", [.reject]),
        ("…on marked", [.onMarked]), ("Trash", [.trash]), ("Undo", [.undo]),
        ("Copy to…", [.copy]), ("Move to…", [.move]), ("Export…", [.export]), ("Rotate left", [.rotateLeft]),
        ("Rotate right", [.rotateRight]), ("Filter menu", [.triageFilter]), ("Show location", [.showLocation]),
    ]
}
