import Foundation
import Library
import LivePairing

extension BrowserState {
    /// The items a file action (trash, copy, move, export, rotate) works on: the marked ones (in display
    /// order), else the selected one. Its prompt names them ("3 marked items"), so the choice is explicit.
    public var triageTargets: [LibraryItem] {
        if !triage.marks.isEmpty { return markedItems }
        return selectedItem.map { [$0] } ?? []
    }

    /// Every marked item in display order (also those a filter hides).
    public var markedItems: [LibraryItem] { triage.marks.selected(from: allItems) }

    /// The info panel's lines for `item`: description, location (hidden unless asked for), rating and flag.
    public func infoPanelLines(for item: LibraryItem) -> [(label: String, value: String)] {
        let location: ItemDescription.LocationDisplay
        if !triage.showsLocation {
            location = .hidden
        } else {
            location = .shown(triage.locations[item.id] ?? "reading…")
        }
        return ItemDescription.infoLines(for: item, location: location) + triage.infoLines(for: item)
    }

    /// After a scan: forget marks of items that are gone, load ratings and flags from the sidecars.
    mutating func triageAfterScan() -> [BrowserEffect] {
        // Ids are made on demand (LibraryItem keeps a folder and a name): none at all without marks.
        if !triage.marks.isEmpty { triage.marks.keepOnly(allItems.lazy.map(\.id)) }
        return allItems.isEmpty ? [] : [.triage(.loadStates(allItems))]
    }

    /// Space in the export dialog previews the item under the dialog's cursor (the playback seam).
    mutating func triagePlayPressed() -> [BrowserEffect]? {
        guard let dialog = triage.exportDialog, triage.prompt == nil else { return nil }
        guard let item = dialog.currentItem, item.kind.isLive || item.kind == .video, !isPlayPressed else { return [] }
        return beginHold(item)
    }

