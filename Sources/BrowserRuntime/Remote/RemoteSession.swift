import BrowserCore
import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing

/// The browser's link to a `RemoteLibrary`: loads directories on a background task, forwards every library
/// event to the UI loop through the `EventInbox` (tagged with its directory, so late events of a directory
/// left since are dropped), and carries out `RemoteEffect`s. Nothing here blocks the UI thread: listing,
/// probing and downloads run on the HTTP client's libcurl thread and Swift concurrency's threads.
public final class RemoteSession {
    private let inbox: EventInbox
    /// The directory shown, with the ones above it (root first) to go back up without listing again.
    private var stack: [RemoteLibrary]
    private var observerToken: Int?
    private var loadTask: Task<Void, Never>?

    /// `downloadCacheRoot`: where downloads are kept (from the launch environment).
    /// `probeMemory`: where previews read before are remembered (the library index), so a reopened folder
    /// reads none again for files its listing shows unchanged; nil with `--no-index`.
    public init(url: URL, client: RemoteHTTPClient?, inbox: EventInbox, downloadCacheRoot: String,
                maxEntries: Int = RemoteListingParser.defaultMaxEntries, probeMemory: RemoteProbeMemory? = nil) {
        self.inbox = inbox
        let library = RemoteLibrary(url: url, client: client ?? RemoteHTTPClient(), cacheRoot: downloadCacheRoot)
        // The browser reads only what the screen asks for (issue 17): names first, files of the shown items.
        library.probePolicy = .onDemand
        library.maxEntries = maxEntries
        library.probeMemory = probeMemory
        stack = [library]
    }

    deinit {
        loadTask?.cancel()
        current.downloads.cancelAll()
    }

    public var current: RemoteLibrary { stack[stack.count - 1] }

    /// On quit: downloads stop and their partial files go (complete ones stay cached). The directories of
    /// the stack share one download manager.
    public func close() {
        loadTask?.cancel()
        current.downloads.discardPartials()
    }

    /// Lists the current directory (again, for `r`); events arrive through the inbox.
    public func load() {
        let library = current
        if let observerToken { library.removeObserver(observerToken) }
        let inbox = self.inbox, directory = library.url
        observerToken = library.addObserver { event in
            inbox.post(.remote(.event(directory: directory, event)))
        }
        loadTask?.cancel()
        // A Task, not a thread: RemoteLibrary's API is async (it awaits the curl worker's transfers) and
        // cancelling the task is how a newer load, or leaving the folder, stops the listing.
        loadTask = Task.detached { [library, inbox, directory] in
            do {
                try await library.load()
            } catch {
                inbox.post(.remote(.listingFailed(directory: directory, RemoteSession.remoteError(error))))
            }
        }
    }

    public func perform(_ effect: RemoteEffect) {
        switch effect {
        case .openDirectory(let entry):
            let child = current.subdirectory(entry)
            switchTo { $0.append(child) }
        case .openParent:
            guard stack.count > 1 else { return }
            switchTo { $0.removeLast() }
        case .retry(let id):
            current.retry(id)
        case .requestPlay(let id):
            current.requestPlay(id)
        }
    }

    private func switchTo(_ change: (inout [RemoteLibrary]) -> Void) {
        if let observerToken { current.removeObserver(observerToken) }
        observerToken = nil
        // Downloads of the directory left behind that have not started are dropped; running ones finish
        // (they are shared through the cache when the user comes back).
        Self.cancelQueued(of: current)
        change(&stack)
        load()
    }

    /// Drops the library's downloads that are queued but not running (`cancel` leaves running ones' partial
    /// files for a resume; queued ones simply leave the queue).
    public static func cancelQueued(of library: RemoteLibrary, keeping keep: Set<ItemID> = []) {
        for item in library.items where !keep.contains(item.id) {
            for (url, state) in [(item.stillURL, item.stillState), (item.movieURL, item.movieState)] {
                if let url, state == .queued { library.downloads.cancel(url) }
            }
        }
    }

    /// The answer to a triage file operation on a remote directory: remote items are names on a server, not
    /// files here, so trash/copy/rotate/ratings would act on the working directory. Only in-memory triage
    /// (marks, filters) works remotely for now; the refusal goes back as an ordinary result.
    public static func refusal(of request: TriageRequest) -> TriageResult {
        switch request {
        case .loadStates: return .statesLoaded([:])
        case .writeState(let state, let item): return .stateNotSaved(itemID: item.id, state: state, .notAvailableRemotely)
        default: return .failed(.notAvailableRemotely)
        }
    }

    /// A listing's failure as the reducer carries it. The listing layers throw `RemoteError`; anything else
    /// (none is known) goes as a transport failure in its own words, which reads as it did.
    static func remoteError(_ error: Error) -> RemoteError {
        error as? RemoteError ?? .transport(ErrorCause.of(error))
    }
}
