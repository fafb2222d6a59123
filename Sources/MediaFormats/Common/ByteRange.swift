/// A range of bytes in a file, as offset and length (both checked against the file by whoever made it).
public struct ByteRange: Sendable, Hashable, Codable, CustomStringConvertible {
    public var offset: UInt64
    public var length: UInt64
    public init(offset: UInt64, length: UInt64) {
        self.offset = offset
        self.length = length
    }
    public var end: UInt64 { offset &+ length }
    public var description: String { "\(offset)+\(length)" }
    /// True when the range lies inside a source of `size` bytes (no overflow).
    public func fits(in size: UInt64) -> Bool {
        offset <= size && length <= size - offset
    }
}
