import LivePairing
import TerminalProtocol

/// The viewer's key-photo mode (issue 20): `K` on a Live Photo shows its movie one frame at a time,
/// left/right step, Enter writes a new Live Photo whose still is the frame shown (beside the original, the
/// way `livegrid edit --key-photo-at` does), Esc leaves. The reducer keeps the picker; the front end loads
/// the frame times, shows frames and writes (`StudioRequest`).
public struct KeyPhotoSession: Sendable {
    public let item: LibraryItem
    /// nil until the movie's frame times are read.
    public internal(set) var picker: KeyPhotoPicker?
    /// True from Enter until the new files are written (keys other than Esc wait).
    public internal(set) var isWriting = false

    public init(item: LibraryItem) { self.item = item }
}

/// What happens in the key-photo mode: keys, and what the front end reports back.
public enum StudioAction: Sendable {
    case enterKeyPhoto
    case step(Int)
    case choose
    case leave
    /// The movie's frame times (from the decoder) and the still-image time it carries.
    case frameTimesLoaded(itemID: ItemID, times: [Double], stillImageTime: Double?)
    /// The frame at `time` is decoded and drawn in the picture area.
    case frameShown(itemID: ItemID, time: Double)
    /// Something failed (the movie does not decode, the write failed): the status bar says why.
    case failed(itemID: ItemID, StudioFailure)
    /// The new Live Photo is written: its paths, for the status bar.
    case written(itemID: ItemID, paths: [String])

    // The export dialog's effects (`e` cycles the effect of the item under the cursor).
    case dialogCycleEffect
    /// The effect's preview is rendered and shown in the dialog, or could not be made.
    case effectPreviewReady(itemID: ItemID, effect: SharingEffect)
    case effectPreviewFailed(itemID: ItemID, effect: SharingEffect, StudioFailure)
    /// The effects were written (or some failed): the status line.
    case effectsExported(message: String)
}

/// Work the key-photo mode asks of the front end.
public enum StudioRequest: Sendable, Equatable {
    case loadFrameTimes(LibraryItem)
    /// Show the movie's frame at `time` in the viewer's picture area instead of the still.
    case showFrame(LibraryItem, time: Double)
    /// `livegrid edit ITEM --key-photo-at SECONDS -o DIRECTORY`, run off the draw loop.
    case writeKeyPhoto(LibraryItem, seconds: Double, directory: String)
    /// Back to the still: forget the frame shown.
    case leave
    /// Renders `effect` of the item into a temporary file outside the library and plays (or shows) it.
    case previewEffect(LibraryItem, SharingEffect)
    /// Stops the preview and removes its temporary file.
    case stopEffectPreview
    /// Writes each effect into `destination` (`livegrid export --as EFFECT`'s code).
    case exportEffects(items: [LibraryItem], effects: [SharingEffect], destination: String)
}

/// The keys of the key-photo mode: it takes every key while it is on, so nothing moves behind it.
public enum KeyPhotoKeys {
    public static func action(for key: KeyInput, in state: BrowserState) -> BrowserAction? {
        guard state.keyPhoto != nil, state.mode == .viewer else { return nil }
        switch key {
        case .left, .character("h"): return .studio(.step(-1))
        case .right, .character("l"): return .studio(.step(1))
        case .pageUp, .up, .character("k"): return .studio(.step(-10))
        case .pageDown, .down, .character("j"): return .studio(.step(10))
        case .home, .character("g"): return .studio(.step(-1_000_000))
        case .end, .character("G"): return .studio(.step(1_000_000))
        case .enter: return .studio(.choose)
        case .escape, .character("q"), .character("K"): return .studio(.leave)
        default: return .studio(.step(0))
        }
    }
}

extension BrowserState {
    /// The hint that follows the frame line in the status bar.
    static let keyPhotoHint = "←/→ frame · Enter writes a new Live Photo · Esc leaves"

