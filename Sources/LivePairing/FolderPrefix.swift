import Concurrent

/// A folder's path prefix ("2023/07/", up to and including the last "/"), one object shared by every file of
/// the folder: a file holds 8 bytes for it instead of a 16-byte String, 16 bytes of every Live Photo item's box
/// (issue 17 item 4). Compared and hashed by its text.
public final class FolderPrefix: Sendable, Hashable {
    public let text: String

    public init(_ text: String) { self.text = text }

    public static func == (a: FolderPrefix, b: FolderPrefix) -> Bool { a === b || a.text == b.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// The prefix of files at the top (no folder part).
    public static let none = FolderPrefix("")

    /// Distinct prefixes kept for sharing (a year of photos has a few thousand folders).
    private static let table = SharingTable<FolderPrefix>(limit: 16_384)

    /// The shared object for `text` (a folder listing asks once per folder, a file made from a path once).
    public static func shared(_ text: String) -> FolderPrefix {
        text.isEmpty ? none : table.share(FolderPrefix(text))
    }
}
