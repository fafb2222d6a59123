/// Forward reads over a `ByteSource` through one cached buffer: the JPEG header probe lands in a single
/// read, and a segment walk that goes past it costs one small read per jump, never a full load.
struct SourceWindow {
    let source: any ByteSource
    private(set) var buffer: [UInt8]
    private(set) var bufferOffset: UInt64
    /// Size of a refill when a read falls outside the buffer.
    let refillBytes: Int

    init(source: any ByteSource, initialBytes: Int, refillBytes: Int = 4096) throws(MediaError) {
        self.source = source
        self.buffer = try source.read(at: 0, count: initialBytes)
        self.bufferOffset = 0
        self.refillBytes = refillBytes
    }

    var size: UInt64 { source.size }

    /// The byte at `offset`, or nil past the end of the source.
    mutating func byte(at offset: UInt64) throws(MediaError) -> UInt8? {
        if let index = index(of: offset, count: 1) { return buffer[index] }
        guard offset < source.size else { return nil }
        buffer = try source.read(at: offset, count: refillBytes)
        bufferOffset = offset
        return buffer.first
    }

    /// Exactly `count` bytes at `offset` (from the buffer when it holds them), or `.truncated`.
    mutating func bytes(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
        if let index = index(of: offset, count: count) { return Array(buffer[index..<index + count]) }
        return try source.readExactly(at: offset, count: count)
    }

    private func index(of offset: UInt64, count: Int) -> Int? {
        guard count >= 0, offset >= bufferOffset else { return nil }
        let start = offset - bufferOffset
        guard start <= UInt64(buffer.count), UInt64(count) <= UInt64(buffer.count) - start else { return nil }
        return Int(start)
    }
}
