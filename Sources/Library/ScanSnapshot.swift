import Concurrent
import LibraryIndex
import LivePairing
import MediaFormats

/// A library's last scan, kept in the library index: its items in display order, and the stamp (device,
/// inode, size, mtime) of every file it saw.
///
/// Why: on two cores, a 100,000-photo timeline cannot open in 300 ms if it waits for the folder listing
/// (~100 ms), a `stat` per file (~3 µs each: ~150 ms on two cores), reading and decoding 100,000 index rows
/// and pairing them (issue 17 item 3). The browser shows the snapshot at once, then the scan lists the folders
/// and `stat`s every file: when every listed name and stamp is the snapshot's, the snapshot is the scan's
/// result (the pairer depends only on the files' names, folders and probes, and the index's rule is that an
/// unchanged stamp means an unchanged probe). Otherwise the scan goes the usual way and its result replaces
/// the view, keeping the selected item.
struct ScanSnapshot: Sendable {
    /// The scan as it ended (items in display order, the listing's warnings).
    var scan: LibraryScan
    /// The files it saw, by folder prefix: names sorted by their bytes, and each one's stamp.
    var folders: [String: Folder]
    var fileCount: Int

    struct Folder: Sendable {
        var names: [String]
        var stamps: [FileStamp]
    }

    static let magic = Array("livegrid-scan-snapshot-1\n".utf8)

    /// The index's key for a scan of `root`: the root as given, and whether the scan went below it.
    static func library(root: String, recursive: Bool) -> String { (recursive ? "recursive " : "folder ") + root }
}

