import Concurrent
import LivePairing
import MediaFormats

extension LibraryScanner {
    /// Exactly `LivePairer.pair` of every file, folder by folder on every core when that gives the same order.
    ///
    /// The pairer pairs only within a folder, so each folder's items are `LivePairer.pair` of its own files, in
    /// the same relative order (the natural order restricted to one folder). Across folders the items are in
    /// the natural order of their paths: when no folder's key (`FirstScreenNames.appendKey` of its prefix,
    /// which ends with "/") starts another's, every path of one folder sorts before every path of the next,
    /// and the folders' items are joined in the order of their keys. A folder holding files beside
    /// subfolders that hold files ("a.jpg", "a/x.jpg", "b.jpg" interleave), or two folders with one key ("2/"
    /// and "02/"), take the single pass over all files. At 100,000 files in 1,000 folders the pairing was
    /// ~150 ms on one core of the two, on the way to the complete timeline (issue 17 item 3).
    static func pairByFolder(_ probed: inout [Probed], after head: [Probed], listings: [FolderListing]) -> [LibraryItem] {
        var groups = [[MediaFile]](repeating: [], count: listings.count)
        // By index: `for entry in probed` copied each whole entry (its file and stamp) before taking the file.
        for index in head.indices { groups[head[index].folder].append(head[index].file) }
        for index in probed.indices { groups[probed[index].folder].append(probed[index].file) }
        probed = []
        guard let order = joinableFolderOrder(groups: groups, listings: listings), order.count > 1 else {
            // Released folder by folder as they are joined: the groups and the joined array are not both whole.
            var files: [MediaFile] = []
            files.reserveCapacity(groups.reduce(0) { $0 + $1.count })
            for folder in groups.indices {
                files.append(contentsOf: groups[folder])
                groups[folder] = []
            }
            return LivePairer.pair(files)
        }
        // Each job takes its folder's files out of the box: a folder's array is gone once its items exist, so the
        // files of every folder, their items and the joined items are never all alive at once (peak memory,
        // issue 17 item 4).
        let folders = Locked(groups)
        groups = []
        var parts = Parallel.map(count: order.count) { position in
            let files = folders.withLockedValue { folders in
                defer { folders[order[position]] = [] }
                return folders[order[position]]
            }
            return LivePairer.pair(files)
        }
        var items: [LibraryItem] = []
        items.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts.indices {
            items.append(contentsOf: parts[part])
            parts[part] = []
        }
        return items
    }

    /// The folders with files, in the order their items come in the natural order, when each folder's paths
    /// form one run of it; nil when two folders' paths may interleave.
    static func joinableFolderOrder(groups: [[MediaFile]], listings: [FolderListing]) -> [Int]? {
        let folders = groups.indices.filter { !groups[$0].isEmpty }
        let keys = folders.map { folder -> [UInt8] in
            var key: [UInt8] = []
            FirstScreenNames.appendKey(of: Array(listings[folder].prefix.utf8)[...], to: &key)
            return key
        }
        let sorted = keys.indices.sorted { NaturalOrder.compareKeys(keys[$0], keys[$1]) < 0 }
        // In sorted order, a key that starts some later key starts the very next one.
        for (a, b) in zip(sorted, sorted.dropFirst()) where keys[b].starts(with: keys[a]) { return nil }
        return sorted.map { folders[$0] }
    }
}
