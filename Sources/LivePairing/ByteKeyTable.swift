/// A hash table from byte strings (slices of one buffer) to small integers, for the pairer's per-folder keys
/// (upper-cased identifiers, lower-cased base names). `Dictionary<String, …>` hashed and compared Strings
/// (Unicode-aware, a SipHash per key) and the keys had to be made as Strings first: on 100,000 distinct files
/// that was most of the pairing (issue 17 item 3). Here a key is a range of `buffer`, hashed with FNV-1a once
/// and compared with memcmp; open addressing, linear probing, never more than half full.
struct ByteKeyTable {
    private var hashes: [UInt64]
    private var starts: [Int32]
    private var lengths: [Int32]
    /// -1: an empty slot.
    private var values: [Int32]
    private let mask: Int

    /// Room for `count` keys.
    init(count: Int) {
        var size = 8
        while size < 2 * count { size *= 2 }
        hashes = [UInt64](repeating: 0, count: size)
        starts = [Int32](repeating: 0, count: size)
        lengths = [Int32](repeating: 0, count: size)
        values = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    static let seed: UInt64 = 14_695_981_039_346_656_037

    /// FNV-1a of `bytes` continued from `hash`: the hash of a key and a suffix is the key's hash continued.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, from hash: UInt64 = seed) -> UInt64 {
        var h = hash
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 1_099_511_628_211
        }
        return h
    }

    /// The value stored for the key `buffer[start..<start+length] + tail` (hash `hash`), or -1.
    func value(hash: UInt64, start: Int, length: Int, tail: UnsafeBufferPointer<UInt8>,
               in buffer: UnsafeBufferPointer<UInt8>) -> Int32 {
        let slot = find(hash: hash, start: start, length: length, tail: tail, in: buffer)
        return values[slot]
    }

    /// Stores `value` for the key `buffer[start..<start+length]` unless the key is there; answers the value
    /// the key has afterwards (the old one when it was there).
    mutating func insert(_ value: Int32, hash: UInt64, start: Int, length: Int,
                         in buffer: UnsafeBufferPointer<UInt8>) -> Int32 {
        let slot = find(hash: hash, start: start, length: length, tail: UnsafeBufferPointer(start: nil, count: 0),
                        in: buffer)
        if values[slot] >= 0 { return values[slot] }
        hashes[slot] = hash
        starts[slot] = Int32(start)
        lengths[slot] = Int32(length)
        values[slot] = value
        return value
    }

    /// The slot holding the key, or the empty slot where it would go.
    private func find(hash: UInt64, start: Int, length: Int, tail: UnsafeBufferPointer<UInt8>,
                      in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 32)) & mask
        let total = length + tail.count
        while values[slot] >= 0 {
            if hashes[slot] == hash, Int(lengths[slot]) == total,
               Self.equal(buffer, Int(starts[slot]), buffer, start, length),
               Self.equal(buffer, Int(starts[slot]) + length, tail, 0, tail.count) {
                return slot
            }
            slot = (slot + 1) & mask
        }
        return slot
    }

    @inline(__always)
    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ aStart: Int, _ b: UnsafeBufferPointer<UInt8>,
                              _ bStart: Int, _ count: Int) -> Bool {
        var i = 0
        while i < count {
            if a[aStart + i] != b[bStart + i] { return false }
            i += 1
        }
        return true
    }
}
