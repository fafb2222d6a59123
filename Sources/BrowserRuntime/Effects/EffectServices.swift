import BrowserCore
import Library
import LibraryCore
import LivePairing
import LibrarySources

// The services `EffectDispatcher` hands each `BrowserEffect` to, each behind the few verbs the effects use:
// TerminalUI implements the ones that need the terminal, the tests record them.

/// What the effects need from the screen (curses in TerminalUI).
public protocol ScreenControl: AnyObject {
    /// `.redrawAll` (Ctrl-L): everything drawn again from scratch, pictures placed again.
    func redrawAll()
}

/// Press-and-hold playback and the hint of movement (TerminalUI's `BrowserPlayback`, over `PlaybackController`).
public protocol PlaybackService: AnyObject {
    /// Plays `item` (a remote item's downloaded copy) in the picture area of `shownID`; what the engine refuses
    /// comes back as a report.
    func start(_ item: LibraryItem, shownID: ItemID, purpose: PlaybackPurpose, state: BrowserState) -> [BrowserAction]
    /// Back to the key photo at once.
    func stop() -> [BrowserAction]
}

/// Starts listings: the local scan thread, or the remote session's listing (`ScanOrchestrator`).
public protocol ScanService: AnyObject {
    /// Scans `folder` (a local folder; the current remote directory when browsing one); results come back
    /// through the inbox.
    func startScan(folder: String, recursive: Bool)
}

/// The triage file work, off the loop (`TriageWorker`).
public protocol TriageService: AnyObject, Sendable {
    func perform(_ request: TriageRequest)
}

/// The key-photo mode's frames and writes (`KeyPhotoStudio`).
public protocol StudioService: AnyObject {
    func perform(_ request: StudioRequest)
}

/// A remote library's network work and the export of its items (`RemoteEffects`).
public protocol RemoteService: AnyObject {
    func perform(_ effect: RemoteEffect)
    /// Downloads `items` and exports the copies; `ratings` (by remote item id) go along as sidecars.
    func export(_ items: [LibraryItem], choices: [ExportChoice], destination: String, stripLocation: Bool,
                ratings: [ItemID: TriageState])
    /// Stops an export still downloading.
    func cancelExport()
}

extension TriageWorker: TriageService {}
extension KeyPhotoStudio: StudioService {}

/// The remote session's effects: its own, and the export of its items through the triage worker.
public final class RemoteEffects: RemoteService {
    private let session: RemoteSession
    private let worker: TriageWorker
    private let exporter = RemoteItemExport()
    private let post: @Sendable (BrowserAction) -> Void

    public init(session: RemoteSession, worker: TriageWorker, post: @escaping @Sendable (BrowserAction) -> Void) {
        self.session = session
        self.worker = worker
        self.post = post
    }

    public func perform(_ effect: RemoteEffect) { session.perform(effect) }

    public func export(_ items: [LibraryItem], choices: [ExportChoice], destination: String, stripLocation: Bool,
                       ratings: [ItemID: TriageState]) {
        exporter.start(items, choices: choices, destination: destination, stripLocation: stripLocation, ratings: ratings,
                       library: session.current, worker: worker, post: post)
    }

    public func cancelExport() { exporter.cancel() }
}
