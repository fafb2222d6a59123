import LibraryCore
import MediaFormats
import Foundation

/// Layout of the download cache: `<root>/<sha256 of URL>/{file.<ext>, file.<ext>.part, meta.json}`.
/// Names inside are fixed, so no server-chosen name ever becomes a path.
public struct DownloadCache: Sendable {
    public let root: String
    /// Most bytes the cache may hold; `evict` removes least recently used entries above it.
    public let sizeLimit: UInt64

    public static let defaultSizeLimit: UInt64 = 2 << 30

    public init(root: String, sizeLimit: UInt64 = DownloadCache.defaultSizeLimit) {
        self.root = root
        self.sizeLimit = sizeLimit
    }

    /// `$XDG_CACHE_HOME/livegrid/remote` (or `~/.cache/livegrid/remote`).
    public static func defaultRoot(environment: [String: String]) -> String {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        return base + "/livegrid/remote"
    }

    /// Cache key of a URL (userinfo never takes part: it is not stored anywhere).
    public static func key(for url: URL) -> String {
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: true)
        parts?.user = nil
        parts?.password = nil
        return SHA256.hex(parts?.url?.absoluteString ?? url.absoluteString)
    }

    public func directory(for url: URL) -> String { root + "/" + Self.key(for: url) }

    /// Final file path; the extension (letters and digits only) helps tools that look at names.
    public func dataPath(for url: URL) -> String {
        let ext = url.pathExtension.lowercased()
        let safe = !ext.isEmpty && ext.count <= 8 && ext.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return directory(for: url) + "/file" + (safe ? "." + ext : "")
    }
    public func partPath(for url: URL) -> String { dataPath(for: url) + ".part" }
    public func metadataPath(for url: URL) -> String { directory(for: url) + "/" + Self.metadataFileName }

    public func readMetadata(for url: URL) -> DownloadMetadata? {
        guard let data = FileManager.default.contents(atPath: metadataPath(for: url)), data.count < 1 << 16 else { return nil }
        return try? JSONDecoder().decode(DownloadMetadata.self, from: data)   // try?: damaged metadata = not cached, fetched again
    }

    public func writeMetadata(_ meta: DownloadMetadata, for url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(meta)
        try AtomicFileWriter.write(Array(data), to: metadataPath(for: url))
    }

    /// `mkdir -p` of the file's folder, refusing in the system's words: FileManager's error printed as
    /// "Error Domain=NSCocoaErrorDomain Code=…" in the transfer panel and the status bar.
    public func prepareDirectory(for url: URL) throws(RemoteError) {
        let target = directory(for: url)
        var path = target.hasPrefix("/") ? "" : "."
        for part in target.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o777) != 0, errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw .cache("cannot make the folder \(path): \(reason)")
            }
        }
    }

    /// The complete cached file, when metadata says complete and the size on disk agrees.
    public func completeFile(for url: URL) -> (path: String, meta: DownloadMetadata)? {
        guard let meta = readMetadata(for: url), meta.complete, let size = meta.size else { return nil }
        let path = dataPath(for: url)
        guard fileSize(path) == size else { return nil }
        return (path, meta)
    }

    public func fileSize(_ path: String) -> UInt64? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return UInt64(max(0, st.st_size))
    }

    /// Removes every file of one URL.
    public func remove(_ url: URL) { removeEntry(Self.key(for: url)) }
}
