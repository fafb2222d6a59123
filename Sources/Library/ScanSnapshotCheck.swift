#if canImport(Glibc)
import Glibc
#endif
import LibraryIndex
import MediaFormats

extension ScanSnapshot {
    /// Whether a scan of `listings` (listed with `warnings`) would return exactly `scan`: the same warnings, the
    /// same names in the same folders, and every file `stat`s to its remembered stamp (a regular file, same
    /// device, inode, size and mtime). Stat'ed on every core, each file relative to its open folder.
    func matches(_ listings: [FolderListing], warnings: [String]) -> Bool {
        guard warnings == scan.warnings, listings.reduce(0, { $0 + $1.count }) == fileCount else { return false }
        // Each listed file's place among its folder's remembered files (their stamps), by folder and entry: 4
        // bytes a file, not a copy of the stamps.
        var places: [[Int32]] = []
        places.reserveCapacity(listings.count)
        var remembered: [Folder] = []
        remembered.reserveCapacity(listings.count)
        var matchedFolders = 0
        for listing in listings {
            guard listing.count > 0 else {
                places.append([])
                remembered.append(Folder(names: [], stamps: []))
                continue
            }
            guard let folder = folders[listing.prefix], folder.names.count == listing.count else { return false }
            matchedFolders += 1
            var place = [Int32](repeating: 0, count: listing.count)
            for (k, entry) in listing.entriesInByteOrder().enumerated() {
                guard listing.nameBytes[listing.nameRange(entry)].elementsEqual(folder.names[k].utf8) else { return false }
                place[entry] = Int32(k)
            }
            places.append(place)
            remembered.append(folder)
        }
        guard matchedFolders == folders.count else { return false }
        // Runs of whole folders on every core (a flat folder is cut into runs of entries).
        var runs: [(folder: Int, entries: Range<Int>)] = []
        for (folder, listing) in listings.enumerated() {
            for start in stride(from: 0, to: listing.count, by: 256) {
                runs.append((folder, start..<min(listing.count, start + 256)))
            }
        }
        let work = runs, expected = places, stamps = remembered
        let unchanged: [Bool] = LibraryScanner.inChunks(count: work.count, chunked: { range in
            var folderStat = FolderStat(listings: listings)
            defer { folderStat.close() }
            var st = StatBuffer()
            for run in range.map({ work[$0] }) {
                for entry in run.entries {
                    let input = LibraryScanner.ScanInput(folder: run.folder, entry: entry)
                    guard folderStat.stat(input, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG,
                          FileStamp(stat: st) == stamps[run.folder].stamps[Int(expected[run.folder][entry])] else { return [false] }
                }
            }
            return [true]
        })
        return !unchanged.contains(false)
    }
}

extension FolderListing {
    /// The entries ordered by the bytes of their names (the order a snapshot keeps a folder's files in).
    func entriesInByteOrder() -> [Int] {
        nameBytes.withUnsafeBufferPointer { bytes in
            (0..<count).sorted { a, b in
                bytes[nameRange(a)].lexicographicallyPrecedes(bytes[nameRange(b)])
            }
        }
    }
}