    mutating func reduceStudio(_ action: StudioAction) -> [BrowserEffect] {
        switch action {
        case .enterKeyPhoto:
            guard mode == .viewer, keyPhoto == nil, let item = selectedItem else { return [] }
            guard item.kind == .live, item.still != nil, item.movie != nil else {
                message = item.kind == .motion
                    ? "key photo: a Motion Photo; make it a Live Photo first (livegrid convert --to live)"
                    : "key photo: \(item.displayName) is not a Live Photo"
                return []
            }
            if let reason = item.liveOffReason { message = "key photo: \(reason)"; return [] }
            if remote != nil { message = "key photo: only for local folders"; return [] }
            keyPhoto = KeyPhotoSession(item: item)
            message = "key photo: reading the movie's frames…"
            return stopPlaybackIfNeeded() + [.studio(.loadFrameTimes(item))]
        case .frameTimesLoaded(let id, let times, let stillImageTime):
            guard var session = keyPhoto, session.item.id == id else { return [] }
            guard let picker = KeyPhotoPicker(frameTimes: times, stillImageTime: stillImageTime) else {
                keyPhoto = nil
                message = "key photo: the movie has no frames"
                return [.studio(.leave)]
            }
            session.picker = picker
            keyPhoto = session
            return showKeyPhotoFrame()
        case .step(let frames):
            guard var session = keyPhoto, var picker = session.picker, !session.isWriting else { return [] }
            picker.step(frames)
            session.picker = picker
            keyPhoto = session
            return frames == 0 ? keyPhotoStatus() : showKeyPhotoFrame()
        case .frameShown(let id, let time):
            guard let session = keyPhoto, session.item.id == id, let picker = session.picker,
                  abs(picker.time - time) < 0.0005, !session.isWriting else { return [] }
            message = picker.statusLine + " · shown · " + Self.keyPhotoHint
        case .choose:
            guard var session = keyPhoto, let picker = session.picker, !session.isWriting else { return [] }
            if picker.isUnchanged {
                message = picker.statusLine + " · this frame is already the key photo: ←/→ choose another"
                return []
            }
            guard let still = session.item.still?.path else { return [] }
            session.isWriting = true
            keyPhoto = session
            let directory = Self.directory(of: still)
            message = "writing a new Live Photo with the frame at \(KeyPhotoPicker.seconds(picker.time)) s into \(directory)…"
            return [.studio(.writeKeyPhoto(session.item, seconds: picker.time, directory: directory))]
        case .leave:
            guard let session = keyPhoto else { return [] }
            keyPhoto = nil
            message = session.isWriting ? "key photo: leaving; the new Live Photo is still being written" : "key photo: left, nothing written"
            return [.studio(.leave)]
        case .failed(let id, let failure):
            let reason = failure.description
            guard let session = keyPhoto, session.item.id == id else { message = "key photo: \(reason)"; return [] }
            if session.picker == nil || session.isWriting {
                // Nothing to step through (or the write failed): back to the still with the reason.
                keyPhoto = nil
                message = "key photo: \(reason)"
                return [.studio(.leave)]
            }
            message = "key photo: \(reason)"
        case .written(let id, let paths):
            let names = paths.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: " + ")
            message = "wrote a new Live Photo \(names)"
            // The new pair is a new item: the rescan lists it (the original is untouched).
            if keyPhoto?.item.id == id {
                keyPhoto = nil
                return [.studio(.leave), .startScan]
            }
            return [.startScan]
        case .dialogCycleEffect, .effectPreviewReady, .effectPreviewFailed, .effectsExported:
            return reduceEffectDialog(action)
        }
        return []
    }

    /// The dialog's half of `reduceStudio`.
    private mutating func reduceEffectDialog(_ action: StudioAction) -> [BrowserEffect] {
        switch action {
        case .dialogCycleEffect:
            guard var dialog = triage.exportDialog, let item = dialog.currentItem else { return [] }
            // Remote items are names on a server, not files here (the triage file operations refuse them too).
            if remote != nil { message = "effects: only for local folders"; return [] }
            guard item.kind.isLive, item.liveOffReason == nil else {
                message = "effects need a Live or Motion Photo whose movie plays"
                return []
            }
            let effect = SharingEffect.next(after: dialog.effects[item.id])
            dialog.effects[item.id] = effect
            guard let effect else {
                dialog.preview = nil
                triage.exportDialog = dialog
                message = "\(item.displayName): back to \(ExportDialog.choiceName(dialog.entries[dialog.cursor].choice, for: item))"
                return [.studio(.stopEffectPreview)]
            }
            dialog.preview = EffectPreview(itemID: item.id, effect: effect, phase: .rendering)
            triage.exportDialog = dialog
            message = "rendering the \(effect.name.lowercased()) preview of \(item.displayName)… (nothing is written yet)"
            return [.studio(.previewEffect(item, effect))]
        case .effectPreviewReady(let id, let effect):
            guard let preview = triage.exportDialog?.preview, preview.itemID == id, preview.effect == effect else { return [] }
            triage.exportDialog?.preview?.phase = .showing
            message = "previewing \(effect.name.lowercased()) · e next effect · Enter exports · Esc cancels (nothing written yet)"
        case .effectPreviewFailed(let id, let effect, let failure):
            guard let preview = triage.exportDialog?.preview, preview.itemID == id, preview.effect == effect else { return [] }
            triage.exportDialog?.preview?.phase = .failed(failure)
            message = "\(effect.name.lowercased()) cannot be made: \(failure.description)"
        case .effectsExported(let text):
            message = text
        default:
            break
        }
        return []
    }

    private mutating func showKeyPhotoFrame() -> [BrowserEffect] {
        guard let session = keyPhoto, let picker = session.picker else { return [] }
        return keyPhotoStatus() + [.studio(.showFrame(session.item, time: picker.time))]
    }

    private mutating func keyPhotoStatus() -> [BrowserEffect] {
        if let picker = keyPhoto?.picker { message = picker.statusLine + " · " + Self.keyPhotoHint }
        return []
    }

    private static func directory(of path: String) -> String {
        let slash = path.lastIndex(of: "/")
        guard let slash else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
