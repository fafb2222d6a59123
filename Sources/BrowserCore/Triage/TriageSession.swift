import LibraryCore
import LivePairing

/// The browser's triage state: marks, ratings and flags (from the sidecars), the triage filter, and the
/// prompt or export dialog that is open.
public struct TriageSession: Sendable {
    public var marks = MarkSet()
    /// Item id → rating and flag; missing = unrated (or not loaded yet).
    public var states: [ItemID: TriageState] = [:]
    public var filter = TriageFilter.everything
    public var prompt: TriagePrompt?
    public var exportDialog: ExportDialog?
    /// Everything `u` can take back, newest last: ratings, flags, rotations, trash, copies and moves, in the
    /// order they were done (one entry per action, a batch on marked items included).
    public var undoStack: [UndoEntry] = []
    /// Set by the prefix key (`;`): the next rating, flag or file key acts on the marked items.
    public var actsOnMarked = false
    /// Where a range mark (`V`) starts: the last item marked with `m` (or the first `V`).
    public var rangeAnchor: ItemID?
    /// The info panel shows coordinates only after `L`; they are read then and forgotten when hidden.
    public var showsLocation = false
    public var locations: [ItemID: String] = [:]
    /// The export dialog's "strip location" default (`[export] strip_location`).
    public var stripLocationByDefault = false
    /// `HOME` at launch, for `~` in typed destinations (set by the app; nil: `~` stays as typed).
    public var home: String?
    /// The directory last typed in a copy/move/export prompt (the next prompt's default).
    public var lastDirectory = ""
    /// Progress of background work for the status bar (an export), nil when idle.
    public var activity: String?
    public var isExporting = false
    /// A copy or move runs in the background (`q` then asks before cancelling it).
    public var isTransferring = false
    /// The user chose "cancel it and quit": the browser quits once the transfer has been rolled back.
    public var quitsWhenIdle = false
    /// An undo runs on the worker (trash, copy, move, rotation): its result's line also says what the next `u`
    /// would undo, as an undo done at once does.
    public var undoAwaitsResult = false
    /// Rotations confirmed together share a number, so that their results make one undo entry.
    public var rotationBatch = 0
    /// `[triage] auto_advance` / `--auto-advance`: after a rating or flag on the cursor item, the cursor
    /// moves to the next item (Lightroom's Caps Lock mode).
    public var autoAdvance = false
    /// The status bar said where ratings go when a folder cannot be written (said once per session).
    public var toldWhereRatingsGo = false

    /// True while a copy, move or export runs.
    public var isBusyWithFiles: Bool { isTransferring || isExporting }

    public init() {}

    /// One step `u` takes back, and what it was in words ("rated IMG_1.JPG ★★★").
    public struct UndoEntry: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            case trash(ItemFileOperations.TrashUndo)
            case transfer(ItemFileOperations.TransferUndo)
            /// Items turned in place (losslessly) by `adjustment`: undone by its inverse.
            case rotation([LibraryItem], Adjustment, batch: Int)
            /// Ratings and flags as they were before.
            case states([StateChange])
            /// Done, but with no way back (a rotated still written as a new file): `u` says so and stops.
            case cannotUndo(reason: String)
        }
        public var kind: Kind
        public var summary: String
        public init(_ kind: Kind, summary: String) {
            self.kind = kind
            self.summary = summary
        }
    }

    /// An item's rating and flag before a change.
    public struct StateChange: Sendable, Hashable {
        public var item: LibraryItem
        public var previous: TriageState
        /// A remote item's key (its URL), taken when it was rated: undone in the folder it was rated in.
        public var remote: RemoteTriageSubject?
        public init(item: LibraryItem, previous: TriageState, remote: RemoteTriageSubject? = nil) {
            self.item = item
            self.previous = previous
            self.remote = remote
        }

        /// The write that puts the previous state back.
        var restoringRequest: TriageRequest {
            remote.map { .writeRemoteState(previous, $0) } ?? .writeState(previous, item)
        }
    }

    /// The most recent entry (what `u` undoes next).
    public var lastUndo: UndoEntry? { undoStack.last }

    public func state(of id: ItemID) -> TriageState { states[id] ?? .unrated }

    /// True while a prompt or the export dialog takes every key.
    public var isModal: Bool { prompt != nil || exportDialog != nil }

    /// Stars and flag as shown in a caption: "★★★", "⚑ ★★", "✗" ; empty when unrated.
    public func captionMarks(for id: ItemID) -> String {
        let state = state(of: id)
        var parts: [String] = []
        switch state.flag {
        case .pick: parts.append("⚑")
        case .reject: parts.append("✗")
        case .none: break
        }
        if state.rating > 0 { parts.append(String(repeating: "★", count: state.rating)) }
        return parts.joined(separator: " ")
    }

    /// Lines for the info panel.
    public func infoLines(for item: LibraryItem) -> [(label: String, value: String)] {
        let state = state(of: item.id)
        let stars = String(repeating: "★", count: state.rating) + String(repeating: "☆", count: 5 - state.rating)
        var lines: [(String, String)] = [("Rating", state.rating == 0 ? "unrated" : "\(stars) (\(state.rating))")]
        if state.flag != .none { lines.append(("Flag", state.flag == .pick ? "⚑ pick" : "✗ reject")) }
        if marks.contains(item.id) { lines.append(("Marked", "yes")) }
        return lines
    }

    /// The triage filter in words for the status bar; nil when everything shows.
    public var filterDescription: String? {
        var parts: [String] = []
        if let minimum = filter.minimumRating { parts.append("★≥\(minimum)") }
        if filter.flag == .pick { parts.append("picks") }
        if filter.flag == .reject { parts.append("rejects") }
        switch filter.kind {
        case .all: break
        case .liveOnly: parts.append("live only")
        case .stillsOnly: parts.append("stills only")
        case .videosOnly: parts.append("videos only")
        }
        return parts.isEmpty ? nil : "filter: " + parts.joined(separator: ", ")
    }

    /// The filter the menu key `key` picks, or nil for a key the menu does not know.
    public static func filter(forMenuKey key: Character) -> TriageFilter? {
        switch key {
        case "1", "2", "3", "4", "5": return TriageFilter(minimumRating: Int(String(key)))
        case "p": return TriageFilter(flag: .pick)
        case "x": return TriageFilter(flag: .reject)
        case "l": return TriageFilter(kind: .liveOnly)
        case "s": return TriageFilter(kind: .stillsOnly)
        case "v": return TriageFilter(kind: .videosOnly)
        case "a", "0": return .everything
        default: return nil
        }
    }
}
