#if canImport(Glibc)
import Glibc
#endif
import LibraryIndex
import LivePairing
import MediaFormats

extension LibraryScanner {
    /// For a recursive scan's first screen: the folders below `root` that can hold one of the first `count`
    /// files in natural order, and no others. Folders are listed in the order of their keys (the key of a
    /// folder's prefix starts the key of every path below it); once `count` files are known, a folder whose key
    /// sorts after the `count`-th file's key holds nothing that sorts before it, nor does any later one, so the
    /// walk stops. A library of 1,000 month folders lists three of them before its first screen instead of all
    /// 1,000 (~50 ms at 100,000 files, issue 17 item 1); the whole listing follows while that screen is drawn.
    /// Folders are typed, skipped and visited once exactly as `listFolders` does; an unreadable root throws
    /// the same error.
    ///
    /// `complete`: every folder below `root` was listed (nothing is left for the full listing to add).
    static func firstScreenListings(root: String, count: Int) throws -> (listings: [FolderListing], complete: Bool) {
        var listed: [FolderListing] = []
        var pending: [(key: [UInt8], directory: String)] = [(folderKey(root), root)]
        var visited = Set<FolderKey>()
        var isRoot = true
        var worst: [UInt8]?
        while !pending.isEmpty {
            var next = 0
            for candidate in pending.indices.dropFirst()
            where NaturalOrder.compareKeys(pending[candidate].key, pending[next].key) < 0 {
                next = candidate
            }
            if let worst, NaturalOrder.compareKeys(pending[next].key, worst) > 0 { return (listed, false) }
            let dir = pending.remove(at: next).directory
            var st = StatBuffer()
            var folder = FolderKey.unknown
            if PathBytes.stat(dir, &st) == 0 {
                folder = FolderKey(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
                if !visited.insert(folder).inserted { continue }
            }
            var listing = FolderListing(directory: dir, folder: folder)
            do throws(DirectoryError) {
                try readMediaNames(of: dir, into: &listing) { name in
                    guard !name.elementsEqual("thumbnails".utf8) else { return }
                    let sub = PathBytes.string(from: name)
                    let path = dir == "/" ? "/" + sub : dir + "/" + sub
                    pending.append((folderKey(path), path))
                }
            } catch {
                if isRoot { throw LibraryScanError.unreadable(dir, error.description) }
                continue   // the full listing says so
            }
            isRoot = false
            listed.append(listing)
            if count > 0, listed.reduce(0, { $0 + $1.count }) >= count, let last = FirstScreenNames.first(count, of: listed).last {
                var key = folderKey(listed[last.folder].directory)
                listed[last.folder].nameBytes.withUnsafeBufferPointer {
                    FirstScreenNames.appendKey(of: $0[listed[last.folder].nameRange(last.entry)], to: &key)
                }
                worst = key
            }
        }
        return (listed, true)
    }

    /// The natural-order key of a folder's prefix (its path and "/"), as `FirstScreenNames` keys it.
    private static func folderKey(_ directory: String) -> [UInt8] {
        var key: [UInt8] = []
        FirstScreenNames.appendKey(of: Array((directory == "/" ? "/" : directory + "/").utf8)[...], to: &key)
        return key
    }
}
