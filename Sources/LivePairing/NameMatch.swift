#if canImport(Glibc)
import Glibc
#endif
/// Base-name matching of a still and a movie, with the variants exports produce:
/// `IMG_1234.HEIC` + `IMG_1234.MOV`, `IMG_1234_3.mov` (Photos library), `IMG_1234_HEVC.MOV` (iCloud),
/// `.JPG` after conversion. Case-insensitive.
enum NameMatch {
    /// Suffixes a movie's base name may carry beyond its still's.
    static let movieSuffixes = ["", "_hevc", "_3", "_2", "-hevc"]

    static func matches(still: MediaFile, movie: MediaFile) -> Bool {
        let s = still.baseName.lowercased()
        let m = movie.baseName.lowercased()
        return movieSuffixes.contains { m == s + $0 }
    }

    /// Movies by lower-cased base name.
    static func index(_ movies: [PairingEntry]) -> [String: [PairingEntry]] {
        Dictionary(grouping: movies) { $0.file.baseName.lowercased() }
    }

    /// Index keys a matching movie of `still` would have, best (exact) first.
    static func keys(for still: MediaFile) -> [String] {
        let s = still.baseName.lowercased()
        return movieSuffixes.map { s + $0 }
    }

    /// The movies whose names match `still`, best (exact) first. An empty index (a folder without movies)
    /// costs nothing: no keys are made.
    static func candidates(for still: MediaFile, in index: [String: [PairingEntry]]) -> [PairingEntry] {
        guard !index.isEmpty else { return [] }
        return keys(for: still).flatMap { index[$0] ?? [] }
    }
}

/// A file being paired and its position in the natural order of all paths: the position is the file's
/// identity inside the pairer (sets and dictionaries of paths cost a string per file) and the final order.
struct PairingEntry {
    var file: MediaFile
    var rank: Int
}

