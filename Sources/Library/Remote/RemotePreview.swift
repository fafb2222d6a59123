import Foundation
import LibrarySources
import MediaFormats

/// A still's picture from bytes already at hand (issue 28.1): the Exif IFD1 thumbnail, found in the head
/// range of a JPEG, kept as a small JPEG of its own in the download cache. Enough for a grid cell in symbols
/// (`CellPictureResolution.sufficientBox`); the whole still is fetched only when a cell needs more.
public final class RemotePreview: Sendable {
    /// The thumbnail as a JPEG file.
    public let path: String
    /// The thumbnail's own facts, with the still's orientation (IFD1 is stored like the main picture).
    public let info: MediaInfo
    /// Bytes fetched to find it (the head range).
    public let bytesFetched: UInt64
    /// Nothing in the head hints at more than a picture (no XMP, which a Motion Photo's movie needs, and no
    /// byte the parser wanted beyond the head, such as a trailer): a lone still of this kind needs no other byte
    /// for a grid cell. When false, the still is fetched as before and the preview only comes first.
    public let replacesStill: Bool

    init(path: String, info: MediaInfo, bytesFetched: UInt64, replacesStill: Bool) {
        self.path = path
        self.info = info
        self.bytesFetched = bytesFetched
        self.replacesStill = replacesStill
    }

    /// Whether a still of this name can have a preview (`RemotePreviewReader.canHavePreview`).
    public static func canExist(forName name: String) -> Bool { RemotePreviewReader.canHavePreview(name) }

    /// Upright pixel size, when known.
    public var uprightSize: (width: Int, height: Int)? {
        guard let w = info.pixelWidth, let h = info.pixelHeight, w > 0, h > 0 else { return nil }
        return (info.orientation ?? 1) >= 5 ? (h, w) : (w, h)
    }
}

/// What is known of an item's preview.
public enum RemotePreviewState: Sendable {
    case notTried
    case fetching
    case ready(RemotePreview)
    /// The head holds no usable thumbnail (or could not be read): the still itself is needed.
    case none

    public var preview: RemotePreview? { if case .ready(let p) = self { return p } else { return nil } }
    /// Tried, and the answer is in.
    public var isSettled: Bool {
        switch self {
        case .ready, .none: return true
        case .notTried, .fetching: return false
        }
    }
}

enum RemotePreviewReader {
    /// The head read for a preview: Exif's APP1 is at most 64 KiB and follows SOI (and perhaps a JFIF APP0).
    static let headBytes: UInt64 = 68 << 10

    /// Names a preview can come from (Exif IFD1 in a JPEG). HEIC's thumbnail item is HEVC in a box of its
    /// own and is not drawn from the head yet.
    static func canHavePreview(_ name: String) -> Bool {
        ["jpg", "jpeg"].contains((name as NSString).pathExtension.lowercased())
    }

    /// Reads the head of `url` and writes its embedded thumbnail to `path`; nil when there is none.
    static func read(_ url: URL, size: UInt64?, client: RemoteHTTPClient, to path: String,
                     limits: ParseLimits) async -> RemotePreview? {
        guard let source = LibrarySourceTable.source(for: url, client: client),
              // try?: a head that cannot be fetched means no preview; the still's own download reports the reason.
              let head = try? await source.fetch(url, range: .bytes(first: 0, last: headBytes - 1), maxBytes: Int(headBytes))
        else { return nil }
        let end = head.bodyOffset + UInt64(head.body.count)
        let bytes = SparseByteSource(size: max(head.totalSize ?? size ?? end, end))
        bytes.add(head.body, at: head.bodyOffset)
        var stillInfo = MediaProbe.probe(bytes, limits: limits)
        guard let range = stillInfo.exifThumbnail, range.length > 3, range.length <= 1 << 20,
              range.offset >= head.bodyOffset, range.offset + range.length <= end else { return nil }
        // One round for what the parser wanted beyond the head (a Samsung trailer's last 8 bytes, say), so that a
        // still that is more than a picture is known as such: small pieces only, each a range with a start. With
        // XMP the still is fetched anyway (it may hold a Motion Photo's movie): nothing more to learn here.
        var fetched = UInt64(head.body.count)
        // Overlapping pieces (the Samsung trailer's last 8 bytes inside the end-of-image check's last 64) are
        // asked once.
        let wanted = Self.coalesced(bytes.misses)
        if !stillInfo.hasXMP, !wanted.isEmpty, wanted.count <= 2, wanted.allSatisfy({ $0.length <= 64 << 10 && $0.length > 0 }) {
            bytes.clearMisses()
            for miss in wanted {
                // try?: a piece that cannot be fetched leaves its miss, and the still is fetched as before.
                guard let piece = try? await source.fetch(url, range: .bytes(first: miss.offset, last: miss.offset + miss.length - 1),
                                                          maxBytes: Int(miss.length)) else { continue }
                fetched += UInt64(piece.body.count)
                bytes.add(piece.body, at: piece.bodyOffset)
            }
            stillInfo = MediaProbe.probe(bytes, limits: limits)
        }
        let start = Int(range.offset - head.bodyOffset)
        let thumbnail = Array(head.body[start ..< start + Int(range.length)])
        guard thumbnail[0] == 0xFF, thumbnail[1] == 0xD8 else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try AtomicFileWriter.write(thumbnail, to: path)
            var info = try MediaProbe.probe(path: path, limits: limits)
            info.orientation = stillInfo.orientation
            return RemotePreview(path: path, info: info, bytesFetched: fetched,
                                 replacesStill: !stillInfo.hasXMP && bytes.misses.isEmpty)
        } catch {
            return nil   // a preview that cannot be kept: the still is fetched as before
        }
    }

    /// `ranges` sorted, with overlapping or touching ones joined.
    static func coalesced(_ ranges: [ByteRange]) -> [ByteRange] {
        var joined: [ByteRange] = []
        for range in ranges.sorted(by: { $0.offset < $1.offset }) {
            if let last = joined.last, range.offset <= last.offset + last.length {
                let end = max(last.offset + last.length, range.offset + range.length)
                joined[joined.count - 1] = ByteRange(offset: last.offset, length: end - last.offset)
            } else {
                joined.append(range)
            }
        }
        return joined
    }
}
