import Concurrent
import Foundation
import LibraryIndex
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
    /// Files whose bytes were probed in this scan; the others came from the library index.
    public var probedFiles: Int
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

/// Scans a local directory into library items: list, probe every media file's headers in parallel, pair.
public enum LibraryScanner {
    /// File extensions worth probing (lower-case). Anything else in a photo folder is not ours to show.
    public static let mediaExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "heic", "heif", "hif", "avif", "png", "gif", "webp", "tif", "tiff", "bmp",
        "mov", "mp4", "m4v", "qt",
    ]

    /// With `index`, a file whose device, inode, size and mtime are known takes its stored probe instead of
    /// being read; new and changed files are probed and stored.
    public static func scan(directory: String, recursive: Bool = false,
                            limits: ParseLimits = .default, index: LibraryIndex? = nil) throws -> LibraryScan {
        guard PathBytes.isDirectory(directory) else {
            throw PathBytes.exists(directory) ? LibraryScanError.notADirectory(directory) : LibraryScanError.missing(directory)
        }
        var warnings: [String] = []
        let paths = try listMediaFiles(root: directory, recursive: recursive, warnings: &warnings)
        let counter = ReadCounter()
        let probed = probeAll(paths, limits: limits, counter: counter, index: index)
        let items = LivePairer.pair(probed.map(\.file))
        if let warning = index?.warning { warnings.append(warning) }
        return LibraryScan(root: directory, items: items, warnings: warnings,
                           bytesRead: counter.bytes, reads: counter.reads,
                           probedFiles: probed.count(where: { !$0.fromIndex }))
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
    /// Looks at the bytes after the last dot (at most 4, ASCII): this runs for every name of a 100,000-file
    /// listing, where walking Characters and lower-casing a String per name showed.
    public static func isMediaName(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")), dot != utf8.startIndex else { return false }
        let ext = utf8[utf8.index(after: dot)...]
        guard (2...4).contains(ext.count) else { return false }
        var lowered: [UInt8] = []
        lowered.reserveCapacity(4)
        for byte in ext {
            guard byte < 0x80 else { return false }
            lowered.append(byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte)
        }
        return mediaExtensions.contains(String(decoding: lowered, as: UTF8.self))
    }

    /// Probes files on every core (Parallel.map: one worker per processor, results in listing order). New
    /// probes go to the index in transactions of a few hundred: a scan killed half-way keeps what it learnt,
    /// and no transaction holds the database long.
    static func probeAll(_ paths: [String], limits: ParseLimits, counter: ReadCounter,
                         index: LibraryIndex? = nil) -> [Probed] {
        let unsaved = Locked<[(stamp: FileStamp, info: MediaInfo)]>([])
        let results = Parallel.map(count: paths.count) { i -> Probed? in
            let probed = probeOne(paths[i], limits: limits, counter: counter, index: index)
            if let index, let probed, probed.fresh, let stamp = probed.stamp {
                let batch: [(stamp: FileStamp, info: MediaInfo)]? = unsaved.withLockedValue { pending in
                    pending.append((stamp, probed.file.info))
                    guard pending.count >= indexBatch else { return nil }
                    defer { pending.removeAll(keepingCapacity: true) }
                    return pending
                }
                if let batch { index.store(batch) }
            }
            return probed
        }
        index?.store(unsaved.value)
        return results.compactMap { $0 }
    }

    static let indexBatch = 256

    /// One file's result: the file, its stamp for the index, and whether it was probed now (not from the index).
    struct Probed: Sendable {
        var file: MediaFile
        var stamp: FileStamp?
        var fresh: Bool
        var fromIndex = false
    }

    static func probeOne(_ path: String, limits: ParseLimits, counter: ReadCounter, index: LibraryIndex? = nil) -> Probed? {
        var st = StatBuffer()
        guard PathBytes.stat(path, &st) == 0 else {
            var info = MediaInfo(format: .unknown)
            info.problems.append(ParseProblem(.error, "file", String(cString: strerror(errno))))
            return Probed(file: MediaFile(path: path, size: 0, modificationTime: 0, info: info), stamp: nil, fresh: true)
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let mtime = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
        let size = UInt64(max(0, st.st_size))
        let stamp = FileStamp(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: size,
                              modificationNanoseconds: Int64(st.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_mtim.tv_nsec))
        if let known = index?.lookup(stamp) {
            return Probed(file: MediaFile(path: path, size: size, modificationTime: mtime, info: known), stamp: stamp, fresh: false,
                          fromIndex: true)
        }
        let info: MediaInfo
        var fresh = true
        do {
            info = try MediaProbe.probe(path: path, limits: limits, counter: counter)
        } catch {
            var failed = MediaInfo(format: .unknown)
            failed.problems.append(ParseProblem(.error, "file", error.description))
            info = failed
            fresh = false   // an I/O failure (permissions, a vanished file) is not a fact about its bytes
        }
        return Probed(file: MediaFile(path: path, size: size, modificationTime: mtime, info: info), stamp: stamp, fresh: fresh)
    }
}
