import Foundation
import Library
import LivePairing

extension BrowserState {
    /// The items a batch action works on: the marked ones (in display order), else the selected one.
    public var triageTargets: [LibraryItem] {
        if !triage.marks.isEmpty { return triage.marks.selected(from: allItems) }
        return selectedItem.map { [$0] } ?? []
    }

    /// After a scan: forget marks of items that are gone, load ratings and flags from the sidecars.
    mutating func triageAfterScan() -> [BrowserEffect] {
        triage.marks.keepOnly(allItems.map(\.id))
        return allItems.isEmpty ? [] : [.triage(.loadStates(allItems))]
    }

    /// Space in the export dialog previews the item under the dialog's cursor (the playback seam).
    mutating func triagePlayPressed() -> [BrowserEffect]? {
        guard let dialog = triage.exportDialog, triage.prompt == nil else { return nil }
        guard let item = dialog.currentItem, item.kind.isLive || item.kind == .video, !isPlayPressed else { return [] }
        isPlayPressed = true
        return [.startPlayback(itemID: item.id)]
    }

    mutating func reduceTriage(_ action: TriageAction) -> [BrowserEffect] {
        switch action {
        case .toggleMark:
            guard let item = selectedItem else { break }
            triage.marks.toggle(item.id)
            // Marking moves on, so a row is marked with repeated `m`.
            selectIndex(selection + 1)
        case .markAll:
            triage.marks.markAll(items.map(\.id))
            message = "\(triage.marks.count) marked"
        case .markNone:
            triage.marks.clear()
            message = "no marks"
        case .invertMarks:
            triage.marks.invert(within: items.map(\.id))
            message = "\(triage.marks.count) marked"
        case .rate(let stars):
            return setTriageState(describing: stars == 0 ? "unrated" : String(repeating: "★", count: stars)) {
                TriageState(rating: stars, flag: $0.flag == .reject ? .none : $0.flag)
            }
        case .pick, .reject:
            // A toggle: on for every target unless the first one already has it, then off for all.
            let flag: TriageFlag
            if case .pick = action { flag = .pick } else { flag = .reject }
            let turnOn = triageTargets.first.map { triage.state(of: $0.id).flag != flag } ?? false
            return setTriageState(describing: turnOn ? (flag == .pick ? "picked" : "rejected") : "flag cleared") {
                TriageState(rating: $0.rating, flag: turnOn ? flag : ($0.flag == flag ? .none : $0.flag))
            }
        case .trash:
            let targets = triageTargets
            guard !targets.isEmpty else { break }
            triage.prompt = TriagePrompt(.confirmTrash(targets), label: "Trash \(Self.describe(targets))? y/N ")
        case .undo:
            guard let undo = triage.lastUndo else { message = "nothing to undo"; break }
            // One undo per trash: what cannot come back (something new at its path) is reported and stays
            // in the trash, where a file manager can still restore it.
            triage.lastUndo = nil
            return [.triage(.restore(undo))]
        case .copy, .move:
            let targets = triageTargets
            guard !targets.isEmpty else { break }
            let isMove: Bool = if case .move = action { true } else { false }
            triage.prompt = TriagePrompt(.transferDestination(targets, move: isMove),
                                         label: "\(isMove ? "Move" : "Copy") \(Self.describe(targets)) to: ",
                                         text: triage.lastDirectory)
        case .export:
            let targets = triageTargets
            guard !targets.isEmpty else { break }
            triage.exportDialog = ExportDialog(items: targets)
        case .rotate(let adjustment):
            // The marked items, else the selected one, like every batch action.
            let targets = triageTargets
            guard !targets.isEmpty else { break }
            let what = Self.describe(targets)
            let direction = adjustment == .rotateCounterclockwise ? "left" : adjustment == .rotateClockwise ? "right" : adjustment.rawValue
            triage.prompt = TriagePrompt(.confirmRotate(targets, adjustment),
                                         label: "Rotate \(what) \(direction) in place? y/N ")
        case .filterMenu:
            triage.prompt = TriagePrompt(.filterMenu, label: TriagePrompt.filterMenuLabel)
        case .ignored:
            break
        case .promptInput(let character):
            triage.prompt?.text.append(character)
        case .promptBackspace:
            if triage.prompt?.text.isEmpty == false { triage.prompt?.text.removeLast() }
        case .promptClear:
            triage.prompt?.text = ""
        case .promptCancel:
            triage.prompt = nil
        case .promptCommit:
            return commitPrompt()
        case .answer(let yes):
            return answerPrompt(yes)
        case .filterChoice(let key):
            triage.prompt = nil
            guard let filter = TriageSession.filter(forMenuKey: key) else { message = "no such filter"; break }
            triage.filter = filter
            refilter()
        case .dialogMove(let delta):
            triage.exportDialog?.moveCursor(by: delta)
        case .dialogSetChoice(let choice, let forAll):
            triage.exportDialog?.setChoice(choice, forAll: forAll)
        case .dialogToggleChoice:
            triage.exportDialog?.toggleCurrent()
        case .dialogCommit:
            guard triage.exportDialog != nil else { break }
            triage.prompt = TriagePrompt(.exportDestination, label: "Export to: ", text: triage.lastDirectory)
        case .dialogCancel:
            triage.exportDialog = nil
            return stopPreview()
        case .cancelExport:
            guard triage.isExporting else { break }
            return [.triage(.cancelExport)]
        case .result(let result):
            return apply(result)
        }
        return []
    }

