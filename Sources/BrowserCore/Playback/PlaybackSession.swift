import LivePairing
import TerminalProtocol

/// Why a movie plays.
public enum PlaybackPurpose: Sendable, Equatable {
    /// Press and hold: the whole movie from the start while held.
    case hold
    /// The "hint of movement": about a second around the still-image time, once, after the item stayed selected.
    case hint
}

/// Press-and-hold playback as one state machine, owned by the reducer:
/// idle → pressed (held; a remote copy still downloading) → loading (the engine was asked to play) →
/// playing (frames on screen) → returning (stop asked; the key photo comes back) → idle.
/// A hint goes idle → loading → playing → idle on its own; a movie that ends or fails goes back to idle.
public enum PlaybackPhase: Sendable, Equatable {
    case idle
    case pressed(itemID: ItemID)
    case loading(itemID: ItemID, purpose: PlaybackPurpose)
    case playing(itemID: ItemID, purpose: PlaybackPurpose)
    case returning(itemID: ItemID)

    public var itemID: ItemID? {
        switch self {
        case .idle: return nil
        case .pressed(let id), .loading(let id, _), .playing(let id, _), .returning(let id): return id
        }
    }

    /// True while the user holds the play key or button (a hold that has not been let go).
    public var isHeld: Bool {
        switch self {
        case .pressed, .loading(_, .hold), .playing(_, .hold): return true
        default: return false
        }
    }

    /// True while the engine plays (or is starting) a movie.
    public var isActive: Bool {
        switch self {
        case .loading, .playing: return true
        default: return false
        }
    }
}

/// Play input as the terminal reported it, stamped by the loop's clock.
public enum PlayInput: Sendable, Equatable {
    /// The play key went down, repeated or came up.
    case key(KeyEventType)
    /// Button 1 went down over grid item `index` (nil: not over an item; the viewer passes the selection).
    case mouseDown(x: Int, y: Int, index: Int?)
    case mouseUp
}

/// What the playback engine reports back (its effects run outside the reducer).
public enum PlaybackReport: Sendable, Equatable {
    /// The first frame of `itemID` is ready to draw.
    case firstFrame(itemID: ItemID)
    /// The movie played to its end, or stopped because its picture area changed.
    case ended(itemID: ItemID)
    /// The movie could not start. A permanent failure is the file's fault (remembered as LIVE OFF), not the
    /// screen's (a picture area too small here). A hold says it in the status bar; a hint is quiet.
    case refused(itemID: ItemID, PlaybackFailure)
    /// The movie failed while playing (a corrupt stream, no frame at all): LIVE OFF from now on.
    case failed(itemID: ItemID, PlaybackFailure)
    /// The stop asked for is done: the key photo shows again.
    case stopped
    /// The current hold's sound is heard (its item gets the sound mark).
    case soundPlaying
    /// A word about the sound ("no sound: no PulseAudio or PipeWire server here"), said once per session: a
    /// note, shown only over no message or another note (never over a LIVE OFF reason or an error).
    case soundNote(String)
}

/// How much a status-bar message matters: a lower one never replaces a higher one.
public enum MessagePriority: Int, Sendable, Comparable {
    /// A background note (the sound's state): it waits while anything else is shown.
    case note
    /// Whatever the keys and the background say.
    case ordinary
    /// Why a hold shows nothing (LIVE OFF: ...).
    case reason

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Why the hint of movement waits (`PlaybackSession.holdHints`).
public enum HintHold: Sendable, Equatable {
    /// The first screen's pictures are not all drawn yet.
    case firstScreen
    /// The terminal takes bytes too slowly for movie frames beside everything else.
    case slowLink
}

/// The playback part of `BrowserState`: the phase, the hold input (auto-repeat inference or real releases),
/// the hint timer, and the clock the loop advances with `.playbackTick(at:)` at the end of every turn (tests advance it by hand, as
/// swift-nio's EmbeddedEventLoop.advanceTime does).
public struct PlaybackSession: Sendable {
    /// Seconds an item stays selected before its hint plays.
    public static let hintDelay = 1.0

