import BrowserCore
import Library
import LibraryCore
import LivePairing

/// Carries out the reducer's effects: each `BrowserEffect` goes to the service that performs it, and what a
/// service reports at once (a movie that cannot start, a scan that started) comes back as actions for the
/// reducer, in the same loop turn. Nothing here draws or reads the terminal: the screen is a `ScreenControl`.
public final class EffectDispatcher {
    public struct Services {
        public var screen: any ScreenControl
        public var playback: any PlaybackService
        public var scans: any ScanService
        public var triage: any TriageService
        public var studio: any StudioService
        /// Set when browsing a remote directory.
        public var remote: (any RemoteService)?
        /// Where background reports go (the loop's inbox).
        public var post: @Sendable (BrowserAction) -> Void
        /// Called with the item a hold plays, or nil when playback stops (the playback seam's observer).
        public var onPlayback: ((LibraryItem?) -> Void)?

        public init(screen: any ScreenControl, playback: any PlaybackService, scans: any ScanService,
                    triage: any TriageService, studio: any StudioService, remote: (any RemoteService)?,
                    post: @escaping @Sendable (BrowserAction) -> Void, onPlayback: ((LibraryItem?) -> Void)? = nil) {
            self.screen = screen
            self.playback = playback
            self.scans = scans
            self.triage = triage
            self.studio = studio
            self.remote = remote
            self.post = post
            self.onPlayback = onPlayback
        }
    }

    private let services: Services

    public init(_ services: Services) {
        self.services = services
    }

    /// Carries out `effect` against the state that asked for it; returns what it reports back, for the reducer.
    public func perform(_ effect: BrowserEffect, state: BrowserState) -> [BrowserAction] {
        switch effect {
        case .startScan:
            // One scan at a time; a local scan is of the folder the state shows (entered or left since start).
            guard !state.isScanning else { return [] }
            services.scans.startScan(folder: state.folders.current, recursive: state.folders.recursive)
            return [.scanStarted]
        case .startPlayback(let itemID), .startHint(let itemID):
            // Remote items play their downloaded copy (nil until playable); local items play as they are.
            guard let item = state.playableItem(id: itemID) else { return [] }
            let isHint = effect == .startHint(itemID: itemID)
            if !isHint { services.onPlayback?(item) }
            return services.playback.start(item, shownID: itemID, purpose: isHint ? .hint : .hold, state: state)
        case .stopPlayback:
            services.onPlayback?(nil)
            return services.playback.stop()
        case .quit:
            return []
        case .redrawAll:
            services.screen.redrawAll()
            return []
        case .remote(let remoteEffect):
            services.remote?.perform(remoteEffect)
            return []
        case .triage(let request):
            perform(request, state: state)
            return []
        case .studio(let request):
            services.studio.perform(request)
            return []
        }
    }

    private func perform(_ request: TriageRequest, state: BrowserState) {
        guard let remote = services.remote else {
            services.triage.perform(request)
            return
        }
        // Remote items are names on a server, not files here: file operations would act on the working
        // directory. Marks, filters, and ratings and flags (kept in livegrid's index) work remotely, and an
        // export downloads the files and exports local copies.
        switch request {
        case .loadRemoteStates, .writeRemoteState:
            services.triage.perform(request)
        case .export(let items, let choices, let destination, let stripLocation, _):
            // The ratings shown (kept in the index under the items' URLs) go along as sidecars.
            let ratings = items.reduce(into: [ItemID: TriageState]()) { $0[$1.id] = state.triage.states[$1.id] }
            remote.export(items, choices: choices, destination: destination, stripLocation: stripLocation, ratings: ratings)
        case .cancelExport:
            remote.cancelExport()
            services.triage.perform(request)
        default:
            services.post(.triage(.result(RemoteSession.refusal(of: request))))
        }
    }
}
