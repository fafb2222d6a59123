import LivePairing

/// The result of scanning a directory: items in display order plus warnings about the scan itself.
public struct LibraryScan: Sendable {
    public var root: String
    public var items: [LibraryItem]
    /// Problems not tied to one item (unreadable subdirectory, ...).
    public var warnings: [String]
    /// Bytes and reads the probes made (for the benchmark: "a still costs one or two small reads").
    public var bytesRead: UInt64
    public var reads: Int
    /// Files whose bytes were probed in this scan; the others came from the library index.
    public var probedFiles: Int
    /// The root's subfolders (paths as the scanner spells them, natural name order) when the scan did not
    /// descend: the browser shows them as cells to enter (issue 31.2). Empty for a recursive scan.
    public var folders: [String] = []
    /// Whether the scan descended (`-r`): the browser matches a result to the view that asked for it.
    public var recursive = false
    public init(root: String, items: [LibraryItem], warnings: [String], bytesRead: UInt64 = 0, reads: Int = 0,
                probedFiles: Int? = nil) {
        self.root = root
        self.items = items
        self.warnings = warnings
        self.bytesRead = bytesRead
        self.reads = reads
        self.probedFiles = probedFiles ?? items.reduce(0) { $0 + ($1.still == nil ? 0 : 1) + ($1.movie == nil ? 0 : 1) }
    }

    // Counted in place: `files` and `filter` copied every item (whole MediaInfo structs) to count them.
    public var fileCount: Int { items.reduce(0) { $0 + ($1.still == nil ? 0 : 1) + ($1.movie == nil ? 0 : 1) } }
    public func count(of kind: ItemKind) -> Int { items.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) } }
}

public enum LibraryScanError: Error, CustomStringConvertible {
    case missing(String)
    case notADirectory(String)
    case unreadable(String, String)

    public var description: String {
        switch self {
        case .missing(let p): return "\(p) does not exist"
        case .notADirectory(let p): return "\(p) is not a directory"
        case .unreadable(let p, let why): return "cannot read the folder \(p): \(why)"
        }
    }
}

extension LibraryScan {
    /// File extensions worth probing (lower-case). Anything else in a photo folder is not ours to show.
    public static let mediaExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "heic", "heif", "hif", "avif", "png", "gif", "webp", "tif", "tiff", "bmp",
        "mov", "mp4", "m4v", "qt",
    ]
}
