import BrowserCore
import Concurrent
import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import MediaFormats

/// The browser's export of remote items (an S3 bucket, SFTP, HTTP): their files are downloaded through the
/// library's own downloads (the cache, the per-item progress and the activity line are those of viewing),
/// linked under their own names into a private temporary folder, and exported from there by the triage
/// worker exactly as local files are (a pair stays a pair; the dialog's choices and location stripping
/// apply). The folder goes once the export ended. `livegrid export s3://…` does the same from the command
/// line (RemoteExportStaging).
public final class RemoteItemExport: Sendable {
    private let cancelled = Locked(false)

    public init() {}

    /// Stops an export still waiting for its downloads (the triage worker cancels one already writing).
    public func cancel() { cancelled.set(true) }

    /// `ratings` (by the remote item's id): the ratings and flags shown, which leave as sidecars beside the copies.
    public func start(_ items: [LibraryItem], choices: [ExportChoice], destination: String, stripLocation: Bool,
                      ratings: [ItemID: TriageState] = [:], library: RemoteLibrary, worker: TriageWorker, post: @escaping @Sendable (BrowserAction) -> Void) {
        cancelled.set(false)
        let cancelled = self.cancelled
        NamedThread.start("livegrid-rexport") {
            let outcome = Self.download(items.map(\.id), library: library, cancelled: cancelled, post: post)
            guard case .success(let remoteItems) = outcome else {
                if case .failure(let failure) = outcome { post(.triage(.result(.finished(message: failure.message, filesChanged: false)))) }
                return
            }
            let staging = FileManager.default.temporaryDirectory
                .appendingPathComponent("livegrid-export-\(getpid())-\(UUID().uuidString)")
            defer {
                try? FileManager.default.removeItem(at: staging)   // try?: temporary links; a leftover costs only temporary space
            }
            do {
                let staged = try Self.stage(remoteItems, in: staging)
                // The staged copies have ids of their own (their paths here): the ratings follow them.
                var stagedRatings: [ItemID: TriageState] = [:]
                for (remote, copy) in zip(remoteItems, staged) { stagedRatings[copy.id] = ratings[remote.item.id] }
                worker.perform(.export(items: staged, choices: choices, destination: destination, stripLocation: stripLocation,
                                       ratings: stagedRatings))
                // The folder stays until the worker has written the export from it.
                worker.waitUntilIdle()
            } catch {
                post(.triage(.result(.failed(.exportFailed(cause: "cannot stage the downloaded files: \(ErrorCause.of(error))")))))
            }
        }
    }

    struct Failure: Error { var message: String }

    /// Asks for every file of the items and waits (on this thread, woken by the library's events) until all
    /// are on disk; a failed file or a cancel ends it.
    private static func download(_ ids: [ItemID], library: RemoteLibrary, cancelled: Locked<Bool>,
                                 post: @escaping @Sendable (BrowserAction) -> Void) -> Result<[RemoteItem], Failure> {
        let wake = DispatchSemaphore(value: 0)
        let token = library.addObserver { event in
            if case .itemChanged = event { wake.signal() }
        }
        defer { library.removeObserver(token) }
        for id in ids { library.download(id, priority: .play) }
        var lastShown = -1
        while true {
            if cancelled.value { return .failure(Failure(message: "export cancelled")) }
            let items = ids.compactMap { library.item(id: $0) }
            guard items.count == ids.count else { return .failure(Failure(message: "export failed: the folder changed meanwhile")) }
            if let failed = items.first(where: { $0.failure != nil }), let error = failed.failure {
                return .failure(Failure(message: "export failed: \(failed.item.displayName): \(error.description)"))
            }
            let states = items.flatMap { item in [item.stillLocation.map { _ in item.stillState }, item.movieLocation.map { _ in item.movieState }] }
                .compactMap { $0 }
            let done = states.filter(\.isDownloaded).count
            if done == states.count { return .success(items) }
            if done != lastShown {
                lastShown = done
                post(.triage(.result(.progress("downloading for the export: \(done) of \(states.count) files · Esc cancels"))))
            }
            // Woken by the next download event; the timeout only lets a cancel be seen while nothing arrives.
            _ = wake.wait(timeout: .now() + 0.5)
        }
    }

    /// The downloaded copies under their own names (hard links, copies across devices), as local items with
    /// the facts read from them.
    static func stage(_ items: [RemoteItem], in directory: URL) throws -> [LibraryItem] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try items.map { remote in
            var item = remote.item
            item.still = try remote.item.still.map { try stage($0, from: remote.stillState, in: directory) }
            item.movie = try remote.item.movie.map { try stage($0, from: remote.movieState, in: directory) }
            return item
        }
    }

    private static func stage(_ file: MediaFile, from state: DownloadState, in directory: URL) throws -> MediaFile {
        guard let local = state.localPath else { throw Failure(message: "\(file.fileName) is not downloaded") }
        // The listing's name, checked when listed (no "/", no control character): it names the file here.
        let target = directory.appendingPathComponent(file.fileName).path
        do {
            try FileManager.default.linkItem(atPath: local, toPath: target)
        } catch {
            try FileManager.default.copyItem(atPath: local, toPath: target)
        }
        var staged = file
        staged.path = target
        if let info = try? MediaProbe.probe(path: target, limits: .default) {   // try?: unreadable keeps the listing's guess
            staged.info = info
        }
        return staged
    }
}
