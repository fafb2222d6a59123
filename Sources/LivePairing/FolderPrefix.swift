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

    /// Distinct prefixes kept for sharing; beyond it the table starts over (sharing never changes a value).
    static let limit = 16_384
    private static let table = Locked<Set<FolderPrefix>>([])

    /// A shared object for `text`, for files made from a path one by one (a folder listing makes its own once).
    public static func shared(_ text: String) -> FolderPrefix {
        if text.isEmpty { return none }
        let made = FolderPrefix(text)
        return table.withLockedValue { table in
            if let index = table.firstIndex(of: made) { return table[index] }
            if table.count >= limit { table.removeAll(keepingCapacity: true) }
            table.insert(made)
            return made
        }
    }
}