    public internal(set) var phase: PlaybackPhase = .idle
    public internal(set) var input = PlayHoldInput(kittyKeys: false)
    /// `[playback] hints` (`--no-motion` turns them off).
    public var hintsEnabled = false
    /// Why hints wait for now (issue 28): while the first screen's pictures are still arriving, a hint's
    /// movie frames would compete with them for the link (+67 % of a symbol screen's bytes measured); on a
    /// link measured slow they would compete with everything. nil: hints run on their timer.
    public private(set) var hintHold: HintHold?
    /// The status bar's word on a slow link ("link ~2.1 MB/s: motion hints off"), set by the loop from what
    /// the terminal takes; nil when the link keeps up.
    public var linkNote: String?
    /// `[playback] sound = hold`: a hold plays the movie's sound (`--mute` and the sound key turn it off). The
    /// hint of movement is always silent.
    public var soundEnabled = true
    /// The last time the loop told (monotonic seconds).
    public internal(set) var now: Double = 0
    /// The selection the hint timer runs for, since when (stamped by the next tick of the clock), and whether
    /// its hint already played.
    public internal(set) var hintCandidate: (itemID: ItemID, since: Double?, done: Bool)?
    /// Items whose movie failed to play, with the reason: they show as LIVE OFF and do not try again.
    public internal(set) var failures: [ItemID: PlaybackFailure] = [:]

    public init() {}

    /// Sets which input tells a hold's end (the kitty keyboard protocol when the terminal has it).
    public mutating func useKeyInput(kittyKeys: Bool) {
        input = PlayHoldInput(kittyKeys: kittyKeys)
    }

    /// The item whose hold's sound is heard now (set when the sink says it plays, cleared by the next hold).
    public internal(set) var soundHeard: ItemID?

    /// The small sound mark on the item a hold plays (never a play triangle): "♪" while its sound is heard,
    /// "♪ muted" while sound is off; in a locale that is not UTF-8, "sound" / "muted". nil otherwise (no hold,
    /// a hint, no sound heard: no server, no track).
    public func soundMark(for itemID: ItemID) -> String? {
        switch phase {
        case .loading(itemID, .hold), .playing(itemID, .hold): break
        default: return nil
        }
        let ascii = TerminalTextEncoding.asciiOnly
        if !soundEnabled { return ascii ? "muted" : "\u{266A} muted" }
        return soundHeard == itemID ? (ascii ? "sound" : "\u{266A}") : nil
    }

    /// For the status bar while a hold plays: which input tells when it ends.
    public var statusNote: String? {
        switch phase {
        case .loading(_, .hold), .playing(_, .hold):
            return "◎ hold: \((input.activeSource ?? input.keySource).rawValue)" + (soundEnabled ? " ♪" : " · muted")
        default: return nil
        }
    }

    /// Holds hints back, or lets them go (nil). When a hold ends the selection's timer starts again from the
    /// clock's last tick, so its hint plays a full delay after the screen was complete, not at once.
    public mutating func holdHints(_ hold: HintHold?) {
        guard hold != hintHold else { return }
        hintHold = hold
        if hold == nil, hintCandidate?.done == false { hintCandidate?.since = now }
    }

    var hintDue: Double? {
        guard hintsEnabled, hintHold == nil, let candidate = hintCandidate, !candidate.done, let since = candidate.since else { return nil }
        return since + Self.hintDelay
    }

    /// The next moment the loop must advance the clock (an auto-repeat hold may have ended, a hint comes
    /// due), or nil. A hint already due that could not start waits for the event that changes that.
    public var nextDeadline: Double? {
        let hint = hintDue.flatMap { $0 > now ? $0 : nil }
        return [input.nextDeadline, hint].compactMap { $0 }.min()
    }
}
