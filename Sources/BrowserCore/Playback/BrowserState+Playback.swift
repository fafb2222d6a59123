import LivePairing

/// The playback state machine's transitions (see `PlaybackPhase`). Effects (`.startPlayback`, `.startHint`,
/// `.stopPlayback`) run outside the reducer; the engine's answers come back as `.playback(PlaybackReport)`.
extension BrowserState {
    /// Why `item` cannot play: the scan's reason (its movie is missing) or a failure met while playing.
    public func liveOffReason(for item: LibraryItem) -> String? {
        item.liveOffReason ?? playback.failures[item.id]?.description
    }

    /// A hold starts on `item`: it plays at once, or once a remote item's copy is here.
    mutating func beginHold(_ item: LibraryItem) -> [BrowserEffect] {
        playback.hintCandidate?.done = true
        playback.soundHeard = nil
        if let waiting = waitForRemotePlayback(item) {
            playback.phase = .pressed(itemID: item.id)
            return waiting
        }
        playback.phase = .loading(itemID: item.id, purpose: .hold)
        return [.startPlayback(itemID: item.id)]
    }

    /// The hold ends: back to the key photo.
    mutating func endHold() -> [BrowserEffect] {
        switch playback.phase {
        case .pressed:
            playback.phase = .idle
            return [.stopPlayback]
        case .loading(let id, _), .playing(let id, _):
            playback.phase = .returning(itemID: id)
            return [.stopPlayback]
        case .idle, .returning:
            return []
        }
    }

    mutating func reducePlayInput(_ input: PlayInput, at time: Double) -> [BrowserEffect] {
        playback.now = max(playback.now, time)
        var hold = playback.input
        let translated: [BrowserAction]
        switch input {
        case .key(let type): translated = hold.playKey(type, now: time)
        case .mouseDown(let x, let y, let index): translated = hold.mouseDown(x: x, y: y, index: index, state: self, now: time)
        case .mouseUp: translated = hold.mouseUp(now: time, mode: mode)
        }
        playback.input = hold
        return reduceHoldActions(translated)
    }

    mutating func reducePlaybackTick(at time: Double) -> [BrowserEffect] {
        playback.now = max(playback.now, time)
        if playback.hintCandidate != nil, playback.hintCandidate?.since == nil { playback.hintCandidate?.since = playback.now }
        return reduceHoldActions(playback.input.tick(now: playback.now))
    }

    /// The hold input's actions; a release with nothing held is dropped (it would clear the status bar's
    /// LIVE OFF reason).
    private mutating func reduceHoldActions(_ actions: [BrowserAction]) -> [BrowserEffect] {
        var effects: [BrowserEffect] = []
        for action in actions {
            if case .playReleased = action, !isPlayPressed { continue }
            effects += reduce(action)
        }
        return effects
    }

    mutating func reducePlaybackReport(_ report: PlaybackReport) {
        switch report {
        case .firstFrame(let id):
            if case .loading(id, let purpose) = playback.phase { playback.phase = .playing(itemID: id, purpose: purpose) }
        case .ended(let id):
            if playback.phase.isActive, playback.phase.itemID == id { playback.phase = .idle }
        case .refused(let id, let failure):
            if failure.isPermanent { playback.failures[id] = failure }
            guard playback.phase.isActive, playback.phase.itemID == id else { return }
            if case .loading(_, .hold) = playback.phase { say("LIVE OFF: \(failure.description)", priority: .reason) }
            playback.phase = .idle
        case .failed(let id, let failure):
            playback.failures[id] = failure
            guard playback.phase.isActive, playback.phase.itemID == id else { return }
            say("LIVE OFF: \(failure.description)", priority: .reason)
            playback.phase = .idle
        case .stopped:
            if case .returning = playback.phase { playback.phase = .idle }
        case .soundPlaying:
            if playback.phase.isHeld, let id = playback.phase.itemID { playback.soundHeard = id }
        case .soundNote(let text):
            say(text, priority: .note)
        }
    }

    /// Shows `text` unless a message that matters more is shown; a note that cannot show now waits for the
    /// next key to clear the message (it is said once, so it is not dropped).
    mutating func say(_ text: String, priority: MessagePriority) {
        if message != nil, priority < messagePriority {
            if priority == .note { deferredNote = text }
            return
        }
        message = text
        messagePriority = priority
    }

    /// What the next key does to the message: clears it, and a note that waited shows then.
    mutating func clearMessage() {
        message = deferredNote
        if deferredNote != nil { messagePriority = .note }
        deferredNote = nil
    }

    /// After every action: playback follows the selection, and the hint timer runs.
    mutating func playbackFollowUp() -> [BrowserEffect] {
        let selected = mode == .help ? nil : selectedItem
        var effects: [BrowserEffect] = []
        if playback.phase.isActive, let id = playback.phase.itemID, id != selected?.id {
            playback.phase = .returning(itemID: id)
            effects.append(.stopPlayback)
        }
        guard let item = selected, item.kind.isLive else {
            playback.hintCandidate = nil
            return effects
        }
        if playback.hintCandidate?.itemID != item.id { playback.hintCandidate = (item.id, nil, false) }
        guard let due = playback.hintDue, playback.now >= due, !isPlayPressed, !playback.phase.isActive else { return effects }
        // A remote item plays its downloaded copy: until both halves are here there is nothing to hint with.
        // The hint waits for it while the item stays selected.
        guard playableItem(id: item.id) != nil else { return effects }
        playback.hintCandidate?.done = true
        guard liveOffReason(for: item) == nil else { return effects }
        playback.phase = .loading(itemID: item.id, purpose: .hint)
        return effects + [.startHint(itemID: item.id)]
    }
}
