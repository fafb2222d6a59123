/// What names a library item (a Live Photo is one item): today its key file's path, or its URL for a remote
/// item (`LibraryItem.primary.path`). A type of its own so that an item's name and a file path for IO cannot
/// be mixed up, and so sets and dictionaries say what they are keyed by (issue 27 item 5).
///
/// Encoded as its bare string, so files written with the plain path (marks, first-screen memory) stay readable.
/// A string literal makes one (tests, fixed names); a `String` variable needs `ItemID(_:)`, said on purpose.
public struct ItemID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key file's path (or URL) the item is known by.
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// By the string, as the paths sorted before.
    public static func < (a: ItemID, b: ItemID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { rawValue }
}
