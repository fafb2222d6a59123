import Concurrent
import LibraryCore
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

    /// 3: stamps carry the ctime (as the index's key does).
    static let magic = Array("livegrid-scan-snapshot-3\n".utf8)

    /// The index's key for a scan of `root`: the root as given, and whether the scan went below it.
    static func library(root: String, recursive: Bool) -> String { (recursive ? "recursive " : "folder ") + root }
}

extension ScanSnapshot {
    /// The layout: the magic, the header's length and the header (root, `recursive`, the listing's warnings, the
    /// item count, and per folder its prefix, counts, where its section lies and the section's check), the
    /// header's check, then one section per folder: its texts (item notes), its files in byte order of their
    /// names (name, stamp, `ProbeRecord`), and its items (position in the scan's order, kind, evidence, files
    /// as numbers within the section, identifier, notes). A folder is read and decoded on its own, on every
    /// core, from a buffer of its own size: the file is never in memory whole (a 100,000-file library's is
    /// ~35 MB), and a damaged part fails its own check.
    struct SectionEntry {
        var prefix: String
        var files: Int
        var items: Int
        var offset: Int
        var length: Int
        var check: UInt64
    }

    /// The bytes of a scan's snapshot (tests; the browser streams them into a file with `encode(into:)`).
    static func encode(root: String, recursive: Bool, warnings: [String], items: [LibraryItem],
                       listings: [FolderListing], stamps: [[(name: String, stamp: FileStamp)]]) -> [UInt8]? {
        var output = MemorySnapshotOutput()
        // try?: a snapshot that cannot be made is no snapshot; the library is scanned in full next time.
        guard (try? encode(root: root, recursive: recursive, warnings: warnings, items: items, listings: listings,
                           stamps: stamps, into: &output)) == true else { return nil }
        return output.bytes
    }

