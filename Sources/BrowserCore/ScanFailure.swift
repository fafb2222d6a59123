import LibraryCore

/// Why a scan of the library folder failed, kept as a value from the scan's thread through the action and the
/// state; only the status bar and the empty grid turn it into a sentence (`description`).
public enum ScanFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder is gone (deleted, an unmounted disk).
    case folderMissing(path: String)
    /// The path names a file, not a folder.
    case notAFolder(path: String)
    /// The folder exists but cannot be listed; `reason` is the system's word for it ("Permission denied").
    case folderUnreadable(path: String, reason: String)
    /// A failure of a kind the scanner does not throw today; its own description is all there is to say.
    case unexpected(String)

    /// The typed failure for whatever the scan threw.
    public init(_ error: any Error) {
        switch error {
        case let failure as ScanFailure: self = failure
        case LibraryScanError.missing(let path): self = .folderMissing(path: path)
        case LibraryScanError.notADirectory(let path): self = .notAFolder(path: path)
        case LibraryScanError.unreadable(let path, let reason): self = .folderUnreadable(path: path, reason: reason)
        default: self = .unexpected("\(error)")
        }
    }

    /// The folder whose scan failed, when the failure names one.
    public var folder: String? {
        switch self {
        case .folderMissing(let path), .notAFolder(let path), .folderUnreadable(let path, _): return path
        case .unexpected: return nil
        }
    }

    /// One plain sentence for the user.
    public var description: String {
        switch self {
        case .folderMissing(let path): return "the folder \(path) does not exist (deleted or on a disk that is not mounted)"
        case .notAFolder(let path): return "\(path) is a file, not a folder"
        case .folderUnreadable(let path, let reason): return "cannot read the folder \(path): \(reason)"
        case .unexpected(let text): return text
        }
    }
}
