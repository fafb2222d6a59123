import Concurrent
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LibraryCore
import LibraryIndex
import LivePairing
import MediaFormats

/// Scans a local directory into library items: list, probe every media file's headers in parallel, pair.
public enum LibraryScanner {
    /// File extensions worth probing (lower-case): `LibraryScan.mediaExtensions`.
    public static var mediaExtensions: Set<String> { LibraryScan.mediaExtensions }

    /// With `index`, a file whose device, inode, size and mtime are known takes its stored probe instead of
    /// being read; new and changed files are probed and stored, and rows of files gone from a scanned folder
    /// are removed.
    public static func scan(directory: String, recursive: Bool = false,
                            limits: ParseLimits = .default, index: LibraryIndex? = nil) throws -> LibraryScan {
        guard PathBytes.isDirectory(directory) else {
            throw PathBytes.exists(directory) ? LibraryScanError.notADirectory(directory) : LibraryScanError.missing(directory)
        }
        var warnings: [String] = []
        let listings = try listFolders(root: directory, recursive: recursive, warnings: &warnings)
        let counter = ReadCounter()
        var inputs: [ScanInput] = []
        inputs.reserveCapacity(listings.reduce(0) { $0 + $1.count })
        for (folder, listing) in listings.enumerated() {
            for entry in 0..<listing.count { inputs.append(ScanInput(folder: folder, entry: entry)) }
        }
        var folderRows = index?.rows(inFolders: listings.map(\.folder))
        var probed = probeAll(inputs, listings: listings, folderRows: folderRows, limits: limits, counter: counter,
                              index: index)
        inputs = []
        if let index, let folderRows { prune(index, listings: listings, folderRows: folderRows, seen: probed) }
        folderRows = nil   // let go before pairing, which makes the items (issue 17 item 4)
        let probedFiles = probed.count(where: { !$0.fromIndex })
        let items = pairByFolder(&probed, after: [], listings: listings)
        if let warning = index?.warning { warnings.append(warning) }
        var scan = LibraryScan(root: directory, items: items, warnings: warnings,
                               bytesRead: counter.bytes, reads: counter.reads, probedFiles: probedFiles)
        scan.describeFolders(listings, recursive: recursive)
        return scan
    }