    mutating func reduceTriage(_ action: TriageAction) -> [BrowserEffect] {
        // The prefix lasts for exactly one key.
        let onMarked = triage.actsOnMarked
        switch action {
        case .result, .actOnMarked: break
        default: triage.actsOnMarked = false
        }
        switch action {
        case .actOnMarked:
            guard !triage.marks.isEmpty else { message = "no marked items (m marks, M marks all)"; break }
            triage.actsOnMarked = true
            message = "on \(Self.count(triage.marks.count, "marked item")): 0-5 rate · p pick · x reject · "
                + "d trash · c copy · v move · e export · [ ] rotate · Esc cancels"
        case .cancelActOnMarked:
            message = "cancelled (nothing done to the marked items)"
        case .toggleMark:
            guard let item = selectedItem else { break }
            triage.marks.toggle(item.id)
            let marked = triage.marks.contains(item.id)
            if marked { triage.rangeAnchor = item.id }
            message = "\(marked ? "marked" : "unmarked") \(item.displayName) · \(triage.marks.count) marked"
            // Marking moves on, so a row is marked with repeated `m`.
            selectIndex(selection + 1)
        case .markRange:
            markRange()
        case .toggleLocation:
            return toggleLocation()
        case .markAll:
            triage.marks.markAll(items.map(\.id))
            message = "\(triage.marks.count) marked"
        case .markNone:
            triage.marks.clear()
            triage.rangeAnchor = nil
            message = "no marks"
        case .invertMarks:
            triage.marks.invert(within: items.map(\.id))
            message = "\(triage.marks.count) marked"
        case .rate(let stars):
            let what = stars == 0 ? "unrated" : String(repeating: "★", count: stars)
            return setTriageState(onMarked: onMarked, verb: stars == 0 ? "unrated" : "rated", what: what) {
                TriageState(rating: stars, flag: $0.flag == .reject ? .none : $0.flag)
            }
        case .pick, .reject:
            // A toggle: on unless the cursor item (or the first marked one) already has it, then off.
            let flag: TriageFlag
            if case .pick = action { flag = .pick } else { flag = .reject }
            let targets = onMarked ? markedItems : selectedItem.map { [$0] } ?? []
            let turnOn = targets.first.map { triage.state(of: $0.id).flag != flag } ?? false
            let verb = turnOn ? (flag == .pick ? "picked" : "rejected") : (flag == .pick ? "unpicked" : "unrejected")
            return setTriageState(onMarked: onMarked, verb: verb, what: turnOn ? (flag == .pick ? "⚑" : "✗") : "") {
                TriageState(rating: $0.rating, flag: turnOn ? flag : ($0.flag == flag ? .none : $0.flag))
            }
        case .trash:
            let targets = fileTargets(onMarked)
            guard !targets.isEmpty else { break }
            triage.prompt = TriagePrompt(.confirmTrash(targets), label: "Trash \(describeTargets(targets))? y/N ")
        case .undo:
            guard let undo = triage.lastUndo else { message = "nothing to undo"; break }
            // One undo per operation: what cannot go back (something new at its path, a copy changed since)
            // is reported and left as it is.
            triage.lastUndo = nil
            switch undo {
            case .trash(let trash):
                message = "restoring \(Self.count(trash.records.count, "item")) from the trash…"
                return [.triage(.restore(trash))]
            case .transfer(let transfer):
                message = (transfer.isMove ? "moving back " : "removing the copies of ")
                    + Self.count(transfer.items.count, "item") + "…"
                return [.triage(.undoTransfer(transfer))]
            }
        case .copy, .move:
            let targets = fileTargets(onMarked)
            guard !targets.isEmpty else { break }
            let isMove: Bool = if case .move = action { true } else { false }
            triage.prompt = TriagePrompt(.transferDestination(targets, move: isMove),
                                         label: "\(isMove ? "Move" : "Copy") \(describeTargets(targets)) to: ",
                                         text: triage.lastDirectory)
        case .export:
            let targets = fileTargets(onMarked)
            guard !targets.isEmpty else { break }
            triage.exportDialog = ExportDialog(items: targets, stripLocation: triage.stripLocationByDefault)
        case .rotate(let adjustment):
            // The marked items, else the selected one; the question names which.
            let targets = fileTargets(onMarked)
            guard !targets.isEmpty else { break }
            let what = describeTargets(targets)
            let direction = adjustment == .rotateCounterclockwise ? "left" : adjustment == .rotateClockwise ? "right" : adjustment.rawValue
            triage.prompt = TriagePrompt(.confirmRotate(targets, adjustment),
                                         label: "Rotate \(what) \(direction) in place? y/N ")
        case .filterMenu:
            triage.prompt = TriagePrompt(.filterMenu, label: TriagePrompt.filterMenuLabel)
        case .ignored:
            break
        case .promptInput(let character):
            triage.prompt?.type(character)
        case .promptBackspace:
            triage.prompt?.backspace()
        case .promptClear:
            triage.prompt?.clear()
        case .promptKeepText:
            triage.prompt?.keepText()
        case .promptComplete:
            guard var prompt = triage.prompt, prompt.takesText else { break }
            prompt.keepText()
            if prompt.cycleCompletion() {
                triage.prompt = prompt
                break
            }
            triage.prompt = prompt
            return [.triage(.completePath(prompt.text))]
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
            message = (triage.filterDescription ?? "filter off: everything shown") + " · \(Self.count(items.count, "item"))"
        case .dialogMove(let delta):
            triage.exportDialog?.moveCursor(by: delta)
        case .dialogSetChoice(let choice, let forAll):
            triage.exportDialog?.setChoice(choice, forAll: forAll)
        case .dialogToggleChoice:
            triage.exportDialog?.toggleCurrent()
        case .dialogToggleStripLocation:
            triage.exportDialog?.stripLocation.toggle()
        case .dialogCommit:
            guard triage.exportDialog != nil else { break }
            triage.prompt = TriagePrompt(.exportDestination, label: "Export to: ", text: triage.lastDirectory)
        case .dialogCancel:
            let previewing = triage.exportDialog?.preview != nil
            triage.exportDialog = nil
            return stopPreview() + (previewing ? [.studio(.stopEffectPreview)] : [])
        case .cancelExport:
            guard triage.isExporting else { break }
            return [.triage(.cancelExport)]
        case .result(let result):
            return apply(result)
        }
        return []
    }

    /// A rating or flag goes to the item under the cursor; after the prefix (`;`) to every marked item.
    /// Each is written to its own sidecar, and the status bar says what happened to which.
    private mutating func setTriageState(onMarked: Bool, verb: String, what: String,
                                         _ change: (TriageState) -> TriageState) -> [BrowserEffect] {
        let targets = onMarked ? markedItems : selectedItem.map { [$0] } ?? []
        guard !targets.isEmpty else { message = "nothing selected"; return [] }
        var effects: [BrowserEffect] = []
        for item in targets {
            let new = change(triage.state(of: item.id))
            triage.states[item.id] = new
            effects.append(.triage(.writeState(new, item)))
        }
        let suffix = what.isEmpty || what == verb ? "" : " " + what
        if onMarked {
            message = "\(verb) \(Self.count(targets.count, "marked item"))\(suffix)"
        } else if let item = targets.first {
            message = "\(verb) \(item.displayName)\(suffix)"
            let others = triage.marks.ids.subtracting([item.id]).count
            if others > 0 { message! += " · this one only (; first acts on the \(triage.marks.count) marked)" }
        }
        refilter()
        return effects
    }