    /// Writes a scan's snapshot into `output`, one folder's section at a time (room for the head first, the
    /// head written over it last), so that only one section is ever in memory. `stamps[f]` holds the name and
    /// stamp of every file the scan found in `listings[f]`. False when some file of the items has no stamp or
    /// is not among them, or an item's files lie in two folders (nothing half-known is remembered): what was
    /// written is then to be thrown away.
    static func encode(root: String, recursive: Bool, warnings: [String], items: [LibraryItem],
                       listings: [FolderListing], stamps: [[(name: String, stamp: FileStamp)]],
                       into output: inout some SnapshotOutput) throws -> Bool {
        guard stamps.count == listings.count else { return false }
        // Each item filed under its folder by position; its files are found among the folder's when its section
        // is made. Only one folder's sorted names and files are in memory at a time: for the whole library they
        // were ~18 MB at 100,000 items, while the browser had just shown the scan (issue 17 item 4).
        let folderOf = Dictionary(listings.enumerated().map { ($1.prefix, $0) }, uniquingKeysWith: { first, _ in first })
        var itemsOf = [[Int32]](repeating: [], count: listings.count)
        for (position, item) in items.enumerated() {
            let prefixes = [item.still?.folderPrefix, item.movie?.folderPrefix].compactMap { $0 }
            guard let prefix = prefixes.first, prefixes.allSatisfy({ $0 == prefix }), let folder = folderOf[prefix],
                  position < Int(Int32.max) else { return false }
            itemsOf[folder].append(Int32(position))
        }
        func header(_ sections: [SectionEntry]) -> [UInt8] {
            var w = SnapshotWriter()
            w.text(root)
            w.u8(recursive ? 1 : 0)
            w.u32(warnings.count)
            for warning in warnings { w.text(warning) }
            w.u32(items.count)
            w.u32(sections.count)
            for entry in sections {
                w.text(entry.prefix)
                w.u32(entry.files)
                w.u32(entry.items)
                w.u64(UInt64(entry.offset))
                w.u32(entry.length)
                w.u64(entry.check)
            }
            return w.bytes
        }
        // The header's size does not depend on the offsets, lengths and checks (fixed-width): room for it is
        // written first, the sections after it as they are made, and the header over the room at the end.
        let folders = stamps.indices.filter { !stamps[$0].isEmpty }
        var sections = folders.map { folder in
            SectionEntry(prefix: listings[folder].prefix, files: stamps[folder].count, items: itemsOf[folder].count,
                         offset: 0, length: 0, check: 0)
        }
        let headLength = header(sections).count
        var offset = magic.count + 4 + headLength + 8
        try output.append([UInt8](repeating: 0, count: offset))
        for (k, folder) in folders.enumerated() {
            // The folder's files in byte order of their names, and each item's files' numbers among them.
            let sorted = stamps[folder].sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            func locate(_ file: MediaFile) -> Int? {
                var low = 0, high = sorted.count
                while low < high {
                    let middle = (low + high) / 2
                    if sorted[middle].name.utf8.lexicographicallyPrecedes(file.name.utf8) { low = middle + 1 } else { high = middle }
                }
                guard low < sorted.count, sorted[low].name == file.name, sorted[low].stamp.size == file.size else { return nil }
                return low
            }
            var fileOf = [MediaFile?](repeating: nil, count: sorted.count)
            var entries: [(position: Int, still: Int?, movie: Int?)] = []
            entries.reserveCapacity(itemsOf[folder].count)
            for position in itemsOf[folder].map(Int.init) {
                var numbers: [Int?] = [nil, nil]
                for (slot, file) in [items[position].still, items[position].movie].enumerated() {
                    guard let file else { continue }
                    guard let n = locate(file), fileOf[n] == nil else { return false }
                    fileOf[n] = file
                    numbers[slot] = n
                }
                entries.append((position, numbers[0], numbers[1]))
            }
            var w = SnapshotWriter()
            // Item notes repeat (a shared-identifier warning on every copy): each distinct text once per folder.
            var texts: [String] = []
            var textNumber: [String: Int] = [:]
            func numbered(_ text: String) -> Int {
                if let n = textNumber[text] { return n }
                textNumber[text] = texts.count
                texts.append(text)
                return texts.count - 1
            }
            let notes = entries.map { entry in
                (warnings: items[entry.position].warnings.map(numbered), reason: items[entry.position].liveOffReason.map(numbered))
            }
            w.u32(texts.count)
            for text in texts { w.text(text) }
            for (n, entry) in sorted.enumerated() {
                guard let file = fileOf[n] else { return false }
                w.text(entry.name)
                w.u64(entry.stamp.device)
                w.u64(entry.stamp.inode)
                w.u64(entry.stamp.size)
                w.u64(UInt64(bitPattern: entry.stamp.modificationNanoseconds))
                w.u64(UInt64(bitPattern: entry.stamp.changeNanoseconds))
                // The record's length is written after it (known only then), in its 4 reserved bytes.
                let lengthAt = w.bytes.count
                w.u32(0)
                ProbeRecord.encode(file.info, appendingTo: &w.bytes)
                let length = UInt32(w.bytes.count - lengthAt - 4).littleEndian
                withUnsafeBytes(of: length) { for i in 0..<4 { w.bytes[lengthAt + i] = $0[i] } }
            }
            for (j, entry) in entries.enumerated() {
                let item = items[entry.position]
                w.u32(entry.position)
                w.u8(kindCode(item.kind))
                w.u8(item.pairing.map(pairingCode) ?? 0)
                w.u32(entry.still.map { $0 + 1 } ?? 0)
                w.u32(entry.movie.map { $0 + 1 } ?? 0)
                w.optionalText(item.contentIdentifier)
                w.u32(notes[j].warnings.count)
                for n in notes[j].warnings { w.u32(n) }
                w.u32(notes[j].reason.map { $0 + 1 } ?? 0)
            }
            sections[k].offset = offset
            sections[k].length = w.bytes.count
            sections[k].check = w.bytes.withUnsafeBytes { SnapshotCheck.value($0) }
            offset += w.bytes.count
            try output.append(w.bytes)
        }
        var lead = SnapshotWriter()
        lead.bytes.append(contentsOf: magic)
        let head = header(sections)
        guard head.count == headLength else { return false }
        lead.u32(head.count)
        lead.bytes.append(contentsOf: head)
        lead.u64(lead.bytes.withUnsafeBytes { SnapshotCheck.value($0) })
        try output.overwrite(lead.bytes, at: 0)
        return true
    }