    /// Ratings and flags go to every target (the marked items, else the selected one), each written to its
    /// own sidecar; with several, the status bar says what happened to how many.
    private mutating func setTriageState(describing what: String, _ change: (TriageState) -> TriageState)
        -> [BrowserEffect]
    {
        let targets = triageTargets
        var effects: [BrowserEffect] = []
        for item in targets {
            let new = change(triage.state(of: item.id))
            triage.states[item.id] = new
            effects.append(.triage(.writeState(new, item)))
        }
        if targets.count > 1 { message = "\(targets.count) items \(what)" }
        refilter()
        return effects
    }

    private mutating func commitPrompt() -> [BrowserEffect] {
        guard let prompt = triage.prompt else { return [] }
        let directory = prompt.text.trimmingCharacters(in: .whitespaces)
        switch prompt.purpose {
        case .transferDestination(let targets, let move):
            guard !directory.isEmpty else { message = "type a directory"; return [] }
            triage.prompt = nil
            triage.lastDirectory = directory
            message = "\(move ? "moving" : "copying") \(Self.describe(targets))…"
            return [.triage(.transfer(targets, directory: directory, move: move))]
        case .exportDestination:
            guard !directory.isEmpty else { message = "type a directory"; return [] }
            guard let dialog = triage.exportDialog else { triage.prompt = nil; return [] }
            triage.prompt = nil
            triage.exportDialog = nil
            triage.lastDirectory = directory
            triage.isExporting = true
            triage.activity = "exporting…"
            return stopPreview() + [.triage(.export(items: dialog.entries.map(\.item), choices: dialog.entries.map(\.choice),
                                                    destination: directory))]
        default:
            return answerPrompt(true)
        }
    }

    private mutating func answerPrompt(_ yes: Bool) -> [BrowserEffect] {
        guard let prompt = triage.prompt else { return [] }
        triage.prompt = nil
        guard yes else { message = "cancelled"; return [] }
        switch prompt.purpose {
        case .confirmTrash(let targets):
            return [.triage(.trash(targets))]
        case .confirmRotate(let targets, let adjustment):
            return targets.map { .triage(.rotate($0, adjustment)) }
        case .confirmStillCopy(let item, let adjustment):
            return [.triage(.rotatedStillCopy(item, adjustment))]
        case .transferDestination, .exportDestination, .filterMenu:
            return []
        }
    }

    private mutating func stopPreview() -> [BrowserEffect] {
        guard isPlayPressed else { return [] }
        isPlayPressed = false
        return [.stopPlayback]
    }

    private mutating func apply(_ result: TriageResult) -> [BrowserEffect] {
        switch result {
        case .statesLoaded(let states):
            triage.states.merge(states) { _, loaded in loaded }
            refilter()
        case .stateNotSaved(let id, let state, let error):
            triage.states[id] = state
            refilter()
            message = error
        case .trashed(let undo, let text):
            if !undo.isEmpty { triage.lastUndo = undo }
            message = text
            return [.startScan]
        case .offerConvertToStill(let item, let adjustment, let reason):
            triage.prompt = TriagePrompt(.confirmStillCopy(item, adjustment),
                                         label: "The movie cannot be rotated (\(reason)). Convert to a rotated still copy? y/N ")
        case .progress(let text):
            triage.activity = text
        case .finished(let text, let filesChanged):
            if triage.isExporting { triage.isExporting = false; triage.activity = nil }
            message = text
            return filesChanged ? [.startScan] : []
        }
        return []
    }

    /// "train.jpg (still + movie)" for one item, "3 items" for several.
    static func describe(_ items: [LibraryItem]) -> String {
        guard items.count == 1, let item = items.first else { return "\(items.count) items" }
        return item.movie != nil && item.still != nil ? "\(item.displayName) (still + movie)" : item.displayName
    }
}