    /// The first `count` still pictures of `directory` (not descending) in the scan's display order, from the
    /// directory listing alone: the browser's first screen is known before any file is probed, so its
    /// cached thumbnails can load while the scan runs. Best effort: a lone movie or an unreadable file
    /// shifts the real order a little; an unreadable directory gives no paths.
    public static func firstStills(directory: String, count: Int) -> [String] {
        var warnings: [String] = []
        // try?: a guess at the first screen; the scan itself reports an unreadable directory.
        guard count > 0, let paths = try? listMediaFiles(root: directory, recursive: false, warnings: &warnings) else {
            return []
        }
        let stills = paths.filter { !movieExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
        return NaturalOrder.firstIndices(stills, count: count).map { stills[$0] }
    }

    static let movieExtensions: Set<String> = ["mov", "mp4", "m4v", "qt"]

    /// Media files below `root`, as paths starting with `root` (`listFolders`, as paths).
    static func listMediaFiles(root: String, recursive: Bool, warnings: inout [String]) throws -> [String] {
        try listFolders(root: root, recursive: recursive, warnings: &warnings).flatMap { listing in
            (0..<listing.count).map { listing.path($0) }
        }
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

    /// One file to look at: its folder (a position in the scan's listings) and its entry there. No path: a
    /// path string per file of the listing was ~13 MB at 100,000 files (issue 17 item 4); it is made only to
    /// open a file for a probe.
    struct ScanInput: Sendable {
        var folder: Int
        var entry: Int
    }

    /// One file's result: the file, its stamp for the index, and whether it was probed now (not from the index).
    struct Probed: Sendable {
        var file: MediaFile
        var stamp: FileStamp?
        var fresh: Bool
        var fromIndex = false
        var folder = 0
    }

    /// What the first pass learnt about a file: done, or stat'ed and waiting for the index or a probe.
    private enum FirstLook: Sendable {
        case done(Probed)
        case pending(ScanInput, stamp: FileStamp, modificationTime: Double)
        case skipped
    }

    /// Looks at files on every core, in chunks (one claim per chunk, not per file), results in input order.
    /// Without an index every file is probed. With one, a file filed under its folder (`folderRows`) takes
    /// its stored probe; the others are looked up in one read transaction (each distinct file once: hard
    /// links share a row), and only what is still unknown is probed and stored, in transactions of a few
    /// hundred, so a scan killed half-way keeps what it learnt and no transaction holds the database long.
    static func probeAll(_ inputs: [ScanInput], listings: [FolderListing], folderRows: [FolderRows]?,
                         limits: ParseLimits, counter: ReadCounter, index: LibraryIndex? = nil) -> [Probed] {
        guard let index else {
            // Every file is probed in the first look: no array of looks beside the results.
            return inChunks(count: inputs.count, chunked: { range in
                var folderStat = FolderStat(listings: listings)
                defer { folderStat.close() }
                return range.compactMap { i -> Probed? in
                    let look = firstLook(inputs[i], stat: &folderStat, folderRows: folderRows, limits: limits,
                                         counter: counter, probe: true)
                    if case .done(let probed) = look { return probed }
                    return nil
                }
            })
        }
        let firstLooks: [FirstLook] = inChunks(count: inputs.count, chunked: { range in
            // Each file is stat'ed relative to its open folder (`fstatat`): no walk of the whole path per file.
            var folderStat = FolderStat(listings: listings)
            defer { folderStat.close() }
            return range.map { i in
                firstLook(inputs[i], stat: &folderStat, folderRows: folderRows, limits: limits, counter: counter,
                          probe: false)
            }
        })
        // Files not filed under their folder: one transaction of lookups, each distinct stamp once.
        var pendingStamps: [FileStamp] = []
        var seenStamps = Set<FileStamp>()
        for look in firstLooks {
            if case .pending(_, let stamp, _) = look, seenStamps.insert(stamp).inserted { pendingStamps.append(stamp) }
        }
        var found: [FileStamp: MediaInfo] = [:]
        for (stamp, info) in zip(pendingStamps, index.lookup(pendingStamps)) { if let info { found[stamp] = info } }
        let known = found
        let unsaved = Locked<[(stamp: FileStamp, folder: InodeKey, info: MediaInfo)]>([])
        let folders = listings.map(\.folder)
        // Only the files still pending are looked at again (in parallel); the result is then made in one pass over
        // the first looks. Made chunk by chunk over every look, it held the looks, the chunks and the result at
        // once: three arrays of every file of the library (issue 17 item 4).
        let pending = firstLooks.indices.filter { if case .pending = firstLooks[$0] { return true } else { return false } }
        let looked: [Probed] = inChunks(count: pending.count, chunked: { range in
            range.compactMap { k -> Probed? in
                guard case .pending(let input, let stamp, let mtime) = firstLooks[pending[k]] else { return nil }
                if let info = known[stamp] {
                    return Probed(file: listings[input.folder].mediaFile(input.entry, size: stamp.size,
                                                                         modificationTime: mtime, info: info),
                                  stamp: stamp, fresh: false, fromIndex: true, folder: input.folder)
                }
                let probed = probe(input, listings: listings, stamp: stamp, modificationTime: mtime, limits: limits,
                                   counter: counter)
                if probed.fresh {
                    let batch: [(stamp: FileStamp, folder: InodeKey, info: MediaInfo)]? = unsaved.withLockedValue { pending in
                        pending.append((stamp, folders[input.folder], probed.file.info))
                        guard pending.count >= indexBatch else { return nil }
                        defer { pending.removeAll(keepingCapacity: true) }
                        return pending
                    }
                    if let batch { index.store(batch) }
                }
                return probed
            }
        }, finally: { index.store(unsaved.value) })
        var result: [Probed] = []
        result.reserveCapacity(firstLooks.count)
        var next = looked.makeIterator()
        for look in firstLooks {
            switch look {
            case .skipped: continue
            case .done(let probed): result.append(probed)
            case .pending: if let probed = next.next() { result.append(probed) }
            }
        }
        return result
    }

    static let indexBatch = 256

    /// Rows filed under a scanned folder whose file the scan did not find there are removed (deleted, renamed
    /// to a name that is not media): the index does not grow with every deleted photo. A file the same scan
    /// found in another folder (moved) is filed again under that folder instead; a hard link found in both
    /// stays where it is (no write on every scan).
    static func prune(_ index: LibraryIndex, listings: [FolderListing], folderRows: [FolderRows], seen: [Probed],
                      alsoSeen: [Probed] = []) {
        var found = [Set<InodeKey>](repeating: [], count: listings.count)
        for probed in seen where probed.stamp != nil { found[probed.folder].insert(probed.stamp!.key) }
        for probed in alsoSeen where probed.stamp != nil { found[probed.folder].insert(probed.stamp!.key) }
        // Only when some row lost its file (rare): where else the scan found each file.
        let anyGone = folderRows.indices.contains { folder in rows(folderRows[folder], notIn: found[folder]) }
        guard anyGone else { return }
        var anywhere: [InodeKey: Probed] = [:]
        for probed in seen + alsoSeen {
            if let stamp = probed.stamp, anywhere[stamp.key] == nil { anywhere[stamp.key] = probed }
        }
        var refiled: [(stamp: FileStamp, folder: InodeKey, info: MediaInfo)] = []
        for (folder, rows) in folderRows.enumerated() where rows.count > 0 && listings[folder].folder != .unknown {
            var gone: [InodeKey] = []
            for file in rows.files where !found[folder].contains(file) {
                if let elsewhere = anywhere[file], let stamp = elsewhere.stamp, listings[elsewhere.folder].folder != .unknown {
                    refiled.append((stamp, listings[elsewhere.folder].folder, elsewhere.file.info))
                } else {
                    gone.append(file)
                }
            }
            index.remove(gone, fromFolder: listings[folder].folder)
        }
        index.store(refiled)
    }

    private static func rows(_ rows: FolderRows, notIn found: Set<InodeKey>) -> Bool {
        rows.count > found.count || rows.hasFile(notIn: found)
    }

    /// `transform(i)` for `0..<count` on every core, in chunks of consecutive indices, in order.
    static func inChunks<Output: Sendable>(count: Int, _ transform: @Sendable (Int) -> Output) -> [Output] {
        inChunks(count: count, chunked: { $0.map(transform) })
    }

    /// `chunked` over consecutive ranges covering `0..<count`, on every core; the results joined in order.
    /// `finally` runs after every chunk is done, before the parts are joined.
    static func inChunks<Output: Sendable>(count: Int, chunked: @Sendable (Range<Int>) -> [Output],
                                           finally: () -> Void = {}) -> [Output] {
        guard count > 0 else { finally(); return [] }
        let chunk = max(1, min(64, count / (Parallel.processorCount * 4)))
        let chunks = (count + chunk - 1) / chunk
        var parts = Parallel.map(count: chunks) { c -> [Output] in
            chunked(c * chunk..<min(count, (c + 1) * chunk))
        }
        finally()
        var result: [Output] = []
        result.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        // Each part is released once copied: the parts and the result are not both whole at the end.
        for c in parts.indices {
            result.append(contentsOf: parts[c])
            parts[c] = []
        }
        return result
    }

    private static func firstLook(_ input: ScanInput, stat folderStat: inout FolderStat, folderRows: [FolderRows]?,
                                  limits: ParseLimits, counter: ReadCounter, probe shouldProbe: Bool) -> FirstLook {
        var st = StatBuffer()
        guard folderStat.stat(input, &st) == 0 else {
            var info = MediaInfo(format: .unknown)
            info.problems.append(ParseProblem(.error, "file", String(cString: strerror(errno))))
            return .done(Probed(file: folderStat.listings[input.folder].mediaFile(input.entry, size: 0, modificationTime: 0,
                                                                                    info: info), stamp: nil,
                                fresh: true, folder: input.folder))
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .skipped }
        let size = UInt64(max(0, st.st_size))
        let stamp = FileStamp(stat: st)
        let mtime = modificationSeconds(stamp.modificationNanoseconds)
        if let info = folderRows?[input.folder].info(for: stamp) {
            return .done(Probed(file: folderStat.listings[input.folder].mediaFile(input.entry, size: size,
                                                                                    modificationTime: mtime, info: info),
                                stamp: stamp, fresh: false, fromIndex: true, folder: input.folder))
        }
        guard shouldProbe else { return .pending(input, stamp: stamp, modificationTime: mtime) }
        return .done(probe(input, listings: folderStat.listings, stamp: stamp, modificationTime: mtime, limits: limits,
                           counter: counter, opened: folderStat.open(input)))
    }

    /// `opened`: the file already opened relative to its folder (`FolderStat.open`: a descriptor, or -1 and
    /// the open's errno); nil opens it by path.
    private static func probe(_ input: ScanInput, listings: [FolderListing], stamp: FileStamp,
                              modificationTime: Double, limits: ParseLimits, counter: ReadCounter,
                              opened: (descriptor: Int32, errno: Int32)? = nil) -> Probed {
        let listing = listings[input.folder]
        let info: MediaInfo
        var fresh = true
        do throws(MediaError) {
            let path = listing.path(input.entry)
            if let opened {
                guard opened.descriptor >= 0 else { throw MediaError.io(path: path, errno: opened.errno) }
                // `firstLook` statted it as a regular file of `stamp.size` bytes: no second fstat.
                info = MediaProbe.probe(FileByteSource(descriptor: opened.descriptor, path: path, size: stamp.size,
                                                       counter: counter),
                                        limits: limits.forProbing(path: path))
            } else {
                info = try MediaProbe.probe(path: path, limits: limits, counter: counter)
            }
        } catch {
            var failed = MediaInfo(format: .unknown)
            failed.problems.append(ParseProblem(.error, "file", error.description))
            info = failed
            fresh = false   // an I/O failure (permissions, a vanished file) is not a fact about its bytes
        }
        return Probed(file: listing.mediaFile(input.entry, size: stamp.size, modificationTime: modificationTime, info: info),
                      stamp: stamp, fresh: fresh, folder: input.folder)
    }
}

extension LibraryScan {
    /// Fills `recursive` and `folders` (the root's subfolders, sorted as the grid sorts names) from the
    /// listings of a scan; the root's listing is the first.
    mutating func describeFolders(_ listings: [FolderListing], recursive: Bool) {
        self.recursive = recursive
        guard !recursive, let root = listings.first else { folders = []; return }
        folders = root.subfolders.sorted { NaturalOrder.less($0, $1) }
    }
}

extension LibraryScanner {
    /// A stamp's mtime in seconds, as the scan's files carry it: one function for a file just stat'ed and one
    /// remembered (`ScanSnapshot`), so both make the same `MediaFile`.
    static func modificationSeconds(_ nanoseconds: Int64) -> Double {
        var seconds = nanoseconds / 1_000_000_000
        var rest = nanoseconds % 1_000_000_000
        if rest < 0 {
            seconds -= 1
            rest += 1_000_000_000
        }
        return Double(seconds) + Double(rest) / 1e9
    }
}

extension FileStamp {
    init(stat st: StatBuffer) {
        self.init(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: UInt64(max(0, st.st_size)),
                  modificationNanoseconds: Int64(st.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_mtim.tv_nsec),
                  changeNanoseconds: Int64(st.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_ctim.tv_nsec))
    }
}

/// `stat` of listed files relative to their folder, opened once per run of files of one folder.
struct FolderStat {
    let listings: [FolderListing]
    private var openFolder = -1
    private var descriptor: Int32 = -1
    private var name: [CChar] = []

    init(listings: [FolderListing]) { self.listings = listings }

    /// Follows symbolic links, like `stat(path)`. Names stored escaped (not UTF-8) and folders that cannot be
    /// opened go through the path.
    mutating func stat(_ input: LibraryScanner.ScanInput, _ result: inout StatBuffer) -> Int32 {
        guard relativeName(input) else { return PathBytes.stat(listings[input.folder].path(input.entry), &result) }
        return fstatat(descriptor, name, &result, 0)
    }

    /// Opens a listed file read-only, relative to its folder like `stat` (a probe then costs no path walk).
    mutating func open(_ input: LibraryScanner.ScanInput) -> (descriptor: Int32, errno: Int32) {
        let fd = relativeName(input) ? openat(descriptor, name, O_RDONLY | O_CLOEXEC)
            : PathBytes.open(listings[input.folder].path(input.entry), O_RDONLY | O_CLOEXEC)
        return (fd, fd < 0 ? errno : 0)
    }

    /// Opens the input's folder when it is not the open one and puts its name in `name`; false when the
    /// name is not plain ASCII or the folder cannot be opened (the caller then goes through the path).
    private mutating func relativeName(_ input: LibraryScanner.ScanInput) -> Bool {
        let listing = listings[input.folder]
        if input.folder != openFolder {
            close()
            openFolder = input.folder
            descriptor = PathBytes.open(listing.directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        let range = listing.nameRange(input.entry)
        guard descriptor >= 0, !listing.nameBytes[range].contains(where: { $0 >= 0x80 }) else { return false }
        name.removeAll(keepingCapacity: true)
        for byte in listing.nameBytes[range] { name.append(CChar(bitPattern: byte)) }
        name.append(0)
        return true
    }

    mutating func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
        openFolder = -1
    }
}
