/// Why a triage step failed, kept as a value from the triage worker through `TriageResult` (issue 27.6); the
/// status bar makes the sentence (`description`). `cause` is the failing layer's own sentence (the sidecar
/// store's, the writer's, the exporter's), said after ours.
public enum TriageFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// A rating or flag could not be written; the store's sentence names the file and says so.
    case ratingNotSaved(cause: String)
    /// Remote items are names on a server, not files here: the file operations and ratings refuse them.
    case notAvailableRemotely
    /// A lossless turn in place failed (nothing was changed).
    case cannotRotate(itemName: String, cause: String)
    /// A rotated still copy was asked of an item without a still.
    case noStill(itemName: String)
    /// The still copy for a rotated still could not be exported.
    case cannotCopyStill(cause: String)
    /// The still copy was written but could not be turned (so files changed).
    case cannotMakeRotatedStill(cause: String)
    case exportFailed(cause: String)

    public var description: String {
        switch self {
        case .ratingNotSaved(let cause): return cause
        case .notAvailableRemotely: return "not available for a remote directory"
        case .cannotRotate(let name, let cause): return "cannot rotate \(name): \(cause)"
        case .noStill(let name): return "\(name) has no still"
        case .cannotCopyStill(let cause): return "cannot make a still copy: \(cause)"
        case .cannotMakeRotatedStill(let cause): return "cannot make a rotated still: \(cause)"
        case .exportFailed(let cause): return "export failed: \(cause)"
        }
    }

    /// Whether files changed before the failure (a rescan is due): the rotated still's copy was written.
    public var filesChanged: Bool {
        if case .cannotMakeRotatedStill = self { return true }
        return false
    }
}
