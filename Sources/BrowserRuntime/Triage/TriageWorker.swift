import BrowserCore
import Concurrent
import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing
import MediaFormats

/// Runs the triage file work (sidecars, trash, copy/move, rotate, export) on one background queue, in the
/// order asked, and posts the results to the app's inbox. The draw loop never waits on a file.
public final class TriageWorker: Sendable {
    /// One serial queue: file operations run one at a time, in the order asked (an undo after its trash).
    private let queue = DispatchQueue(label: "livegrid.triage")
    private let cancelRequested = Locked(false)
    private let post: @Sendable (BrowserAction) -> Void
    /// `HOME` at launch: `~` in typed destinations and completions.
    private let home: String?
    /// The user's trash (`XDG_DATA_HOME`/`HOME` at launch).
    private let trash: FreedesktopTrash

    /// Where ratings and flags go: sidecars, or livegrid's index where a folder cannot be written.
    private let store: TriageStore

    public init(environment: RuntimeEnvironment, store: TriageStore = .sidecarsOnly,
                post: @escaping @Sendable (BrowserAction) -> Void) {
        home = environment.home
        self.store = store
        trash = FreedesktopTrash(environment: environment.variables)
        self.post = post
    }

    public func perform(_ request: TriageRequest) {
        if case .cancelExport = request {
            cancelRequested.set(true)
            return
        }
        // A new transfer starts uncancelled (the flag cancels the copy, move or export that runs).
        switch request {
        case .export, .transfer: cancelRequested.set(false)
        default: break
        }
        queue.async { [self] in
            // Posting wakes the event loop.
            if let result = run(request) { post(.triage(.result(result))) }
        }
    }

    /// Returns once every request asked so far has run (the browser quits only then).
    public func waitUntilIdle() {
        queue.sync {}
    }

    private var isCancelled: Bool { cancelRequested.value }

    private func run(_ request: TriageRequest) -> TriageResult? {
        switch request {
        case .loadStates(let items):
            return .statesLoaded(store.read(items))
        case .writeState(let state, let item):
            do {
                switch try store.write(state, for: item) {
                case .sidecar: return nil
                case .index(let reason): return .keptInIndex(reason: reason)
                }
            } catch {
                return .stateNotSaved(itemID: item.id, state: store.read([item])[item.id] ?? .unrated,
                                      .ratingNotSaved(cause: error.description))
            }
        case .loadRemoteStates(let subjects):
            return .statesLoaded(store.read(remote: subjects))
        case .writeRemoteState(let state, let subject):
            do {
                try store.write(state, remote: subject)
                return .keptInIndex(reason: TriageStore.remoteReason)
            } catch {
                return .stateNotSaved(itemID: subject.itemID, state: store.read(remote: [subject])[subject.itemID] ?? .unrated,
                                      .ratingNotSaved(cause: error.description))
            }
        case .trash(let items):
            let (undo, outcomes) = ItemFileOperations.trash(items, using: trash)
            let files = undo.records.reduce(0) { $0 + $1.entries.count }
            var text = "Trashed \(Plural.count(undo.records.count, "item")) (\(Plural.count(files, "file")))"
            if !undo.isEmpty { text += " — u to undo" }
            return .trashed(undo, message: text + Self.failures(outcomes.compactMap(\.error)))
        case .restore(let undo):
            let outcomes = ItemFileOperations.restore(undo, using: trash)
            let restored = outcomes.filter { $0.error == nil }.count
            return .finished(message: "Restored \(restored) of \(Plural.count(outcomes.count, "item"))"
                             + Self.failures(outcomes.compactMap(\.error)), filesChanged: true)
        case .transfer(let items, let directory, let move):
            let destination = TriagePrompt.expandingTilde(directory, home: home)
            let outcomes = ItemFileOperations.transfer(items, to: destination, mode: move ? .move : .copy) { [self] _, _ in
                // Checked after every chunk: the item being copied is rolled back (its temporaries removed).
                if isCancelled { throw FileOperationError.cancelled }
            }
            // try?: the names of the files that moved; each failure is counted and told from `outcomes` below.
            let names = outcomes.compactMap { try? $0.result.get() }.flatMap { $0 }
                .map { ($0.destination as NSString).lastPathComponent }
            let done = outcomes.filter { $0.error == nil }.count
            var text = "\(move ? "Moved" : "Copied") \(done) of \(Plural.count(items.count, "item"))"
            if isCancelled { text = "Cancelled: " + text }
            if done > 0 { text += " (u undoes)" }
            text += " to \(destination)"
            if !names.isEmpty { text += ": " + names.joined(separator: ", ") }
            let undo = ItemFileOperations.transferUndo(outcomes, move: move)
            return .transferred(undo.isEmpty ? nil : undo, message: text + Self.failures(outcomes.compactMap(\.error)),
                                filesChanged: move)
        case .undoTransfer(let undo):
            let outcomes = ItemFileOperations.undoTransfer(undo)
            let done = outcomes.filter { $0.error == nil }.count
            let text = undo.isMove ? "Moved back \(done) of \(Plural.count(outcomes.count, "item"))"
                : "Removed the copies of \(done) of \(Plural.count(outcomes.count, "item"))"
            return .finished(message: text + Self.failures(outcomes.compactMap(\.error)), filesChanged: undo.isMove)
        case .completePath(let typed):
            return .completions(for: typed, candidates: PathCompletion.candidates(for: typed, home: home))
        case .readLocation(let item):
            return .location(itemID: item.id, text: Self.locationText(item))
        case .rotate(let item, let adjustment):
            do {
                switch try AdjustmentApplier(writer: MediaWritingOrientationWriter())
                    .apply(adjustment, to: item, target: .inPlace(confirmed: true)) {
                case .applied(let paths):
                    let names = paths.map { ($0 as NSString).lastPathComponent }.joined(separator: " + ")
                    return .rotated(item, adjustment, message: "Rotated \(names) (u undoes)")
                case .offerConvertToStill(let why):
                    return .offerConvertToStill(item, adjustment, why)
                }
            } catch {
                return .failed(.cannotRotate(itemName: item.displayName, cause: ErrorCause.of(error)))
            }
        case .rotatedStillCopy(let item, let adjustment):
            return rotatedStillCopy(item, adjustment)
        case .undoRotate(let items, let adjustment):
            // The inverse turn, from the files as they are now (the writers read the current orientation).
            var failures: [String] = []
            for item in items {
                do {
                    _ = try AdjustmentApplier(writer: MediaWritingOrientationWriter())
                        .apply(adjustment.inverse, to: item, target: .inPlace(confirmed: true))
                } catch {
                    failures.append("\(item.displayName): \(ErrorCause.of(error))")
                }
            }
            let names = items.prefix(3).map(\.displayName).joined(separator: ", ") + (items.count > 3 ? ", …" : "")
            let text = failures.isEmpty ? "Turned back \(names)"
                : "Turned back \(items.count - failures.count) of \(Plural.count(items.count, "item")) · \(failures.count) failed: \(failures[0])"
            return .finished(message: text, filesChanged: true)
        case .export(let items, let choices, let destination, let stripLocation, let ratings):
            return export(items, choices: choices, destination: TriagePrompt.expandingTilde(destination, home: home),
                          stripLocation: stripLocation, ratings: ratings)
        case .cancelExport:
            return nil
        }
    }

