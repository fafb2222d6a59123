import Concurrent

/// One copy of the strings many files repeat: folder prefixes of paths, camera and lens names, codec names.
/// A Swift string of more than 15 UTF-8 bytes is a heap buffer of its own (about 48-80 bytes); 100,000 files
/// in 1,000 folders of photos from a few cameras hold each such text a hundred times or more (issue 17 item 4).
/// `share` returns an equal string whose buffer is the first one seen, so the copies become retains.
///
/// Interning never changes a value, only where its bytes live, so a full table is simply emptied: a hostile
/// library of all-different names costs at most `limit` extra references, never unbounded memory.
public enum SharedStrings {
    /// Distinct strings kept for sharing; beyond it the table starts over (a year of photos has a few
    /// thousand folders and a few dozen camera and lens names).
    public static let limit = 16_384

    private static let table = SharingTable<String>(limit: limit)

    /// `text`, or an equal string already shared. Short strings are stored inline by Swift: returned as they are.
    public static func share(_ text: String) -> String {
        guard text.utf8.count > 15 else { return text }
        return table.share(text)
    }

    public static func share(_ text: String?) -> String? { text.map(share) }
}
