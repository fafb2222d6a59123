import LivePairing
import MediaFormats

/// The result of scanning a directory: items in display order plus warnings about the scan itself.
public struct LibraryScan: Sendable {
    public var root: String
    public var items: [LibraryItem]
    /// Problems not tied to one item (unreadable subdirectory, ...).
    public var warnings: [String]
    public init(root: String, items: [LibraryItem], warnings: [String]) {
        self.root = root
        self.items = items
        self.warnings = warnings
    }
}

/// Scans a local directory into library items. (Stub: implemented next.)
public enum LibraryScanner {
    public static func scan(directory: String, recursive: Bool = false) throws -> LibraryScan {
        LibraryScan(root: directory, items: [], warnings: [])
    }
}