    /// The snapshot in `bytes` (tests; the browser reads a file), as `decode(reading:)`.
    static func decode(_ bytes: [UInt8], root: String, recursive: Bool) -> ScanSnapshot? {
        decode(root: root, recursive: recursive) { offset, count in
            guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else { return nil }
            return Array(bytes[offset..<(offset + count)])
        }
    }

    /// The snapshot whose bytes `read(offset, count)` gives (nil past the end), when it is one of a scan of
    /// `root` (`recursive` alike) and every part reads back whole and passes its check; nil otherwise (the scan
    /// then goes the usual way). `read` is called from several threads at once.
    static func decode(root: String, recursive: Bool, milestone: (String) -> Void = { _ in },
                       read: @escaping @Sendable (_ offset: Int, _ count: Int) -> [UInt8]?) -> ScanSnapshot? {
        guard let lead = read(0, magic.count + 4), lead.starts(with: magic) else { return nil }
        let headerLength = lead.withUnsafeBytes { raw -> Int in
            var r = SnapshotReader(raw, at: magic.count)
            return r.u32()
        }
        guard headerLength <= 64 << 20, let headerBytes = read(0, magic.count + 4 + headerLength + 8) else { return nil }
        typealias Header = (warnings: [String], itemCount: Int, sections: [SectionEntry])
        let header = headerBytes.withUnsafeBytes { all -> Header? in
            let checked = UnsafeRawBufferPointer(rebasing: all.dropLast(8))
            let check = UInt64(littleEndian: all.loadUnaligned(fromByteOffset: checked.count, as: UInt64.self))
            guard SnapshotCheck.value(checked) == check else { return nil }
            var r = SnapshotReader(checked, at: magic.count + 4)
            guard r.text() == root, r.u8() == (recursive ? 1 : 0) else { return nil }
            var warnings: [String] = []
            for _ in 0..<r.count(eachAtLeast: 4) { warnings.append(r.text()) }
            let itemCount = r.u32()
            var sections: [SectionEntry] = []
            for _ in 0..<r.count(eachAtLeast: 32) {
                sections.append(SectionEntry(prefix: SharedStrings.share(r.text()), files: r.u32(), items: r.u32(),
                                             offset: Int(truncatingIfNeeded: r.u64()), length: r.u32(), check: r.u64()))
            }
            return r.failed || r.remaining != 0 ? nil : (warnings, itemCount, sections)
        }
        guard let header, header.sections.reduce(0, { $0 + $1.items }) == header.itemCount else { return nil }
        milestone("snapshot-header")
        let sections = header.sections
        let decoded: [DecodedSection?] = Parallel.map(count: sections.count) { s in
            guard let bytes = read(sections[s].offset, sections[s].length) else { return nil }
            return bytes.withUnsafeBytes { raw in
                SnapshotCheck.value(raw) == sections[s].check ? decodeSection(raw, sections[s]) : nil
            }
        }
        milestone("snapshot-sections")
        // The items back in the scan's order: each position filled exactly once.
        var slot = [(section: Int32, item: Int32)](repeating: (-1, -1), count: header.itemCount)
        var folders: [String: Folder] = [:]
        folders.reserveCapacity(sections.count)
        var fileCount = 0
        for (s, part) in decoded.enumerated() {
            guard let part, folders[sections[s].prefix] == nil else { return nil }
            folders[sections[s].prefix] = part.folder
            fileCount += part.folder.names.count
            for (k, position) in part.positions.enumerated() {
                guard position < slot.count, slot[position].section < 0 else { return nil }
                slot[position] = (Int32(s), Int32(k))
            }
        }
        var items: [LibraryItem] = []
        items.reserveCapacity(slot.count)
        for (section, item) in slot {
            guard section >= 0, let part = decoded[Int(section)] else { return nil }
            items.append(part.items[Int(item)])
        }
        return ScanSnapshot(scan: LibraryScan(root: root, items: items, warnings: header.warnings, probedFiles: 0),
                            folders: folders, fileCount: fileCount)
    }

