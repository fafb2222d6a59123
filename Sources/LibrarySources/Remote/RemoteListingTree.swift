import Foundation
import LibraryCore

/// A directory and every folder below it, listed in one walk (`LibrarySource.listTree`: S3, where folders are
/// only slashes in keys, so one flat listing is the whole tree). Folder 0 is the directory itself; the others
/// come in the order their first file was listed, each a listing of its own files (names without slashes,
/// URLs below the folder's), so that a folder's files pair among themselves as in a folder-by-folder walk.
public struct RemoteListingTree: Sendable {
    public struct Folder: Sendable {
        /// Relative to the directory, slash-separated, ending in "/" ("" for the directory itself).
        public var path: String
        public var listing: RemoteListing
    }

    /// Folders deeper than this are left out, as a folder-by-folder walk stops there.
    public static let maxDepth = 32

    public var folders: [Folder]
    /// More entries followed than the walk may keep (counted over all folders).
    public var truncated = false
    private var indexByPath: [String: Int] = [:]

    public init(root: RemoteListing) {
        folders = [Folder(path: "", listing: root)]
        indexByPath[""] = 0
    }

    /// The total of entries kept in every folder.
    public var entryCount: Int { folders.reduce(0) { $0 + $1.listing.entries.count } }

    /// The index of the folder at `parts` below the directory, made (with its URL) when first seen; nil when a
    /// part is not a name livegrid accepts (empty, `..`, a control character: `RemoteEntryValidator`).
    public mutating func folder(_ parts: [String], format: RemoteListingFormat) -> Int? {
        var path = ""
        var url = folders[0].listing.baseURL
        var index = 0
        for part in parts {
            path += part + "/"
            if let known = indexByPath[path] {
                index = known
                url = folders[known].listing.baseURL
                continue
            }
            guard case .success(let name) = RemoteEntryValidator.checkName(decoded: part),
                  let child = RemoteEntryValidator.url(forName: name, isDirectory: true, in: url) else { return nil }
            url = child
            index = folders.count
            folders.append(Folder(path: path, listing: RemoteListing(baseURL: child, format: format)))
            indexByPath[path] = index
        }
        return index
    }
}
