/// A source whose first bytes were read once and are served from memory: the sniff, the JPEG segment walk
/// and the ISO BMFF top-level walk all start there, so they share one read.
public struct PrefetchedByteSource: ByteSource {
    public let base: any ByteSource
    public let head: [UInt8]

    public init(base: any ByteSource, headBytes: Int) throws(MediaError) {
        self.base = base
        self.head = try base.read(at: 0, count: max(16, headBytes))
    }

    public var size: UInt64 { base.size }

    public func read(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let headCount = UInt64(head.count)
        // The whole head (the JPEG walk's first window asks for exactly it): shared, not copied.
        if offset == 0, count == head.count || (count > head.count && headCount == size) { return head }
        if offset + UInt64(count) <= headCount {
            return Array(head[Int(offset)..<Int(offset) + count])
        }
        // Past the prefetched head (or the file is shorter than asked: the head holds all of it).
        if headCount == size, offset < headCount {
            return Array(head[Int(offset)...])
        }
        return try base.read(at: offset, count: count)
    }
}
