import Concurrent
import Foundation
import MediaFormats

/// The freedesktop.org thumbnail cache (Thumbnail Managing Standard 0.9):
/// `$XDG_CACHE_HOME/thumbnails/<size>/<md5 of file URI>.png`, PNG with tEXt `Thumb::URI`, `Thumb::MTime`,
/// `Thumb::Size`, `Thumb::Mimetype`, `Software`; directories 0700, files 0600, written to a temp file in the
/// same directory and renamed. Failures are remembered as empty PNGs in `fail/livegrid-<version>/`.
/// When the cache cannot be written (read-only, full, no permission) it keeps thumbnails in memory instead
/// and reports that once through `warn`.
public final class ThumbnailCache: Sendable {
    public let root: String
    public let software: String
    public let failDirectoryName: String
    private let warn: @Sendable (String) -> Void
    /// Thumbnails kept in memory once the cache turned out not to be writable.
    private let fallback = Locked(MemoryFallback())

    private struct MemoryFallback {
        var frames: [String: (mtime: Int, frame: PixelFrame)] = [:]
        var inUse = false
    }

    /// - Parameters:
    ///   - root: the `thumbnails` directory; defaults to `$XDG_CACHE_HOME/thumbnails` or `~/.cache/thumbnails`.
    ///   - version: livegrid's version, naming the failure directory `fail/livegrid-<version>`.
    public init(root: String? = nil, version: String, environment: [String: String],
                warn: @escaping @Sendable (String) -> Void = {
                    // try?: a terminal that is gone cannot show the warning (Foundation's write(_: Data) trapped).
                    try? FileHandle.standardError.write(contentsOf: Data(("livegrid: " + VisibleText.escaped($0) + "\n").utf8))
                })
    {
        self.root = root ?? Self.defaultRoot(environment: environment)
        self.software = "livegrid \(version)"
        self.failDirectoryName = "livegrid-\(version)"
        self.warn = warn
    }

    public static func defaultRoot(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/thumbnails" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.cache/thumbnails"
    }

    // MARK: names

