import LibraryIndex

/// The byte layer of `ScanSnapshot`: little-endian integers and length-prefixed byte strings, read with a
/// bounds check on every step. A snapshot is a cache file that may be cut or damaged: a reader that runs out
/// or finds an absurd count fails, and the scan goes the usual way.
struct SnapshotWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func text(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            u32(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }
    mutating func optionalText(_ s: String?) {
        guard let s else { return u8(0) }
        u8(1)
        text(s)
    }
}

struct SnapshotReader {
    let bytes: UnsafeRawBufferPointer
    var index: Int
    private(set) var failed = false

    init(_ bytes: UnsafeRawBufferPointer, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var remaining: Int { bytes.count - index }

    mutating func u8() -> UInt8 {
        guard !failed, remaining >= 1 else { failed = true; return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u32() -> Int {
        guard !failed, remaining >= 4 else { failed = true; return 0 }
        defer { index += 4 }
        return Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)))
    }

    mutating func u64() -> UInt64 {
        guard !failed, remaining >= 8 else { failed = true; return 0 }
        defer { index += 8 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    /// A count of things each at least `minimumBytes` long: one that cannot fit in what is left fails (a
    /// damaged count must not reserve gigabytes).
    mutating func count(eachAtLeast minimumBytes: Int) -> Int {
        let n = u32()
        guard !failed, n <= remaining / max(1, minimumBytes) else { failed = true; return 0 }
        return n
    }

    /// The next length-prefixed bytes.
    mutating func slice() -> UnsafeRawBufferPointer {
        let n = u32()
        guard !failed, n <= remaining else { failed = true; return UnsafeRawBufferPointer(start: nil, count: 0) }
        defer { index += n }
        return UnsafeRawBufferPointer(rebasing: bytes[index..<(index + n)])
    }

    /// Skips length-prefixed bytes.
    mutating func skip() { _ = slice() }

    mutating func skip(bytes n: Int) {
        guard !failed, remaining >= n else { failed = true; return }
        index += n
    }

    mutating func text() -> String {
        String(decoding: slice(), as: UTF8.self)
    }

    mutating func optionalText() -> String? {
        u8() == 0 ? nil : text()
    }
}

/// A 64-bit check of a snapshot's bytes, eight at a time (a multiply-rotate mix, like xxHash's round): 35 MB in a
/// few milliseconds, where a byte-wise hash took ~35 ms. It finds damage (a flipped bit, a cut file), not
/// tampering: the snapshot lives in the user's own cache, and a damaged one must not be shown as the library.
enum SnapshotCheck {
    static func value(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        let prime1: UInt64 = 0x9E37_79B1_85EB_CA87, prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (prime1 &+ prime2, prime2, 0, 0 &- prime1)
        func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
            let mixed = acc &+ input &* prime2
            return ((mixed << 31) | (mixed >> 33)) &* prime1
        }
        var i = 0
        while i + 32 <= raw.count {
            lanes.0 = round(lanes.0, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            lanes.1 = round(lanes.1, raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
            lanes.2 = round(lanes.2, raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
            lanes.3 = round(lanes.3, raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
            i += 32
        }
        var hash = lanes.0 ^ (lanes.1 &* 3) ^ (lanes.2 &* 5) ^ (lanes.3 &* 7) ^ UInt64(raw.count)
        while i < raw.count {
            hash = round(hash, UInt64(raw[i]))
            i += 1
        }
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        return hash
    }
}

/// A snapshot written into memory (tests, and `ScanSnapshot.encode`'s byte form).
struct MemorySnapshotOutput: SnapshotOutput {
    var bytes: [UInt8] = []
    var count: Int { bytes.count }
    mutating func append(_ more: [UInt8]) { bytes += more }
    mutating func overwrite(_ more: [UInt8], at offset: Int) {
        bytes.replaceSubrange(offset..<(offset + more.count), with: more)
    }
}