/// Natural, case-insensitive order ("IMG_2" before "IMG_10"), so the grid reads like a file manager.
public enum NaturalOrder {
    public static func less(_ a: String, _ b: String) -> Bool {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        var ca = i.next(), cb = j.next()
        while let x = ca, let y = cb {
            if isDigit(x) && isDigit(y) {
                var na: [Unicode.Scalar] = [], nb: [Unicode.Scalar] = []
                while let c = ca, isDigit(c) { na.append(c); ca = i.next() }
                while let c = cb, isDigit(c) { nb.append(c); cb = j.next() }
                let ta = trimZeros(na), tb = trimZeros(nb)
                if ta.count != tb.count { return ta.count < tb.count }
                for (p, q) in zip(ta, tb) where p != q { return p.value < q.value }
                continue
            }
            let lx = lower(x), ly = lower(y)
            if lx != ly { return lx < ly }
            ca = i.next(); cb = j.next()
        }
        if ca == nil && cb != nil { return true }
        if ca != nil && cb == nil { return false }
        return a < b
    }
    /// A byte key whose plain lexicographic order is `less`'s order (ties aside, which `less` breaks by the
    /// raw string): computed once per name, sorting 100,000 names costs memcmp calls instead of the scalar
    /// walks and digit arrays of `less` in every comparison (the pairer's sort was 16 % of a scan).
    /// ASCII letters are lower-cased; a run of digits becomes `0x30`, its length without leading zeros in four
    /// bytes, then those digits, so a shorter number sorts first and equal lengths compare digit by digit.
    /// Other scalars keep their UTF-8 bytes, whose order is the scalars' order.
    public static func key(_ text: String) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(text.utf8.count + 8)
        appendKey(text, to: &key)
        return key
    }

    /// `key(text)` appended to `key`: many keys can share one buffer.
    static func appendKey(_ text: String, to key: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ appendKey($0, to: &key) }) != nil { return }
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { appendKey($0, to: &key) }
    }

    /// `key` of UTF-8 bytes. A run of digits is written in place (its length patched in after it): an array
    /// per run of digits was an allocation per number of every name sorted.
    static func appendKey(_ bytes: UnsafeBufferPointer<UInt8>, to key: inout [UInt8]) {
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            guard byte >= 0x30 && byte <= 0x39 else {
                key.append(byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte)
                i += 1
                continue
            }
            key.append(0x30)
            let lengthAt = key.count
            key.append(contentsOf: [0, 0, 0, 0] as [UInt8])
            var digits = 0
            while i < count, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
                if !(digits == 0 && bytes[i] == 0x30) {
                    key.append(bytes[i])
                    digits += 1
                }
                i += 1
            }
            if digits == 0 {
                key.append(0x30)
                digits = 1
            }
            let length = UInt32(min(digits, Int(UInt32.max)))
            key[lengthAt] = UInt8(truncatingIfNeeded: length >> 24)
            key[lengthAt + 1] = UInt8(truncatingIfNeeded: length >> 16)
            key[lengthAt + 2] = UInt8(truncatingIfNeeded: length >> 8)
            key[lengthAt + 3] = UInt8(truncatingIfNeeded: length)
        }
    }

    /// The permutation that sorts `files` by `less` of their paths, without making a path or a key per path:
    /// a key per folder prefix and one per name, the name keys in one buffer. A prefix ends with "/", so no
    /// run of digits spans the cut and the key of a path is the prefix's key followed by the name's.
    public static func sortedIndices(_ files: [MediaFile]) -> [Int] {
        var prefixKeys: [[UInt8]] = []
        var prefixIndex: [String: Int] = [:]
        var prefixOfFile: [Int32] = []
        prefixOfFile.reserveCapacity(files.count)
        var names: [UInt8] = []
        var nameStart: [Int] = [0]
        nameStart.reserveCapacity(files.count + 1)
        // By index (`for file in files` copied every file), the last folder compared first: files come folder
        // by folder, and one folder's prefixes share a buffer, so most files cost no hashing of their prefix.
        var lastPrefix: String?
        var lastKnown = 0
        for index in files.indices {
            let prefix = files[index].folderPrefix
            if let lastPrefix, lastPrefix == prefix {
                prefixOfFile.append(Int32(lastKnown))
            } else if let known = prefixIndex[prefix] {
                prefixOfFile.append(Int32(known))
                lastKnown = known
            } else {
                prefixIndex[prefix] = prefixKeys.count
                lastKnown = prefixKeys.count
                prefixOfFile.append(Int32(prefixKeys.count))
                prefixKeys.append(key(prefix))
            }
            lastPrefix = prefix
            appendKey(files[index].name, to: &names)
            nameStart.append(names.count)
        }
        return names.withUnsafeBufferPointer { names in
            func name(_ i: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: names[nameStart[i]..<nameStart[i + 1]])
            }
            return files.indices.sorted { a, b in
                let pa = Int(prefixOfFile[a]), pb = Int(prefixOfFile[b])
                let order = pa == pb ? compare(name(a), name(b))
                    : prefixKeys[pa].withUnsafeBufferPointer { ka in
                        prefixKeys[pb].withUnsafeBufferPointer { kb in compare(ka, name(a), kb, name(b)) }
                    }
                return order != 0 ? order < 0 : files[a].path < files[b].path
            }
        }
    }

    /// memcmp order of two byte strings, the shorter first when one starts the other.
    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmp(pa, pb, common)
            if c != 0 { return Int(c) }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// `compare(a1 + a2, b1 + b2)` without joining them.
    private static func compare(_ a1: UnsafeBufferPointer<UInt8>, _ a2: UnsafeBufferPointer<UInt8>,
                                _ b1: UnsafeBufferPointer<UInt8>, _ b2: UnsafeBufferPointer<UInt8>) -> Int {
        let head = min(a1.count, b1.count)
        let first = compare(UnsafeBufferPointer(rebasing: a1[..<head]), UnsafeBufferPointer(rebasing: b1[..<head]))
        if first != 0 { return first }
        let na = a1.count + a2.count, nb = b1.count + b2.count
        var i = head
        while i < na, i < nb {
            let x = i < a1.count ? a1[i] : a2[i - a1.count]
            let y = i < b1.count ? b1[i] : b2[i - b1.count]
            if x != y { return x < y ? -1 : 1 }
            i += 1
        }
        return na == nb ? 0 : (na < nb ? -1 : 1)
    }

    /// `less` through precomputed keys: the order of `key`, ties broken like `less` does.
    public static func less(key a: [UInt8], _ rawA: String, key b: [UInt8], _ rawB: String) -> Bool {
        let order = compareKeys(a, b)
        return order != 0 ? order < 0 : rawA < rawB
    }

    /// The order of two keys (negative, zero, positive): bytes compared with memcmp, a prefix first.
    public static func compareKeys(_ a: [UInt8], _ b: [UInt8]) -> Int32 {
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb -> Int32 in
                let common = min(pa.count, pb.count)
                if common > 0, let baseA = pa.baseAddress, let baseB = pb.baseAddress {
                    let c = memcmp(baseA, baseB, common)
                    if c != 0 { return c }
                }
                return pa.count == pb.count ? 0 : (pa.count < pb.count ? -1 : 1)
            }
        }
    }

    /// The indices of the `count` first names in `less` order, in that order, without sorting them all: a
    /// bounded max-heap keeps the best `count` seen so far, so a 100,000-name folder costs one key and about
    /// one comparison per name before its first screen can be probed.
    public static func firstIndices(_ names: [String], count: Int) -> [Int] {
        guard count > 0 else { return [] }
        guard count < names.count else { return sortedIndices(names) }
        let keys = names.map(key)
        func before(_ a: Int, _ b: Int) -> Bool { less(key: keys[a], names[a], key: keys[b], names[b]) }
        var best = BoundedBest<Int>(capacity: count, before: before)
        for index in names.indices { best.offer(beatsWorst: { before(index, $0) }, make: { index }) }
        return best.sorted()
    }

    /// The permutation that sorts `names` by `less`, computing each key once.
    public static func sortedIndices(_ names: [String]) -> [Int] {
        let keys = names.map(key)
        return names.indices.sorted { less(key: keys[$0], names[$0], key: keys[$1], names[$1]) }
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 48 && c.value <= 57 }
    private static func lower(_ c: Unicode.Scalar) -> UInt32 { (c.value >= 65 && c.value <= 90) ? c.value + 32 : c.value }
    private static func trimZeros(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] {
        let t = s.drop { $0 == "0" }
        return t.isEmpty ? ["0"] : Array(t)
    }
}