    struct DecodedSection: Sendable {
        var folder: Folder
        var items: [LibraryItem]
        var positions: [Int]
    }

    /// One folder's section: its files and items (every file in exactly one item of the section).
    private static func decodeSection(_ raw: UnsafeRawBufferPointer, _ entry: SectionEntry) -> DecodedSection? {
        var r = SnapshotReader(raw)
        var texts: [String] = []
        for _ in 0..<r.count(eachAtLeast: 4) { texts.append(r.text()) }
        guard entry.files <= r.remaining / 40, entry.items <= r.remaining / 19 else { return nil }
        var memo = SharedNamesMemo()
        // The last few records decoded, by their check: hard links and copies of one photo have the same
        // record, and share one probe box as the index's look-up by stamp gives them (a flat folder of 100,000
        // links to 5 photos held 100,000 boxes, ~29 MB, where the usual scan holds 5).
        var recent: [(check: UInt64, record: UnsafeRawBufferPointer, info: MediaInfo)] = []
        var files: [MediaFile] = []
        var folder = Folder(names: [], stamps: [])
        files.reserveCapacity(entry.files)
        let folderPrefix = FolderPrefix.shared(entry.prefix)
        folder.names.reserveCapacity(entry.files)
        folder.stamps.reserveCapacity(entry.files)
        for _ in 0..<entry.files {
            let name = r.text()
            let stamp = FileStamp(device: r.u64(), inode: r.u64(), size: r.u64(),
                                  modificationNanoseconds: Int64(bitPattern: r.u64()),
                                  changeNanoseconds: Int64(bitPattern: r.u64()))
            let record = r.slice()
            guard !r.failed else { return nil }
            let check = SnapshotCheck.value(record)
            let info: MediaInfo
            if let known = recent.first(where: { $0.check == check && $0.record.elementsEqual(record) }) {
                info = known.info
            } else {
                guard let decoded = ProbeRecord.decode(record, memo: &memo) else { return nil }
                info = decoded
                if recent.count == 8 { recent.removeFirst() }
                recent.append((check, record, decoded))
            }
            // Names in strictly increasing byte order: the check against a listing walks them in step.
            if let last = folder.names.last, !last.utf8.lexicographicallyPrecedes(name.utf8) { return nil }
            files.append(MediaFile(folder: folderPrefix, name: name, size: stamp.size,
                                   modificationTime: LibraryScanner.modificationSeconds(stamp.modificationNanoseconds),
                                   info: info))
            folder.names.append(name)
            folder.stamps.append(stamp)
        }
        var used = [Bool](repeating: false, count: files.count)
        func file(_ number: Int) -> MediaFile?? {
            guard number > 0 else { return .some(nil) }
            guard number <= files.count, !used[number - 1] else { return nil }
            used[number - 1] = true
            return .some(files[number - 1])
        }
        var items: [LibraryItem] = []
        var positions: [Int] = []
        items.reserveCapacity(entry.items)
        positions.reserveCapacity(entry.items)
        for _ in 0..<entry.items {
            let position = r.u32()
            guard let kind = kind(r.u8()) else { return nil }
            let pairingByte = r.u8()
            let pairing = pairing(pairingByte)
            guard pairingByte == 0 || pairing != nil, let still = file(r.u32()), let movie = file(r.u32()),
                  still != nil || movie != nil else { return nil }
            // The pairer gives an item its still's or movie's identifier string: the same one, not a copy (40,000
            // Live Photos held each identifier twice, ~3 MB).
            let identifier = r.optionalText().map { text in
                [still?.info.contentIdentifier, movie?.info.contentIdentifier].lazy.compactMap { $0 }.first { $0 == text } ?? text
            }
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
            positions.append(position)
        }
        // Every file in exactly one item, and nothing after the items.
        guard !r.failed, r.remaining == 0, !used.contains(false) else { return nil }
        return DecodedSection(folder: folder, items: items, positions: positions)
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
