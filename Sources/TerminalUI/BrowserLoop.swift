import BrowserCore
import BrowserRuntime
import Foundation
import TerminalProtocol
import VideoPlayback

/// The browser's one loop that sleeps: it blocks in poll() on the tty and the inbox's wake pipe until input
/// comes, something is posted (scan, pictures, downloads, triage, movie frames, tmux, signals) or the earliest
/// timer is due; then background results, each input event, then the clock go through the reducer, their
/// effects through the dispatcher; it redraws only when something changed.
final class BrowserLoop {
    struct Parts {
        var terminal: BrowserTerminal
        var inbox: EventInbox
        /// The provider the renderer draws from (wrapped for a remote library).
        var provider: ThumbnailProvider
        var remoteProvider: RemoteThumbnailProvider?
        var renderer: BrowserRenderer
        var playback: BrowserPlayback
        var studio: KeyPhotoStudio
        var dispatcher: EffectDispatcher
        var scans: ScanOrchestrator
        var keymap: Keymap
        var trace: EventTrace?
        var milestones: StartupMilestones
    }

    private(set) var state: BrowserState
    private let parts: Parts
    private var milestones: StartupMilestones
    /// Keys typed while livegrid started were read from the tty by the start-up probes (curses never sees
    /// them): they, and the keys typed after them, are acted on once there is something to act on (the first
    /// items, or the scan's end), in the order typed.
    private var typedAhead: TypeAheadQueue
    /// Whether an effect ran (or the playback reported) in this turn: the screen changes.
    private var effectsRan = false

    init(state: BrowserState, parts: Parts,
         typedAhead: [TerminalEvent] = TerminalProbe.takeTypedAhead().compactMap(\.keyInput).map(TerminalEvent.key)) {
        self.state = state
        self.parts = parts
        milestones = parts.milestones
        self.typedAhead = TypeAheadQueue(typedAhead)
    }

    /// Runs until the user quits; throws when the terminal is gone.
    func run() throws {
        var dirty = true
        while !state.wantsQuit { dirty = try turn(redraw: dirty) }
    }

    /// One turn: draw if `redraw`, sleep, take what came, apply it; returns whether the screen changed.
    private func turn(redraw: Bool) throws -> Bool {
        let terminal = parts.terminal, playback = parts.playback, provider = parts.provider
        parts.remoteProvider?.update(from: state)
        if redraw { draw() }
        // After a burst of pictures, a round trip through the terminal measures the link (issue 28.4).
        if terminal.throughput.takeQueryDue() {
            TerminalBytes.writeAll(TerminalSequences.cursorPositionQuery, to: STDOUT_FILENO)
            parts.trace?.log("link-query")
        }
        parts.remoteProvider?.frameEnded()
        let (wakeup, events) = try waitForEvents()
        // Background results first, then each input event, then the clock. Each event is read against the
        // state the previous one left (issue 31): `/` opens the search prompt, so the `I` after it in the same
        // burst is typed into the prompt, not "invert the marks". Effects run here, outside the reducer; what
        // they report goes through it before the next event.
        let actions = parts.inbox.drain()
        let now = MonotonicClock.now()
        effectsRan = false
        apply(actions)
        for event in events {
            if state.wantsQuit { break }   // keys after `q` in the same burst do nothing
            handle(event, now: now)
        }
        let outside = terminal.takeOutsideChanges()
        terminal.input.reportButtonMotion(state.isViewerZoomed, again: outside.resumed)
        // The turn ends with the clock (it ends an auto-repeat hold whose repeats stopped, starts a hint that
        // came due).
        apply([.playbackTick(at: now)])
        provider.markLiveOff(itemIDs: playback.controller.takeNewFailures())
        let readyPictures = provider.takeReadyKeys()
        milestones.turnEnded(onScreen: parts.renderer.wantedPictures.filter { $0.priority != .prefetch }.map(\.key),
                             provider: provider, state: state)
        let linkNoteChanged = followLink()
        let newFrame = playback.controller.takeNewFrame() || parts.studio.takeNewFrame()
        // A timer that fired changes what is drawn (the hint started, the transfer line went away).
        return !events.isEmpty || !actions.isEmpty || effectsRan || !readyPictures.isEmpty || newFrame || outside.resumed
            || outside.tmuxRedrew || wakeup.contains(.timer) || linkNoteChanged || parts.terminal.throughput.heldPicturesAdmitted
    }

    private func draw() {
        // While a local scan runs, only the pictures on screen are made: prefetching the next pages decoded
        // on the cores the scan stats and pairs on (2 cores: it delayed the complete timeline by ~100 ms at
        // 100,000 files). The render after the scan's end asks for them.
        parts.terminal.render(state, renderer: parts.renderer, provider: parts.provider,
                              holdsPrefetch: state.isScanning && parts.remoteProvider == nil)
        milestones.drew(state)
        parts.playback.didDraw()
    }