/// Capture times as cameras write them: Exif "2021:05:02 12:34:56" or QuickTime "2021-05-02T12:34:56+0200".
/// Compared as local wall-clock times (Exif has no zone; QuickTime's creationdate is local with an offset).
enum CaptureTime {
    static func gapSeconds(_ a: String?, _ b: String?) -> Double? {
        guard let a, let b, let x = seconds(a), let y = seconds(b) else { return nil }
        return abs(x - y)
    }

    /// Seconds of a proleptic day count, enough for differences.
    static func seconds(_ text: String) -> Double? {
        let digits = text.unicodeScalars.map { $0 }
        var numbers: [Int] = []
        var current = 0, inNumber = false
        for c in digits.prefix(19) {
            if c.value >= 48 && c.value <= 57 {
                current = current * 10 + Int(c.value - 48)
                inNumber = true
            } else if inNumber {
                numbers.append(current)
                current = 0
                inNumber = false
            }
        }
        if inNumber { numbers.append(current) }
        guard numbers.count >= 6 else { return nil }
        let (y, mo, d, h, mi, s) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        guard y > 1900, (1...12).contains(mo), (1...31).contains(d), h < 25, mi < 60, s < 61 else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let yy = mo <= 2 ? y - 1 : y
        let era = yy / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe
        return Double(days * 86400 + h * 3600 + mi * 60 + s)
    }
}
