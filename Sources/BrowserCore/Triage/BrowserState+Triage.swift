import Foundation
import LibraryCore
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
            return setTriageState(verb: stars == 0 ? "unrated" : "rated", what: what) {
                TriageState(rating: stars, flag: $0.flag == .reject ? .none : $0.flag)
            }
        case .pick, .reject:
            // A toggle: on unless the cursor item (or the first marked one) already has it, then off.
            let flag: TriageFlag
            if case .pick = action { flag = .pick } else { flag = .reject }
            let targets = fileTargets(onMarked)
            let turnOn = targets.first.map { triage.state(of: $0.id).flag != flag } ?? false
            let verb = turnOn ? (flag == .pick ? "picked" : "rejected") : (flag == .pick ? "unpicked" : "unrejected")
            return setTriageState(verb: verb, what: turnOn ? (flag == .pick ? "⚑" : "✗") : "") {
                TriageState(rating: $0.rating, flag: turnOn ? flag : ($0.flag == flag ? .none : $0.flag))
            }
        case .trash:
            let targets = fileTargets(onMarked)
            guard !targets.isEmpty else { break }
            triage.prompt = TriagePrompt(.confirmTrash(targets),
                                         label: "Trash \(describeTargets(targets))? y/N " + insteadHint("d"))
        case .undo:
            return undoLast()
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
                                         label: "Rotate \(what) \(direction) in place? y/N "
                                            + insteadHint(adjustment == .rotateCounterclockwise ? "[" : "]"))
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
            // The status bar's lasting part names the filter already: the message says what it left.
            if triage.filterDescription == nil {
                message = "filter off: everything shown · \(Self.count(items.count, "item"))"
            } else {
                message = items.isEmpty ? "no item matches this filter"
                    : "\(Self.count(items.count, "item")) \(items.count == 1 ? "matches" : "match")"
            }
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
            guard triage.isBusyWithFiles else { break }
            message = "cancelling…"
            return [.triage(.cancelExport)]
        case .result(let result):
            return apply(result)
        }
        return []
    }

    /// A rating or flag goes where every action goes: to the marked items when there are marks, else to the
    /// item under the cursor. Each is written to its own sidecar, the status bar names what changed, and the
    /// change is one undo entry.
    private mutating func setTriageState(verb: String, what: String,
                                         _ change: (TriageState) -> TriageState) -> [BrowserEffect] {
        let targets = triageTargets
        guard !targets.isEmpty else { message = "nothing selected"; return [] }
        var effects: [BrowserEffect] = []
        var previous: [TriageSession.StateChange] = []
        for item in targets {
            let old = triage.state(of: item.id)
            let new = change(old)
            guard new != old else { continue }
            // A remote item is rated in livegrid's index under its URL (issue 31.5).
            let subject = remote == nil ? nil : remoteTriageSubject(item)
            if remote != nil, subject == nil { continue }
            previous.append(.init(item: item, previous: old, remote: subject))
            triage.states[item.id] = new
            effects.append(.triage(subject.map { .writeRemoteState(new, $0) } ?? .writeState(new, item)))
        }
        let suffix = what.isEmpty || what == verb ? "" : " " + what
        let who = triage.marks.isEmpty ? targets.first?.displayName ?? "" : describeTargets(targets)
        let summary = "\(verb) \(who)\(suffix)"
        message = summary
        if !triage.marks.isEmpty, let current = selectedItem, !triage.marks.contains(current.id) {
            message! += " · not \(current.displayName): U clears the marks"
        }
        if !previous.isEmpty { pushUndo(.init(.states(previous), summary: summary)) }
        // A remote library's ratings always go to the index: said with the first one, not when its result comes
        // back (the next key's message would cover it at once).
        if remote != nil, !previous.isEmpty, !triage.toldWhereRatingsGo {
            triage.toldWhereRatingsGo = true
            message! += " · ratings are kept in livegrid's index: \(TriageIndexReason.remote)"
        }
        refilter()
        // Auto-advance (Lightroom's Caps Lock): on to the next item after rating the one under the cursor.
        if triage.autoAdvance, triage.marks.isEmpty, selection + 1 < items.count { selectIndex(selection + 1) }
        return effects
    }

    /// File actions: the marked items when there are marks, else the cursor item (their prompt names them,
    /// and says how to act on the cursor item instead). The prefix (`;`) is kept for muscle memory.
    private func fileTargets(_ onMarked: Bool) -> [LibraryItem] {
        onMarked ? markedItems : triageTargets
    }

    /// The end of a y/N question on marked items when the cursor item is not one of them: how to act on it
    /// instead (a forgotten mark must not take the action silently).
    private func insteadHint(_ key: String) -> String {
        guard !triage.marks.isEmpty, let current = selectedItem, !triage.marks.contains(current.id) else { return "" }
        return "· for \(current.displayName) instead: n, U (clears the marks), \(key) "
    }

    /// At most this many steps back, as editors keep (each entry is small: paths and states).
    static let undoLimit = 500

    mutating func pushUndo(_ entry: TriageSession.UndoEntry) {
        triage.undoStack.append(entry)
        if triage.undoStack.count > Self.undoLimit { triage.undoStack.removeFirst(triage.undoStack.count - Self.undoLimit) }
    }

    /// `u`: takes back the newest entry, and only that one. An entry that cannot be undone is said so and
    /// dropped, nothing older is touched; the message names what the next `u` would undo.
    private mutating func undoLast() -> [BrowserEffect] {
        if triage.isBusyWithFiles {
            message = "a transfer is running: u undoes once it has finished (Esc cancels it)"
            return []
        }
        guard let entry = triage.undoStack.popLast() else { message = "nothing to undo"; return [] }
        let next = triage.undoStack.last.map { " · u again undoes: \($0.summary)" } ?? ""
        switch entry.kind {
        case .cannotUndo(let reason):
            message = "cannot undo \(entry.summary): \(reason) · nothing else was undone" + next
            return []
        case .states(let changes):
            for change in changes { triage.states[change.item.id] = change.previous }
            refilter()
            message = "undid: \(entry.summary)" + next
            return changes.map { .triage($0.restoringRequest) }
        case .trash(let trash):
            message = "undoing \(entry.summary): restoring from the trash…"
            triage.undoAwaitsResult = true
            return [.triage(.restore(trash))]
        case .transfer(let transfer):
            message = "undoing \(entry.summary): " + (transfer.isMove ? "moving back…" : "removing the copies…")
            triage.undoAwaitsResult = true
            return [.triage(.undoTransfer(transfer))]
        case .rotation(let items, let adjustment, _):
            message = "undoing \(entry.summary)…"
            triage.undoAwaitsResult = true
            return [.triage(.undoRotate(items, adjustment))]
        }
    }

    /// "train.jpg (still + movie)" for the cursor item; "3 marked items: A.JPG, B.JPG, C.JPG" for marks (at
    /// most three names, then "…").
    private func describeTargets(_ targets: [LibraryItem]) -> String {
        if !triage.marks.isEmpty { return Self.count(targets.count, "marked item") + ": " + Self.names(targets) }
        return Self.describe(targets)
    }

    /// "A.JPG, B.JPG, C.JPG, …".
    static func names(_ items: [LibraryItem]) -> String {
        items.prefix(3).map(\.displayName).joined(separator: ", ") + (items.count > 3 ? ", …" : "")
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
            // A remote directory's refusal comes back as a plain `.finished`: only a local transfer is waited for.
            triage.isTransferring = remote == nil
            message = "\(move ? "moving" : "copying") \(Self.count(targets.count, "item")) to \(path)… · Esc cancels"
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
        guard yes else {
            if case .confirmQuitDuringTransfer = prompt.purpose { message = "the transfer goes on (Esc cancels it)"; return [] }
            message = "cancelled"
            return []
        }
        switch prompt.purpose {
        case .confirmTrash(let targets):
            return [.triage(.trash(targets))]
        case .confirmRotate(let targets, let adjustment):
            triage.rotationBatch += 1
            return targets.map { .triage(.rotate($0, adjustment)) }
        case .confirmQuitDuringTransfer:
            guard triage.isBusyWithFiles else { wantsQuit = true; return stopPlaybackIfNeeded() + [.quit] }
            triage.quitsWhenIdle = true
            message = "cancelling the transfer, then quitting…"
            return [.triage(.cancelExport)]
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
        case .stateNotSaved(let id, let state, let failure):
            triage.states[id] = state
            refilter()
            message = failure.description
        case .keptInIndex(let reason):
            guard !triage.toldWhereRatingsGo else { break }
            triage.toldWhereRatingsGo = true
            message = (message.map { $0 + " · " } ?? "") + "ratings are kept in livegrid's index: \(reason)"
        case .trashed(let undo, let text):
            if !undo.isEmpty {
                let names = undo.records.compactMap { $0.entries.first.map { ($0.originalPath as NSString).lastPathComponent } }
                pushUndo(.init(.trash(undo), summary: "the trash of \(Self.count(names.count, "item")) (\(Self.nameList(names)))"))
            }
            message = text
            return [.startScan]
        case .transferred(let undo, let text, let filesChanged):
            triage.isTransferring = false
            if let undo, !undo.isEmpty {
                let names = undo.items.compactMap { $0.first.map { ($0.source as NSString).lastPathComponent } }
                let directory = undo.items.first?.first.map { ($0.destination as NSString).deletingLastPathComponent } ?? ""
                pushUndo(.init(.transfer(undo), summary: "the \(undo.isMove ? "move" : "copy") of \(Self.count(names.count, "item")) "
                               + "(\(Self.nameList(names))) to \(directory)"))
            }
            message = text
            if let quit = quitIfWaiting() { return quit + (filesChanged ? [.startScan] : []) }
            return filesChanged ? [.startScan] : []
        case .rotated(let item, let adjustment, let text):
            recordRotation(item, adjustment)
            message = text
            return [.startScan]
        case .doneWithoutUndo(let summary, let reason, let text, let filesChanged):
            pushUndo(.init(.cannotUndo(reason: reason), summary: summary))
            message = text
            return filesChanged ? [.startScan] : []
        case .completions(let typed, let candidates):
            triage.prompt?.applyCompletions(candidates, for: typed)
        case .location(let id, let text):
            if triage.showsLocation { triage.locations[id] = text }
        case .offerConvertToStill(let item, let adjustment, let why):
            triage.prompt = TriagePrompt(.confirmStillCopy(item, adjustment),
                                         label: "The movie cannot be rotated (\(why.description)). Convert to a rotated still copy? y/N ")
        case .progress(let text):
            triage.activity = text
        case .finished(let text, let filesChanged):
            return finish(saying: text, filesChanged: filesChanged)
        case .failed(let failure):
            return finish(saying: failure.description, filesChanged: failure.filesChanged)
        }
        return []
    }

    /// An operation is over (done or failed): its line in the status bar, a rescan when files changed.
    private mutating func finish(saying text: String, filesChanged: Bool) -> [BrowserEffect] {
        if triage.isExporting { triage.isExporting = false; triage.activity = nil }
        message = text
        if triage.undoAwaitsResult {
            triage.undoAwaitsResult = false
            if let next = triage.undoStack.last { message = text + " · u again undoes: \(next.summary)" }
        }
        if let quit = quitIfWaiting() { return quit }
        return filesChanged ? [.startScan] : []
    }

    /// Results of one confirmed batch of rotations make one undo entry.
    private mutating func recordRotation(_ item: LibraryItem, _ adjustment: Adjustment) {
        let batch = triage.rotationBatch
        let direction = adjustment == .rotateCounterclockwise ? "left" : adjustment == .rotateClockwise ? "right" : adjustment.rawValue
        if let last = triage.undoStack.last, case .rotation(var items, adjustment, batch) = last.kind {
            items.append(item)
            triage.undoStack[triage.undoStack.count - 1] = .init(
                .rotation(items, adjustment, batch: batch),
                summary: "the rotation \(direction) of \(Self.count(items.count, "item")) (\(Self.names(items)))")
            return
        }
        pushUndo(.init(.rotation([item], adjustment, batch: batch), summary: "the rotation \(direction) of \(item.displayName)"))
    }

    /// `q` while a copy, move or export runs: asks first. Quitting mid-transfer would leave its temporaries
    /// (and, for a move, the pair half at each end); the answer cancels it, waits for the rollback, then quits.
    mutating func holdQuitForTransfer() -> [BrowserEffect]? {
        guard triage.isBusyWithFiles else { return nil }
        triage.prompt = TriagePrompt(.confirmQuitDuringTransfer, label: "A transfer is running: cancel it and quit? y/N ")
        return []
    }

    /// After a transfer's result: quits when the user asked to and nothing runs any more.
    private mutating func quitIfWaiting() -> [BrowserEffect]? {
        guard triage.quitsWhenIdle, !triage.isBusyWithFiles else { return nil }
        wantsQuit = true
        return stopPlaybackIfNeeded() + [.quit]
    }

    /// "A.JPG, B.JPG, C.JPG, …" for names.
    static func nameList(_ names: [String]) -> String {
        names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
    }

    /// "train.jpg (still + movie)" for one item, "3 items" for several.
    static func describe(_ items: [LibraryItem]) -> String {
        guard items.count == 1, let item = items.first else { return "\(items.count) items" }
        return item.movie != nil && item.still != nil ? "\(item.displayName) (still + movie)" : item.displayName
    }
}
