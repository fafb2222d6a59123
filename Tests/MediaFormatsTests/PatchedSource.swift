import MediaFormats

/// A source with one byte replaced, without copying the file: the probe differential tests flip bytes of
/// fixtures through it.
struct PatchedSource: ByteSource {
    let base: any ByteSource
    let offset: Int
    let value: UInt8
    var size: UInt64 { base.size }
    func read(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
        var bytes = try base.read(at: offset, count: count)
        let index = self.offset - Int(offset)
        if index >= 0, index < bytes.count { bytes[index] = value }
        return bytes
    }
}