    /// Sleeps until input, a post or the earliest timer (at once when typed-ahead keys are due); returns why
    /// it woke and the input events, typed-ahead keys first.
    private func waitForEvents() throws -> (LoopWakeup, [TerminalEvent]) {
        var timers = LoopTimers()
        timers.add("playback", at: state.playback.nextDeadline)
        timers.add("transfers", at: state.remoteRedrawDeadline().map { MonotonicClock.now() + $0.timeIntervalSinceNow })
        timers.add("held-pictures", at: parts.terminal.throughput.heldPicturesDeadline)   // pictures waiting for the link
        let typedAheadDue = !typedAhead.isEmpty && (!state.items.isEmpty || !state.isScanning)
        let wakeup = LoopWait.wait(wake: parts.inbox.wake,
                                   timeoutMilliseconds: typedAheadDue ? 0 : timers.pollTimeout(now: MonotonicClock.now()))
        parts.trace?.log("loop-wake \(wakeup.traceName)")
        // Curses also turns a SIGWINCH into a resize "key": read after every wake-up, not only on input.
        let session = parts.terminal.session
        let events = parts.terminal.input.readEvents(size: { session.size })
        // EOF or EIO on the tty: the user is gone and cannot come back to it (no SIGHUP comes under `su`,
        // behind wrappers that keep the session, after some dropped ssh links). Leave at once instead of
        // waking on the dead tty forever; the defers restore what can be restored.
        if events.contains(where: \.isHangup) { throw TerminalUIError.terminalGone }
        guard typedAheadDue else {
            let keymap = parts.keymap, state = self.state
            return (wakeup, typedAhead.admit(events, due: false) { event in
                guard case .key(let key) = event, case .quit? = keymap.action(for: key, in: state) else { return false }
                return true
            })
        }
        // With key releases on, a play key typed before they were switched on is left out: its release was
        // never reported, so the hold it starts would not end.
        let keymap = parts.keymap, kittyKeys = parts.playback.kittyKeys, state = self.state
        let typed = typedAhead.admit([], due: true).filter { event in
            guard kittyKeys, case .key(let key) = event, case .playPressed? = keymap.action(for: key, in: state) else { return true }
            return false
        }
        return (wakeup, typed + events)
    }

    private func handle(_ event: TerminalEvent, now: Double) {
        if let drag = InputActions.viewerDrag(for: event, state: state) {
            apply([drag])
        } else if let handled = parts.playback.actions(for: event, state: state, keymap: parts.keymap, now: now) {
            apply(handled)
        } else if let action = InputActions.action(for: event, state: state, keymap: parts.keymap) {
            apply([action])
        }
        if case .resize = event { parts.terminal.resized() }
    }

    /// Each action through the reducer, its effects through the dispatcher, what they report back in turn;
    /// after the last, the playback engine follows the state.
    private func apply(_ actions: [BrowserAction]) {
        var queue = actions[...]
        while let action = queue.popFirst() {
            if case .scanFinished(let scan) = action {
                parts.provider.invalidate(itemIDs: parts.scans.takeChangedItems(in: scan))
            }
            for effect in state.reduce(action) {
                effectsRan = true
                queue += parts.dispatcher.perform(effect, state: state)
            }
            if case .scanFinished = action { milestones.scanApplied() }
            if queue.isEmpty {
                let reports = parts.playback.update(state: state)
                effectsRan = effectsRan || !reports.isEmpty
                queue += reports
            }
        }
    }

    /// After the first screen, hints follow the link: off while it is slow, said in the status bar. True when
    /// the note changed.
    private func followLink() -> Bool {
        guard milestones.firstPaintDone else { return false }
        let estimate = parts.terminal.throughput.estimate
        milestones.linkEstimated(estimate)
        let link = LinkAdvice(estimate)
        state.playback.holdHints(link.holdsHints ? .slowLink : nil)
        // A movie drawn smaller for the link says so while it plays.
        let note = parts.playback.controller.linkNote ?? link.note
        let changed = state.playback.linkNote != note
        state.playback.linkNote = note
        return changed
    }

    /// The scan the loop starts with: the local one already runs (it was started before the terminal was set up)
    /// and its first screen is prewarmed; a remote listing starts here.
    func start(localScanRunning: Bool, firstScreen: FirstScreen) {
        guard localScanRunning else {
            for report in parts.dispatcher.perform(.startScan, state: state) { _ = state.reduce(report) }
            return
        }
        _ = state.reduce(.scanStarted)
        firstScreen.prewarm(parts.provider, state: state, scanIsProgressive: parts.scans.isProgressive)
    }
}

/// What an input event means when neither the viewer drag nor playback takes it.
enum InputActions {
    static func action(for event: TerminalEvent, state: BrowserState, keymap: Keymap) -> BrowserAction? {
        switch event {
        case .key(let key): return keymap.action(for: key, in: state)
        case .keyEvent(let key, let type): return type == .release ? nil : keymap.action(for: key, in: state)
        case .resize(let size): return .resize(size)
        case .hangup: return nil
        case .mouse(let x, let y, let kind):
            switch kind {
            case .click, .press: return .click(x: x, y: y)
            case .release, .drag: return nil
            case .wheelUp: return .scroll(rows: -1)
            case .wheelDown: return .scroll(rows: 1)
            }
        }
    }

    /// Button 1 over the zoomed viewer drags the picture (issue 31.3) instead of playing the item: press on the
    /// picture, motion, release. Nil for everything else (the usual handling).
    static func viewerDrag(for event: TerminalEvent, state: BrowserState) -> BrowserAction? {
        guard case .mouse(let x, let y, let kind) = event else { return nil }
        switch kind {
        case .press where state.isViewerZoomed: return .viewerDrag(.pressed(x: x, y: y))
        case .drag where state.viewerDrag != nil: return .viewerDrag(.moved(x: x, y: y))
        case .release where state.viewerDrag != nil: return .viewerDrag(.released)
        default: return nil
        }
    }
}
