import Foundation
import LibraryCore
import LibrarySources
import LivePairing
import MediaFormats

/// Where an export is, for a progress bar.
public struct ExportProgress: Sendable {
    public var itemIndex: Int
    public var itemCount: Int
    public var currentFile: String
    public var bytesDone: UInt64
    public var bytesTotal: UInt64
    public var fraction: Double { bytesTotal == 0 ? 1 : Double(bytesDone) / Double(bytesTotal) }
}

/// What an export did, item by item.
public struct ExportReport: Sendable {
    public struct ItemResult: Sendable {
        public var itemID: ItemID
        public var displayName: String
        public var kind: ItemKind
        public var choice: ExportChoice
        /// The files written, or why nothing was written for this item.
        public var written: [String]
        public var failure: ItemFailure?
    }

    /// Why an item counts as not exported, kept as a value in the report (issue 27.6); the summary line says it.
    public enum ItemFailure: Sendable, Equatable, CustomStringConvertible {
        /// The export was cancelled before this item (the item being copied then is rolled back).
        case cancelled
        /// Its files could not be read or written (or it was cancelled while copied); `cause` is the failing
        /// layer's own sentence.
        case notWritten(cause: String)
        /// The copies are complete, but the rating kept in livegrid's index could not be written beside them.
        case ratingNotWritten(cause: String)
        public var description: String {
            switch self {
            case .cancelled: return FileOperationError.cancelled.description
            case .notWritten(let cause): return cause
            case .ratingNotWritten(let cause): return "copied, but its rating could not be written beside the copy: \(cause)"
            }
        }
    }
    public var destination: String
    public var results: [ItemResult]

    public var exportedCount: Int { results.filter { $0.failure == nil }.count }
    public var failedCount: Int { results.count - exportedCount }

    /// One line per item, then a total: what the CLI prints and the UI's final dialog shows.
    public var summary: String { summaryLines.joined(separator: "\n") }

    /// The summary line by line (a file name may hold a line break: the CLI escapes each line on its own).
    /// How a failed item's line starts (the CLI sends those lines to standard error).
    public static let failurePrefix = "failed  "

    public var summaryLines: [String] {
        var lines = results.map { r -> String in
            if let failure = r.failure { return "\(Self.failurePrefix)\(r.displayName): \(failure.description)" }
            let names = r.written.map { ($0 as NSString).lastPathComponent }.joined(separator: " + ")
            let label = r.kind.isLive ? r.choice.rawValue : r.kind.rawValue
            return "\(label.padding(toLength: 6, withPad: " ", startingAt: 0))  \(names)"
        }
        lines.append("\(exportedCount) of \(Plural.count(results.count, "item")) exported to \(destination)"
                     + (failedCount > 0 ? ", \(failedCount) failed" : ""))
        return lines
    }
}

/// Runs an `ExportPlan`: each item's files copied as a group (paired names, nothing overwritten), each file
/// through `AtomicFileWriter`, so an interrupted export leaves no half file under a final name; a failed
/// item leaves none of its files behind.
public struct ExportRunner: Sendable {
    public var copier: FileCopier
    public init(copier: FileCopier = FileCopier()) { self.copier = copier }

    /// Throws only when the destination itself is unusable (missing, not a directory, read-only); per-item
    /// failures are in the report. Throwing from `progress` cancels: the current item is rolled back and
    /// the remaining ones are reported as cancelled.
    public func run(_ plan: ExportPlan, progress: ((ExportProgress) throws -> Void)? = nil) throws -> ExportReport {
        try FileGroupTransfer.checkDestination(plan.destination)
        let sources = plan.entries.map { entry in Result { try ExportPlan.sources(for: entry) } }
        // try?: the progress total counts what can be exported; a failed entry is reported by the loop below.
        let total = sources.reduce(UInt64(0)) { sum, r in
            sum + ((try? r.get()) ?? []).reduce(0) { $0 + fileSize($1) }
        }
        var done: UInt64 = 0
        var cancelled = false
        var results: [ExportReport.ItemResult] = []
        let transfer = FileGroupTransfer(copier: copier)
        for (index, entry) in plan.entries.enumerated() {
            var result = ExportReport.ItemResult(itemID: entry.item.id, displayName: entry.item.displayName,
                                                 kind: entry.item.kind, choice: entry.choice, written: [], failure: nil)
            defer { results.append(result) }
            if cancelled { result.failure = .cancelled; continue }
            let files: [String]
            switch sources[index] {
            case .success(let f): files = f
            case .failure(let error): result.failure = .notWritten(cause: String(describing: error)); continue
            }
            let before = done
            var finishedFiles: UInt64 = 0
            var lastSource = ""
            do {
                let observe: (String, UInt64) throws -> Void = { source, bytes in
                    if source != lastSource { finishedFiles = done - before; lastSource = source }
                    done = before + finishedFiles + bytes
                    try progress?(ExportProgress(itemIndex: index, itemCount: plan.entries.count,
                                                 currentFile: source, bytesDone: done, bytesTotal: total))
                }
                if plan.stripLocation {
                    result.written = try LocationStripper(copier: copier).write(
                        files, of: entry, to: plan.destination, transfer: transfer, observe: observe)
                } else if ExportPlan.writesStillWithoutMotion(entry) {
                    result.written = try writeStillWithoutMotion(files, to: plan.destination, transfer: transfer,
                                                                 observe: observe)
                } else {
                    result.written = try transfer.transfer(files, to: plan.destination, mode: .copy,
                                                           observe: observe).map(\.destination)
                }
                done = before + files.reduce(0) { $0 + fileSize($1) }
                if let state = plan.ratings[entry.item.id], let copy = result.written.first {
                    do {
                        let sidecar = try SidecarTriageStore.write(state, forFile: copy)
                        if PathBytes.exists(sidecar), !result.written.contains(sidecar) { result.written.append(sidecar) }
                    } catch {
                        // The copies are complete; the item still counts as failed, since its rating did not go along.
                        result.failure = .ratingNotWritten(cause: String(describing: error))
                    }
                }
            } catch {
                done = before + files.reduce(0) { $0 + fileSize($1) }
                result.failure = .notWritten(cause: String(describing: error))
                if case FileOperationError.cancelled = error { cancelled = true }
            }
        }
        return ExportReport(destination: plan.destination, results: results)
    }

    /// `files[0]` (a Motion Photo) written without its movie, the rest (sidecars) copied, as one group.
    private func writeStillWithoutMotion(_ files: [String], to directory: String, transfer: FileGroupTransfer,
                                         observe: (String, UInt64) throws -> Void) throws -> [String] {
        guard let still = files.first else { return [] }
        let source = try FileByteSource(path: still)
        let assembly = try MediaWriting.stillWithoutMotion(source)
        return try transfer.writeGroup(files.map { ($0 as NSString).lastPathComponent }, in: directory) { i, destination in
            try observe(files[i], 0)
            let writer = i == 0 ? try AtomicFileWriter.prepare(assembly, from: source, to: destination)
                : try copier.prepare(files[i], to: destination)
            try observe(files[i], fileSize(files[i]))
            return writer
        }
    }

    private func fileSize(_ path: String) -> UInt64 {
        var st = StatBuffer()
        return PathBytes.stat(path, &st) == 0 ? UInt64(max(0, st.st_size)) : 0
    }

}
