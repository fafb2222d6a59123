import Concurrent
import Foundation
import LivePairing
import MediaFormats

/// The result of scanning a directory: items in display order plus warnings about the scan itself.
public struct LibraryScan: Sendable {
    public var root: String
    public var items: [LibraryItem]
    /// Problems not tied to one item (unreadable subdirectory, ...).
    public var warnings: [String]
    /// Bytes and reads the probes made (for the benchmark: "a still costs one or two small reads").
    public var bytesRead: UInt64
    public var reads: Int
    public init(root: String, items: [LibraryItem], warnings: [String], bytesRead: UInt64 = 0, reads: Int = 0) {
        self.root = root
        self.items = items
        self.warnings = warnings
        self.bytesRead = bytesRead
        self.reads = reads
    }

    public var fileCount: Int { items.reduce(0) { $0 + $1.files.count } }
    public func count(of kind: ItemKind) -> Int { items.filter { $0.kind == kind }.count }
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

/// Scans a local directory into library items: list, probe every media file's headers in parallel, pair.
public enum LibraryScanner {
    /// File extensions worth probing (lower-case). Anything else in a photo folder is not ours to show.
    public static let mediaExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "heic", "heif", "hif", "avif", "png", "gif", "webp", "tif", "tiff", "bmp",
        "mov", "mp4", "m4v", "qt",
    ]

    public static func scan(directory: String, recursive: Bool = false,
                            limits: ParseLimits = .default) throws -> LibraryScan {
        guard PathBytes.isDirectory(directory) else {
            throw PathBytes.exists(directory) ? LibraryScanError.notADirectory(directory) : LibraryScanError.missing(directory)
        }
        var warnings: [String] = []
        let paths = try listMediaFiles(root: directory, recursive: recursive, warnings: &warnings)
        let counter = ReadCounter()
        let files = probeAll(paths, limits: limits, counter: counter)
        let items = LivePairer.pair(files)
        return LibraryScan(root: directory, items: items, warnings: warnings,
                           bytesRead: counter.bytes, reads: counter.reads)
    }

    /// The first `count` still pictures of `directory` (not descending) in the scan's display order, from the
    /// directory listing alone: the browser's first screen is known before any file is probed, so its
    /// cached thumbnails can load while the scan runs. Best effort: a lone movie or an unreadable file
    /// shifts the real order a little; an unreadable directory gives no paths.
    public static func firstStills(directory: String, count: Int) -> [String] {
        var warnings: [String] = []
        guard count > 0, let paths = try? listMediaFiles(root: directory, recursive: false, warnings: &warnings) else {
            return []
        }
        let stills = paths.filter { !movieExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
        return Array(stills.sorted(by: NaturalOrder.less).prefix(count))
    }

    static let movieExtensions: Set<String> = ["mov", "mp4", "m4v", "qt"]

    /// Media files below `root`, as paths starting with `root`. Hidden entries and thumbnail caches are skipped.
    /// Each entry is typed (d_type, else lstat) before its name is looked at: a folder named `trip.jpg/` or
    /// `heic/` is a folder, descended into with `recursive`. Symbolic links to folders are not followed, and
    /// a folder reached twice (bind mounts) is read once, so there is no loop.
    static func listMediaFiles(root: String, recursive: Bool, warnings: inout [String]) throws -> [String] {
        var result: [String] = []
        var pending = [root]
        var isRoot = true
        var visited = Set<[UInt64]>()
        while let dir = pending.popLast() {
            var st = StatBuffer()
            if PathBytes.stat(dir, &st) == 0, !visited.insert([UInt64(st.st_dev), UInt64(st.st_ino)]).inserted { continue }
            let entries: [DirectoryEntry]
            do {
                entries = try PathBytes.entries(of: dir)
            } catch {
                if isRoot { throw LibraryScanError.unreadable(dir, error.description) }
                warnings.append("\(dir): cannot read directory (\(error.description)), skipped")
                continue
            }
            isRoot = false
            for entry in entries where !entry.name.hasPrefix(".") {
                let path = dir == "/" ? "/" + entry.name : dir + "/" + entry.name
                switch entry.kind {
                case .directory:
                    if recursive, entry.name != "thumbnails" { pending.append(path) }
                case .regular, .symbolicLink, .unknown:
                    // A link to a file counts (the probe follows it); a link to a folder is dropped by the probe.
                    if isMediaName(entry.name) { result.append(path) }
                case .other:
                    break   // a FIFO or device named like a photo would block or mislead the probe
                }
            }
        }
        return result
    }

    /// Whether a file name has one of the media extensions.
    public static func isMediaName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return mediaExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// Probes files on every core (Parallel.map: one worker per processor, results in listing order).
    static func probeAll(_ paths: [String], limits: ParseLimits, counter: ReadCounter) -> [MediaFile] {
        Parallel.map(count: paths.count) { probeOne(paths[$0], limits: limits, counter: counter) }.compactMap { $0 }
    }

    static func probeOne(_ path: String, limits: ParseLimits, counter: ReadCounter) -> MediaFile? {
        var st = StatBuffer()
        guard PathBytes.stat(path, &st) == 0 else {
            var info = MediaInfo(format: .unknown)
            info.problems.append(ParseProblem(.error, "file", String(cString: strerror(errno))))
            return MediaFile(path: path, size: 0, modificationTime: 0, info: info)
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let mtime = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
        let info: MediaInfo
        do {
            info = try MediaProbe.probe(path: path, limits: limits, counter: counter)
        } catch {
            var failed = MediaInfo(format: .unknown)
            failed.problems.append(ParseProblem(.error, "file", error.description))
            info = failed
        }
        return MediaFile(path: path, size: UInt64(max(0, st.st_size)), modificationTime: mtime, info: info)
    }
}
