#if canImport(Glibc)
import Glibc
#endif
import LibraryCore
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
        // Folders still to list, smallest key first; the `count` smallest file keys seen, largest on top. Heaps,
        // not a scan of every pending folder and a new pick of the first files after each folder: a root of
        // 10,000 day folders, or of 100,000 files beside its year folders, stays linear.
        var pending = KeyHeap<String>(largestFirst: false)
        pending.push(folderKey(root), root)
        var kept = KeyHeap<Void>(largestFirst: true)
        var visited = Set<FolderKey>()
        var isRoot = true
        var scratch: [UInt8] = []
        while let next = pending.pop() {
            if kept.count >= count, let worst = kept.top, NaturalOrder.compareKeys(next.key, worst.key) > 0 {
                return (listed, false)
            }
            let dir = next.payload
            guard let folder = firstVisit(dir, visited: &visited) else { continue }
            var listing = FolderListing(directory: dir, folder: folder)
            do throws(DirectoryError) {
                try readMediaNames(of: dir, into: &listing) { name in
                    guard !name.elementsEqual("thumbnails".utf8) else { return }
                    let sub = PathBytes.string(from: name)
                    let path = dir == "/" ? "/" + sub : dir + "/" + sub
                    pending.push(folderKey(path), path)
                }
            } catch {
                if isRoot { throw LibraryScanError.unreadable(dir, error.description) }
                continue   // the full listing says so
            }
            isRoot = false
            listing.nameBytes.withUnsafeBufferPointer { names in
                for entry in 0..<listing.count {
                    scratch.removeAll(keepingCapacity: true)
                    scratch.append(contentsOf: next.key)
                    FirstScreenNames.appendKey(of: names[listing.nameRange(entry)], to: &scratch)
                    if kept.count < count {
                        kept.push(scratch, ())
                    } else if let worst = kept.top, NaturalOrder.compareKeys(scratch, worst.key) < 0 {
                        _ = kept.pop()
                        kept.push(scratch, ())
                    }
                }
            }
            listed.append(listing)
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

/// A binary heap of natural-order keys (`NaturalOrder.compareKeys`) with a payload each: the smallest key on top,
/// or the largest with `largestFirst`.
struct KeyHeap<Payload> {
    private var items: [(key: [UInt8], payload: Payload)] = []
    private let largestFirst: Bool

    init(largestFirst: Bool) { self.largestFirst = largestFirst }

    var count: Int { items.count }
    var top: (key: [UInt8], payload: Payload)? { items.first }

    mutating func push(_ key: [UInt8], _ payload: Payload) {
        items.append((key, payload))
        var child = items.count - 1
        while child > 0, above(child, (child - 1) / 2) {
            items.swapAt(child, (child - 1) / 2)
            child = (child - 1) / 2
        }
    }

    mutating func pop() -> (key: [UInt8], payload: Payload)? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let first = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var chosen = parent
            if left < items.count, above(left, chosen) { chosen = left }
            if right < items.count, above(right, chosen) { chosen = right }
            if chosen == parent { return first }
            items.swapAt(parent, chosen)
            parent = chosen
        }
    }

    private func above(_ a: Int, _ b: Int) -> Bool {
        let order = NaturalOrder.compareKeys(items[a].key, items[b].key)
        return largestFirst ? order > 0 : order < 0
    }
}