extension ScanSnapshot {
    /// The bytes of a scan's snapshot. `stamps[f]` holds the name and stamp of every file the scan found in
    /// `listings[f]`. Nil when some file of the items has no stamp or is not among them (nothing half-known is
    /// remembered).
    static func encode(root: String, recursive: Bool, warnings: [String], items: [LibraryItem],
                       listings: [FolderListing], stamps: [[(name: String, stamp: FileStamp)]]) -> [UInt8]? {
        guard stamps.count == listings.count else { return nil }
        // Each folder's files in byte order of their names, numbered across folders.
        var sorted = stamps.map { files in files.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) } }
        var base: [Int] = []
        var total = 0
        for files in sorted {
            base.append(total)
            total += files.count
        }
        let folderOf = Dictionary(listings.enumerated().map { ($1.prefix, $0) }, uniquingKeysWith: { first, _ in first })
        func number(of file: MediaFile) -> Int? {
            guard let folder = folderOf[file.folderPrefix] else { return nil }
            let files = sorted[folder]
            var low = 0, high = files.count
            while low < high {
                let middle = (low + high) / 2
                if files[middle].name.utf8.lexicographicallyPrecedes(file.name.utf8) { low = middle + 1 } else { high = middle }
            }
            guard low < files.count, files[low].name == file.name, files[low].stamp.size == file.size else { return nil }
            return base[folder] + low
        }
        var filesByNumber = [MediaFile?](repeating: nil, count: total)
        var itemFiles: [(still: Int?, movie: Int?)] = []
        itemFiles.reserveCapacity(items.count)
        for item in items {
            var numbers: (still: Int?, movie: Int?) = (nil, nil)
            for (file, isStill) in [(item.still, true), (item.movie, false)] {
                guard let file else { continue }
                guard let n = number(of: file), filesByNumber[n] == nil else { return nil }
                filesByNumber[n] = file
                if isStill { numbers.still = n } else { numbers.movie = n }
            }
            itemFiles.append(numbers)
        }
        var w = SnapshotWriter()
        w.bytes.reserveCapacity(total * 160)
        w.bytes.append(contentsOf: magic)
        w.text(root)
        w.u8(recursive ? 1 : 0)
        w.u32(warnings.count)
        for warning in warnings { w.text(warning) }
        w.u32(sorted.count(where: { !$0.isEmpty }))
        for (folder, files) in sorted.enumerated() where !files.isEmpty {
            w.text(listings[folder].prefix)
            w.u32(files.count)
            for (k, entry) in files.enumerated() {
                guard let file = filesByNumber[base[folder] + k] else { return nil }
                w.text(entry.name)
                w.u64(entry.stamp.device)
                w.u64(entry.stamp.inode)
                w.u64(entry.stamp.size)
                w.u64(UInt64(bitPattern: entry.stamp.modificationNanoseconds))
                // The record's length is written after it (known only then), in its 4 reserved bytes.
                let lengthAt = w.bytes.count
                w.u32(0)
                ProbeRecord.encode(file.info, appendingTo: &w.bytes)
                let length = UInt32(w.bytes.count - lengthAt - 4).littleEndian
                withUnsafeBytes(of: length) { for i in 0..<4 { w.bytes[lengthAt + i] = $0[i] } }
            }
            sorted[folder] = []
        }
        // Item notes repeat (a shared-identifier warning on every copy): each distinct text once.
        var texts: [String] = []
        var textNumber: [String: Int] = [:]
        func numbered(_ text: String) -> Int {
            if let n = textNumber[text] { return n }
            textNumber[text] = texts.count
            texts.append(text)
            return texts.count - 1
        }
        let itemWarnings = items.map { $0.warnings.map(numbered) }
        let itemReasons = items.map { $0.liveOffReason.map(numbered) }
        w.u32(texts.count)
        for text in texts { w.text(text) }
        w.u32(items.count)
        for (i, item) in items.enumerated() {
            w.u8(kindCode(item.kind))
            w.u8(item.pairing.map(pairingCode) ?? 0)
            w.u32(itemFiles[i].still.map { $0 + 1 } ?? 0)
            w.u32(itemFiles[i].movie.map { $0 + 1 } ?? 0)
            w.optionalText(item.contentIdentifier)
            w.u32(itemWarnings[i].count)
            for n in itemWarnings[i] { w.u32(n) }
            w.u32(itemReasons[i].map { $0 + 1 } ?? 0)
        }
        // Last, the check of everything before it.
        w.u64(w.bytes.withUnsafeBytes { SnapshotCheck.value($0) })
        return w.bytes
    }

    /// The snapshot in `bytes`, when it is one of a scan of `root` (`recursive` alike) and reads back whole;
    /// nil otherwise (the scan then goes the usual way).
    static func decode(_ bytes: [UInt8], root: String, recursive: Bool) -> ScanSnapshot? {
        bytes.withUnsafeBytes { decode(SharedBytes(raw: $0), root: root, recursive: recursive) }
    }

    /// Bytes read by several threads at once while their owner (a mapping, an array) keeps them alive.
    // unchecked: read-only for as long as `decode` runs.
    struct SharedBytes: @unchecked Sendable {
        let raw: UnsafeRawBufferPointer
    }

    static func decode(_ bytes: SharedBytes, root: String, recursive: Bool,
                       milestone: (String) -> Void = { _ in }) -> ScanSnapshot? {
        // The header, and where each folder's files start (found by skipping them): the folders are then
        // decoded in parallel, and the items after them.
        typealias Section = (prefix: String, count: Int, start: Int)
        // Without its last 8 bytes: the check of what comes before them.
        guard bytes.raw.count >= magic.count + 8 else { return nil }
        let raw = UnsafeRawBufferPointer(rebasing: bytes.raw.dropLast(8))
        let check = UInt64(littleEndian: bytes.raw.loadUnaligned(fromByteOffset: raw.count, as: UInt64.self))
        guard SnapshotCheck.value(raw) == check else { return nil }
        let header = { () -> (warnings: [String], sections: [Section], end: Int)? in
            guard raw.starts(with: magic) else { return nil }
            var r = SnapshotReader(raw, at: magic.count)
            guard r.text() == root, r.u8() == (recursive ? 1 : 0) else { return nil }
            var warnings: [String] = []
            for _ in 0..<r.count(eachAtLeast: 4) { warnings.append(r.text()) }
            var sections: [Section] = []
            for _ in 0..<r.count(eachAtLeast: 8) {
                let prefix = SharedStrings.share(r.text())
                let count = r.count(eachAtLeast: 40)
                sections.append((prefix, count, r.index))
                for _ in 0..<count {
                    r.skip()
                    r.skip(bytes: 32)
                    r.skip()
                }
                if r.failed { return nil }
            }
            return r.failed ? nil : (warnings, sections, r.index)
        }()
        guard let header else { return nil }
        milestone("snapshot-header")
        let sections = header.sections
        let decoded: [(files: [MediaFile], folder: Folder)?] = Parallel.map(count: sections.count) { s in
            decodeFolder(UnsafeRawBufferPointer(rebasing: bytes.raw.dropLast(8)), section: sections[s])
        }
        var files: [MediaFile] = []
        files.reserveCapacity(sections.reduce(0) { $0 + $1.count })
        var folders: [String: Folder] = [:]
        folders.reserveCapacity(sections.count)
        for (s, part) in decoded.enumerated() {
            guard let part, folders[sections[s].prefix] == nil else { return nil }
            files.append(contentsOf: part.files)
            folders[sections[s].prefix] = part.folder
        }
        milestone("snapshot-files")
        guard let items = decodeItems(raw, at: header.end, files: files) else { return nil }
        return ScanSnapshot(scan: LibraryScan(root: root, items: items, warnings: header.warnings, probedFiles: 0),
                            folders: folders, fileCount: files.count)
    }

    /// The items from `start` to the end, each file of `files` in exactly one of them.
    private static func decodeItems(_ raw: UnsafeRawBufferPointer, at start: Int, files: [MediaFile]) -> [LibraryItem]? {
        var r = SnapshotReader(raw, at: start)
        var texts: [String] = []
        for _ in 0..<r.count(eachAtLeast: 4) { texts.append(r.text()) }
        var items: [LibraryItem] = []
        var used = [Bool](repeating: false, count: files.count)
        let itemCount = r.count(eachAtLeast: 19)
        items.reserveCapacity(itemCount)
        func file(_ number: Int) -> MediaFile?? {
            guard number > 0 else { return .some(nil) }
            guard number <= files.count, !used[number - 1] else { return nil }
            used[number - 1] = true
            return .some(files[number - 1])
        }
        for _ in 0..<itemCount {
            guard let kind = kind(r.u8()) else { return nil }
            let pairingByte = r.u8()
            let pairing = pairing(pairingByte)
            guard pairingByte == 0 || pairing != nil, let still = file(r.u32()), let movie = file(r.u32()),
                  still != nil || movie != nil else { return nil }
            let identifier = r.optionalText()
            var itemWarnings: [String] = []
            for _ in 0..<r.count(eachAtLeast: 4) {
                let n = r.u32()
                guard n < texts.count else { return nil }
                itemWarnings.append(texts[n])
            }
            let reason = r.u32()
            guard reason <= texts.count, !r.failed else { return nil }
            items.append(LibraryItem(kind: kind, still: still, movie: movie, contentIdentifier: identifier,
                                     pairing: pairing, warnings: itemWarnings,
                                     liveOffReason: reason == 0 ? nil : texts[reason - 1]))
        }
        // Every file in exactly one item, and nothing after the items.
        guard !r.failed, r.remaining == 0, !used.contains(false) else { return nil }
        return items
    }

    private static func decodeFolder(_ raw: UnsafeRawBufferPointer,
                                     section: (prefix: String, count: Int, start: Int)) -> (files: [MediaFile], folder: Folder)? {
        var r = SnapshotReader(raw, at: section.start)
        var memo = SharedNamesMemo()
        var files: [MediaFile] = []
        var folder = Folder(names: [], stamps: [])
        files.reserveCapacity(section.count)
        folder.names.reserveCapacity(section.count)
        folder.stamps.reserveCapacity(section.count)
        for _ in 0..<section.count {
            let name = r.text()
            let stamp = FileStamp(device: r.u64(), inode: r.u64(), size: r.u64(),
                                  modificationNanoseconds: Int64(bitPattern: r.u64()))
            let record = r.slice()
            guard !r.failed, let info = ProbeRecord.decode(record, memo: &memo) else { return nil }
            // Names in strictly increasing byte order: the check against a listing walks them in step.
            if let last = folder.names.last, !last.utf8.lexicographicallyPrecedes(name.utf8) { return nil }
            files.append(MediaFile(folderPrefix: section.prefix, name: name, size: stamp.size,
                                   modificationTime: LibraryScanner.modificationSeconds(stamp.modificationNanoseconds),
                                   info: info))
            folder.names.append(name)
            folder.stamps.append(stamp)
        }
        return (files, folder)
    }

    private static func kindCode(_ kind: ItemKind) -> UInt8 {
        switch kind {
        case .live: return 1
        case .motion: return 2
        case .still: return 3
        case .video: return 4
        }
    }

    private static func kind(_ code: UInt8) -> ItemKind? {
        switch code {
        case 1: return .live
        case 2: return .motion
        case 3: return .still
        case 4: return .video
        default: return nil
        }
    }

    private static func pairingCode(_ pairing: PairingEvidence) -> UInt8 {
        switch pairing {
        case .contentIdentifier: return 1
        case .probableByName: return 2
        case .embedded: return 3
        }
    }

    private static func pairing(_ code: UInt8) -> PairingEvidence? {
        switch code {
        case 1: return .contentIdentifier
        case 2: return .probableByName
        case 3: return .embedded
        default: return nil
        }
    }
}
