import Foundation
import LivePairing
import MediaFormats

/// Finds the library item a file path belongs to, the way the CLI takes them: scan the file's directory,
/// pair, and pick the item that has the file as its still or movie (so a movie path resolves to its Live
/// Photo too). Several paths of one item resolve to it once.
public enum ItemResolver {
    public enum ResolveError: Error, CustomStringConvertible, Equatable {
        case notFound(String)
        case notMedia(String)
        /// A FIFO, a socket or a device named like a photo: `kind` in words ("a FIFO").
        case notARegularFile(String, kind: String)
        public var description: String {
            switch self {
            case .notFound(let p): return "\(p): no such file"
            case .notMedia(let p): return "\(p): not a photo or movie livegrid knows"
            case .notARegularFile(let p, let kind): return "\(p) is not a regular file (\(kind))"
            }
        }
    }

    /// The items for `paths`, in the order first named, each once; directories are scanned once each.
    public static func resolve(_ paths: [String]) throws -> [LibraryItem] {
        var scans: [String: [LibraryItem]] = [:]
        var result: [LibraryItem] = []
        var seen = Set<ItemID>()
        for path in paths {
            guard PathBytes.exists(path), !PathBytes.isDirectory(path) else {
                throw ResolveError.notFound(path)
            }
            // The scan below skips what is not a regular file, which then read as "not a photo or movie":
            // name the FIFO (issue 32.5) instead. stat follows a link, as the scan's probe does.
            var status = StatBuffer()
            if PathBytes.stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                throw ResolveError.notARegularFile(path, kind: MediaError.fileKind(status.st_mode))
            }
            let target = canonical(path)
            let dir = (target as NSString).deletingLastPathComponent
            if scans[dir] == nil { scans[dir] = try LibraryScanner.scan(directory: dir.isEmpty ? "/" : dir).items }
            guard let item = scans[dir]?.first(where: { $0.files.contains { canonical($0.path) == target } }) else {
                throw ResolveError.notMedia(path)
            }
            if seen.insert(item.id).inserted { result.append(item) }
        }
        return result
    }

    private static func canonical(_ path: String) -> String {
        // Foundation cannot see a name that is not valid UTF-8 (`PathBytes`): resolve its folder only.
        if PathBytes.hasRawBytes((path as NSString).lastPathComponent) {
            let folder = (path as NSString).deletingLastPathComponent
            return canonical(folder.isEmpty ? "." : folder) + "/" + (path as NSString).lastPathComponent
        }
        return URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
