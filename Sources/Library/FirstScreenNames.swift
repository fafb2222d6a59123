import LivePairing

/// Picks the first names of a listing in display order (`NaturalOrder`, the pairer's order) without sorting
/// the listing and without a `String` or an array per name: each name's natural-order key is written into
/// one reused buffer and compared with the worst of the names kept so far (a bounded max-heap). A
/// 100,000-name folder costs one key and about one `memcmp` per name.
enum FirstScreenNames {
    /// One file of a listing: folder number and entry number.
    struct FileRef: Hashable, Sendable {
        var folder: Int
        var entry: Int
    }

    /// The first `count` files of `listings` in `NaturalOrder` of their paths, in that order.
    static func first(_ count: Int, of listings: [FolderListing]) -> [FileRef] {
        guard count > 0 else { return [] }
        struct Kept {
            var ref: FileRef
            var key: [UInt8]
        }
        // Ties of the key (names differing only in letter case or leading zeros) are broken like
        // `NaturalOrder.less` breaks them: by the paths as strings.
        var best = BoundedBest<Kept>(capacity: count) { a, b in less(a.key, a.ref, b.key, b.ref, listings) }
        var scratch: [UInt8] = []
        scratch.reserveCapacity(512)
        for (folderNumber, listing) in listings.enumerated() {
            var folderKey: [UInt8] = []
            appendKey(of: Array((listing.directory == "/" ? "/" : listing.directory + "/").utf8)[...], to: &folderKey)
            listing.nameBytes.withUnsafeBufferPointer { names in
                for entry in 0..<listing.count {
                    scratch.removeAll(keepingCapacity: true)
                    scratch.append(contentsOf: folderKey)
                    appendKey(of: names[listing.nameRange(entry)], to: &scratch)
                    let ref = FileRef(folder: folderNumber, entry: entry)
                    best.offer(beatsWorst: { less(scratch, ref, $0.key, $0.ref, listings) },
                               make: { Kept(ref: ref, key: scratch) })
                }
            }
        }
        return best.sorted().map(\.ref)
    }

    private static func less(_ a: [UInt8], _ refA: FileRef, _ b: [UInt8], _ refB: FileRef,
                             _ listings: [FolderListing]) -> Bool {
        let order = NaturalOrder.compareKeys(a, b)
        if order != 0 { return order < 0 }
        return listings[refA.folder].path(refA.entry) < listings[refB.folder].path(refB.entry)
    }

    /// Appends the natural-order key of `text` (UTF-8) to `key`: byte for byte `NaturalOrder.key`, which the
    /// pairer sorts by (`FirstScreenNamesTests` compares them). ASCII letters are lower-cased; a run of
    /// digits becomes 0x30, its length without leading zeros in four bytes, then those digits.
    static func appendKey<Bytes: Collection>(of text: Bytes, to key: inout [UInt8]) where Bytes.Element == UInt8, Bytes.Index == Int {
        var index = text.startIndex
        let end = text.endIndex
        while index < end {
            let byte = text[index]
            if byte >= 0x30 && byte <= 0x39 {
                var runEnd = index
                while runEnd < end, text[runEnd] >= 0x30 && text[runEnd] <= 0x39 { runEnd += 1 }
                var significant = index
                while significant < runEnd, text[significant] == 0x30 { significant += 1 }
                let length = significant == runEnd ? 1 : runEnd - significant
                key.append(0x30)
                let length32 = UInt32(min(length, Int(UInt32.max)))
                key.append(UInt8(truncatingIfNeeded: length32 >> 24)); key.append(UInt8(truncatingIfNeeded: length32 >> 16))
                key.append(UInt8(truncatingIfNeeded: length32 >> 8)); key.append(UInt8(truncatingIfNeeded: length32))
                if significant == runEnd {
                    key.append(0x30)
                } else {
                    key.append(contentsOf: text[significant..<runEnd])
                }
                index = runEnd
                continue
            }
            key.append(byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte)
            index += 1
        }
    }
}