    /// The still exported beside the original (no movie, a new name), then turned in place: the original
    /// Live or Motion Photo is left as it was.
    private func rotatedStillCopy(_ item: LibraryItem, _ adjustment: Adjustment) -> TriageResult {
        guard let still = item.still else {
            return .failed(.noStill(itemName: item.displayName))
        }
        let directory = (still.path as NSString).deletingLastPathComponent
        do {
            var plan = ExportPlan(items: [item], destination: directory.isEmpty ? "." : directory)
            plan.setChoiceForAll(.stillPhoto)
            let report = try ExportRunner().run(plan)
            guard let copy = report.results.first?.written.first, report.failedCount == 0 else {
                return .failed(.cannotCopyStill(cause: report.results.first?.failure?.description ?? "?"))
            }
            let file = MediaFile(path: copy, size: 0, modificationTime: 0, info: MediaInfo(format: .jpeg))
            _ = try AdjustmentApplier(writer: MediaWritingOrientationWriter())
                .apply(adjustment, to: LibraryItem(kind: .still, still: file), target: .inPlace(confirmed: true))
            let name = (copy as NSString).lastPathComponent
            return .doneWithoutUndo(summary: "the rotated still copy \(name)",
                                    reason: "a new file is not deleted by undo; trash it with d if unwanted",
                                    message: "Wrote a rotated still \(name); \(item.displayName) is unchanged", filesChanged: true)
        } catch {
            return .failed(.cannotMakeRotatedStill(cause: ErrorCause.of(error)))
        }
    }

    /// The first position found in the item's files, as text for the info panel.
    private static func locationText(_ item: LibraryItem) -> String {
        for file in item.files where file.info.hasGPS {
            do {
                if let location = try LocationReader.location(try FileByteSource(path: file.path)) {
                    return location.description
                }
            } catch {
                return "unreadable (\(ErrorCause.of(error)))"
            }
        }
        return "not readable from the file"
    }

    private func export(_ items: [LibraryItem], choices: [ExportChoice], destination: String,
                        stripLocation: Bool, ratings: [ItemID: TriageState]) -> TriageResult {
        var plan = ExportPlan(items: items, destination: destination, stripLocation: stripLocation)
        for (item, choice) in zip(items, choices) { plan.setChoice(choice, forItem: item.id) }
        // Ratings kept in the index (a read-only folder) leave as sidecars beside the copies (issue 31.5).
        for item in items {
            if let state = ratings[item.id] ?? store.indexedState(of: item), state != TriageState() { plan.ratings[item.id] = state }
        }
        var lastPost = Date.distantPast
        do {
            let report = try ExportRunner().run(plan) { [self] progress in
                if isCancelled { throw FileOperationError.cancelled }
                // A few updates a second are enough for a status bar.
                guard Date().timeIntervalSince(lastPost) > 0.1 else { return }
                lastPost = Date()
                let name = (progress.currentFile as NSString).lastPathComponent
                post(.triage(.result(.progress(
                    "exporting \(progress.itemIndex + 1)/\(progress.itemCount) \(Int(progress.fraction * 100))% \(name) · Esc cancels"))))
            }
            let lines = report.summary.split(separator: "\n").map(String.init)
            let failures = lines.filter { $0.hasPrefix("failed") }
            return .finished(message: ([lines.last ?? ""] + failures).joined(separator: " · "), filesChanged: false)
        } catch {
            return .failed(.exportFailed(cause: ErrorCause.of(error)))
        }
    }

    private static func failures(_ errors: [any Error]) -> String {
        guard let first = errors.first else { return "" }
        return " · \(errors.count) failed: \(ErrorCause.of(first))"
    }
}
