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
        // Each listed file's remembered stamp, by folder and entry.
        var expected: [[FileStamp]] = []
        expected.reserveCapacity(listings.count)
        var matchedFolders = 0
        for listing in listings {
            guard listing.count > 0 else { expected.append([]); continue }
            guard let folder = folders[listing.prefix], folder.names.count == listing.count else { return false }
            matchedFolders += 1
            var stamps = [FileStamp](repeating: FileStamp(device: 0, inode: 0, size: 0, modificationNanoseconds: 0),
                                     count: listing.count)
            let order = listing.entriesInByteOrder()
            for (k, entry) in order.enumerated() {
                guard listing.nameBytes[listing.nameRange(entry)].elementsEqual(folder.names[k].utf8) else { return false }
                stamps[entry] = folder.stamps[k]
            }
            expected.append(stamps)
        }
        guard matchedFolders == folders.count else { return false }
        var allInputs: [LibraryScanner.ScanInput] = []
        allInputs.reserveCapacity(fileCount)
        for (folder, listing) in listings.enumerated() {
            for entry in 0..<listing.count { allInputs.append(LibraryScanner.ScanInput(folder: folder, entry: entry)) }
        }
        let inputs = allInputs, stamps = expected
        let unchanged: [Bool] = LibraryScanner.inChunks(count: inputs.count, chunked: { range in
            var folderStat = FolderStat(listings: listings)
            defer { folderStat.close() }
            var st = StatBuffer()
            for i in range {
                let input = inputs[i]
                guard folderStat.stat(input, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG,
                      FileStamp(stat: st) == stamps[input.folder][input.entry] else { return [false] }
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