    public static func absolutePath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }

    public func uri(forFile path: String) -> String { FileURI.from(absolutePath: Self.absolutePath(path)) }

    public func thumbnailPath(forFile path: String, size: ThumbnailSize) -> String {
        "\(root)/\(size.directoryName)/\(MD5.hexDigest(uri(forFile: path))).png"
    }

    public func failurePath(forFile path: String) -> String {
        "\(root)/fail/\(failDirectoryName)/\(MD5.hexDigest(uri(forFile: path))).png"
    }

    /// True for files inside the cache itself: the spec forbids thumbnailing thumbnails.
    public func isInsideCache(_ path: String) -> Bool {
        Self.absolutePath(path).hasPrefix(URL(fileURLWithPath: root).standardizedFileURL.path + "/")
    }

    /// Whether the cache fell back to memory (after a failed write).
    public var isMemoryOnly: Bool { fallback.withLockedValue { $0.inUse } }

    // MARK: lookup and generation

    /// A thumbnail from the cache or freshly made, and whether it came from the cache.
    public struct Result: Sendable {
        public var frame: PixelFrame
        public var fromCache: Bool
        public var path: DecodePath?
        /// Set when the picture shows only part of a damaged file (never for a cached thumbnail).
        public var damage: ImagingError? = nil
        /// An embedded thumbnail smaller than the cache size (allowed by the options' sufficient box): good
        /// for the caller's output only, so it was not stored.
        public var isBelowCacheSize: Bool = false
    }

    /// The cached thumbnail when present and fresh (its Thumb::MTime equals the file's mtime).
    public func cached(forFile path: String, size: ThumbnailSize) -> PixelFrame? {
        guard let stat = FileStat(path) else { return nil }
        let key = thumbnailPath(forFile: path, size: size)
        if let entry = fallback.withLockedValue({ $0.frames[key] }), entry.mtime == stat.mtime { return entry.frame }
        guard let bytes = Self.readSmallFile(key) else { return nil }
        let text = PNGChunks.textEntries(of: bytes)
        guard text["Thumb::MTime"] == String(stat.mtime), text["Thumb::URI"] == uri(forFile: path) else { return nil }
        return try? PNGCodec.decode(bytes)   // try?: a damaged cache entry is no entry (it is made again)
    }

    /// The thumbnail of `path` at `size`: from the cache when fresh, else decoded (with `info` or a probe),
    /// stored, and returned. A file that failed before (same mtime) fails again at once without decoding.
    public func thumbnail(forFile path: String, size: ThumbnailSize, info: MediaInfo? = nil,
                          options: DecodeOptions = .default) throws(ImagingError) -> Result
    {
        if let frame = cached(forFile: path, size: size) { return Result(frame: frame, fromCache: true, path: nil) }
        guard let stat = FileStat(path) else { throw ImagingError.io(path: path, errno: errno) }
        if hasFreshFailure(forFile: path, mtime: stat.mtime) {
            // The failure PNG keeps no reason: a look at the file's ends says again what is wrong with it.
            throw ImagingError.explaining(ImagingError.cannotDecode("failed before (remembered in \(failurePath(forFile: path)))"),
                                          path: path)
        }
        let probed: MediaInfo
        if let info { probed = info } else {
            do { probed = try MediaProbe.probe(path: path) } catch { throw ImagingError(error) }
        }
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoder.decode(path: path, info: probed, fitting: PixelSize(square: size.pixels),
                                              options: options)
        } catch {
            if !isInsideCache(path), Self.isWorthRemembering(error) { recordFailure(forFile: path, mtime: stat.mtime) }
            throw error
        }
        // A damaged picture is not cached: the cache has no place for the "damaged" mark, and a file cut short
        // because it is still being copied must not keep its grey half once complete (same second, same mtime).
        // Nor is an embedded thumbnail smaller than the cache size (taken because the caller's output shows no
        // more, `DecodeOptions.embeddedThumbnailSufficientBox`): file managers would show it as a full one.
        let belowCacheSize = decoded.path.isEmbeddedThumbnail
            && !Self.isFullThumbnail(decoded.frame.size, of: decoded.fullSize, size: size)
        if !isInsideCache(path), decoded.damage == nil, !belowCacheSize {
            store(decoded.frame, forFile: path, size: size, mtime: stat.mtime, fileSize: stat.size,
                  mimeType: Self.mimeType(of: probed.format))
        }
        return Result(frame: decoded.frame, fromCache: false, path: decoded.path, damage: decoded.damage,
                      isBelowCacheSize: belowCacheSize)
    }

    /// True when `frame` is as big as the freedesktop size asks: the picture's size fitted into the size's box
    /// (one pixel of rounding allowed), or the whole picture when it is smaller.
    static func isFullThumbnail(_ frame: PixelSize, of full: PixelSize?, size: ThumbnailSize) -> Bool {
        guard let full, !full.isEmpty else { return false }
        let wanted = full.fittedDown(in: PixelSize(square: size.pixels))
        return frame.width >= wanted.width - 1 && frame.height >= wanted.height - 1
    }

    /// Failures of the file's content (damaged, not a picture, unsupported, too large): decoding again
    /// would fail again. Unreadable files, missing libraries and lack of memory may go away.
    static func isWorthRemembering(_ error: ImagingError) -> Bool {
        switch error.problem {
        case .damaged, .notAPicture, .unsupported, .tooLarge, .movieNotPicture: return true
        default: return false
        }
    }

    /// Writes a thumbnail (atomically) or keeps it in memory when the cache is not writable.
    public func store(_ frame: PixelFrame, forFile path: String, size: ThumbnailSize, mtime: Int, fileSize: UInt64,
                      mimeType: String?)
    {
        let target = thumbnailPath(forFile: path, size: size)
        var text: [(key: String, value: String)] = [
            ("Thumb::URI", uri(forFile: path)), ("Thumb::MTime", String(mtime)), ("Thumb::Size", String(fileSize)),
        ]
        if let mimeType { text.append(("Thumb::Mimetype", mimeType)) }
        text.append(("Software", software))
        let written: Bool
        if fallback.withLockedValue({ $0.inUse }) {
            written = false
        } else if let png = try? PNGCodec.encode(frame, text: text) {   // try?: kept in memory instead (below)
            written = writeAtomically(png, to: target)
        } else {
            written = false
        }
        if !written {
            fallback.withLockedValue { $0.frames[target] = (mtime, frame) }
        }
    }

    /// A cache file's bytes, or nil when absent or implausibly large for a thumbnail (> 32 MiB).
    static func readSmallFile(_ path: String) -> [UInt8]? {
        guard let stat = FileStat(path), stat.size <= 32 << 20 else { return nil }
        return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    // MARK: failures

    func hasFreshFailure(forFile path: String, mtime: Int) -> Bool {
        guard let bytes = Self.readSmallFile(failurePath(forFile: path)) else { return false }
        return PNGChunks.textEntries(of: bytes)["Thumb::MTime"] == String(mtime)
    }

    func recordFailure(forFile path: String, mtime: Int) {
        guard !fallback.withLockedValue({ $0.inUse }) else { return }
        let text: [(key: String, value: String)] = [
            ("Thumb::URI", uri(forFile: path)), ("Thumb::MTime", String(mtime)), ("Software", software),
        ]
        // The spec's "empty" failure PNG: a 1x1 transparent picture carrying the metadata.
        // try?: the failure mark only saves a retry on the next run; without it the file is tried again.
        guard let png = try? PNGCodec.encode(PixelFrame(width: 1, height: 1, fill: (0, 0, 0, 0)), text: text) else { return }
        _ = writeAtomically(png, to: failurePath(forFile: path))
    }

    // MARK: writing

    /// Temp file in the target's directory, 0600, then rename(2). On failure switches to memory, warns once.
    private func writeAtomically(_ bytes: [UInt8], to target: String) -> Bool {
        let directory = (target as NSString).deletingLastPathComponent
        if let problem = makeDirectories(directory) { return fallBackToMemory(problem) }
        do {
            try AtomicFileWriter.write(bytes, to: target, permissions: 0o600)
        } catch {
            return fallBackToMemory("\(error)")
        }
        return true
    }

    /// Creates `directory` and its parents up to `root` with mode 0700; nil on success, else the problem.
    private func makeDirectories(_ directory: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue { return nil }
        let parent = (directory as NSString).deletingLastPathComponent
        if parent != directory, parent.count > 1, let problem = makeDirectories(parent) { return problem }
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            return "cannot create \(directory): \(String(cString: strerror(errno)))"
        }
        return nil
    }

    private func fallBackToMemory(_ problem: String) -> Bool {
        let first: Bool = fallback.withLockedValue { fallback in
            defer { fallback.inUse = true }
            return !fallback.inUse
        }
        if first { warn("thumbnail cache not writable (\(problem)); keeping thumbnails in memory for this session") }
        return false
    }

    public static func mimeType(of format: ContainerFormat) -> String? {
        switch format {
        case .jpeg: return "image/jpeg"
        case .heif: return "image/heic"
        case .png: return "image/png"
        case .gif: return "image/gif"
        case .webp: return "image/webp"
        case .tiff: return "image/tiff"
        case .bmp: return "image/bmp"
        case .quickTime: return "video/quicktime"
        case .mp4: return "video/mp4"
        case .unknown: return nil
        }
    }
}

/// The two facts of stat(2) the cache keys on.
struct FileStat {
    var mtime: Int
    var size: UInt64
    init?(_ path: String) {
        var st = StatBuffer()
        guard PathBytes.stat(path, &st) == 0 else { return nil }
        mtime = Int(st.st_mtim.tv_sec)
        size = UInt64(max(0, st.st_size))
    }
}