    /// File actions: after the prefix the marked items; without it the marked items, else the cursor item
    /// (their prompt says which, so the user confirms the batch).
    private func fileTargets(_ onMarked: Bool) -> [LibraryItem] {
        onMarked ? markedItems : triageTargets
    }

    /// "train.jpg (still + movie)" for the cursor item, "3 marked items" for marks.
    private func describeTargets(_ targets: [LibraryItem]) -> String {
        if !triage.marks.isEmpty { return Self.count(targets.count, "marked item") }
        return Self.describe(targets)
    }

    /// Marks everything from the anchor (the last item marked with `m`, or the first `V`) to the cursor.
    private mutating func markRange() {
        guard let item = selectedItem else { return }
        guard let anchor = triage.rangeAnchor, anchor != item.id,
              let start = items.firstIndex(where: { $0.id == anchor }) else {
            triage.rangeAnchor = item.id
            triage.marks.mark(item.id)
            message = "range starts at \(item.displayName): move, then V marks up to there"
            return
        }
        let range = min(start, selection)...max(start, selection)
        for index in range { triage.marks.mark(items[index].id) }
        triage.rangeAnchor = item.id
        message = "marked \(Self.count(range.count, "item")) (\(items[range.lowerBound].displayName) to "
            + "\(items[range.upperBound].displayName)) · \(triage.marks.count) marked"
    }

    /// `L` in the info panel: coordinates are read from the file only now, and forgotten when hidden again.
    private mutating func toggleLocation() -> [BrowserEffect] {
        triage.showsLocation.toggle()
        guard triage.showsLocation else {
            triage.locations = [:]
            message = "location hidden"
            return []
        }
        if !showsInfo && mode != .help { showsInfo = true }
        message = "location shown (L hides it)"
        return []
    }

    /// After every action: while coordinates are shown, the selected item's are read (once) from its file.
    mutating func triageFollowUp() -> [BrowserEffect] {
        guard triage.showsLocation, showsInfo, let item = selectedItem, ItemDescription.hasLocation(item),
              triage.locations[item.id] == nil else { return [] }
        triage.locations[item.id] = "reading…"
        return [.triage(.readLocation(item))]
    }

    /// "1 item", "3 items".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    private mutating func commitPrompt() -> [BrowserEffect] {
        guard let prompt = triage.prompt else { return [] }
        let directory = prompt.text.trimmingCharacters(in: .whitespaces)
        switch prompt.purpose {
        case .transferDestination(let targets, let move):
            guard !directory.isEmpty else { message = "type a directory"; return [] }
            triage.prompt = nil
            let path = TriagePrompt.typedPath(directory, home: triage.home)
            triage.lastDirectory = path
            message = "\(move ? "moving" : "copying") \(Self.count(targets.count, "item")) to \(path)…"
            return [.triage(.transfer(targets, directory: path, move: move))]
        case .exportDestination:
            guard !directory.isEmpty else { message = "type a directory"; return [] }
            guard let dialog = triage.exportDialog else { triage.prompt = nil; return [] }
            triage.prompt = nil
            triage.exportDialog = nil
            let path = TriagePrompt.typedPath(directory, home: triage.home)
            triage.lastDirectory = path
            // Effects go to the studio, the rest (live, still) to the exporter as before.
            let effects = dialog.chosenEffects
            let plain = dialog.entries.filter { dialog.effects[$0.item.id] == nil }
            var requests: [BrowserEffect] = stopPreview()
            if dialog.preview != nil { requests.append(.studio(.stopEffectPreview)) }
            if !effects.isEmpty {
                message = "exporting \(Self.count(effects.count, "effect"))…"
                requests.append(.studio(.exportEffects(items: effects.map(\.item), effects: effects.map(\.effect), destination: path)))
            }
            guard !plain.isEmpty else { return requests }
            triage.isExporting = true
            triage.activity = "exporting…"
            return requests + [.triage(.export(items: plain.map(\.item), choices: plain.map(\.choice),
                                               destination: path, stripLocation: dialog.stripLocation))]
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
        stopPlaybackIfNeeded()
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
            if !undo.isEmpty { triage.lastUndo = .trash(undo) }
            message = text
            return [.startScan]
        case .transferred(let undo, let text, let filesChanged):
            if let undo, !undo.isEmpty { triage.lastUndo = .transfer(undo) }
            message = text
            return filesChanged ? [.startScan] : []
        case .completions(let typed, let candidates):
            triage.prompt?.applyCompletions(candidates, for: typed)
        case .location(let id, let text):
            if triage.showsLocation { triage.locations[id] = text }
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
