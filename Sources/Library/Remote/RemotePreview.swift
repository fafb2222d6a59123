import Foundation
import LibrarySources
import MediaFormats

/// A still's picture from bytes already at hand (issue 28.1): the Exif IFD1 thumbnail found in the head range
/// of a JPEG, kept as a small JPEG of its own in the download cache, or a HEIC's thumbnail item, kept as a
/// one-image HEIF file (`HEIFSingleImageFile`). Enough for a grid cell in symbols
/// (`CellPictureResolution.sufficientBox`); the whole still is fetched only when a cell needs more.
public final class RemotePreview: Sendable {
    /// The thumbnail as a file of its own (JPEG or HEIF).
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
        guard let size = info.displaySize, size.width > 0, size.height > 0 else { return nil }
        return size
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
    /// The head read for a preview: Exif's APP1 is at most 64 KiB and follows SOI (and perhaps a JFIF APP0);
    /// a HEIC's `meta` comes first and an iPhone's thumbnail item ends some 30 KB in.
    static let headBytes: UInt64 = 68 << 10
    /// A HEIC thumbnail item that ends past the head is fetched as one more range up to this size.
    static let maxHEIFThumbnailBytes: UInt64 = 512 << 10

    /// What a preview is made from: the Exif IFD1 thumbnail of a JPEG, or the thumbnail item of a HEIC
    /// (HEVC in an item of its own, kept as a one-image HEIF file).
    enum Kind {
        case jpeg, heif
        var fileName: String { self == .jpeg ? "preview.jpg" : "preview.heic" }
    }

    static func kind(_ name: String) -> Kind? {
        switch (name as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return .jpeg
        case "heic", "heif", "hif": return .heif
        default: return nil
        }
    }

    /// Names a preview can come from.
    static func canHavePreview(_ name: String) -> Bool { kind(name) != nil }

    /// Reads the head of `url` and writes its embedded thumbnail into `directory`; nil when there is none.
    static func read(_ url: URL, size: UInt64?, client: RemoteHTTPClient, directory: String,
                     limits: ParseLimits) async -> RemotePreview? {
        guard let kind = kind(url.lastPathComponent),
              let source = LibrarySourceTable.source(for: url, client: client),
              // try?: a head that cannot be fetched means no preview; the still's own download reports the reason.
              let head = try? await source.fetch(url, range: .bytes(first: 0, last: headBytes - 1), maxBytes: Int(headBytes))
        else { return nil }
        let end = head.bodyOffset + UInt64(head.body.count)
        let bytes = SparseByteSource(size: max(head.totalSize ?? size ?? end, end))
        bytes.add(head.body, at: head.bodyOffset)
        var fetched = UInt64(head.body.count)
        var stillInfo = MediaProbe.probe(bytes, limits: limits)
        if kind == .jpeg {
            guard let range = stillInfo.exifThumbnail, range.length > 3, range.length <= 1 << 20,
                  range.offset >= head.bodyOffset, range.offset + range.length <= end else { return nil }
        }
        // One round for what the parser wanted beyond the head (a Samsung trailer's last 8 bytes, the box after
        // a HEIC's mdat, say), so that a still that is more than a picture is known as such: small pieces only,
        // each a range with a start. A JPEG with XMP is fetched anyway (it may hold a Motion Photo's movie):
        // nothing more to learn there.
        // Overlapping pieces (the Samsung trailer's last 8 bytes inside the end-of-image check's last 64) are
        // asked once.
        let wanted = Self.coalesced(bytes.misses)
        if !(kind == .jpeg && stillInfo.hasXMP), !wanted.isEmpty, wanted.count <= 2,
           wanted.allSatisfy({ $0.length <= 64 << 10 && $0.length > 0 }) {
            bytes.clearMisses()
            for miss in wanted {
                fetched += await fetchPiece(url, miss, source: source, into: bytes)
            }
            stillInfo = MediaProbe.probe(bytes, limits: limits)
        }
        // A lone still of this kind needs no other byte for a grid cell: a JPEG without XMP, a HEIC without
        // a Motion Photo's movie, and nothing the parser wanted left unread.
        let replacesStill = bytes.misses.isEmpty && (kind == .jpeg ? !stillInfo.hasXMP : stillInfo.embeddedMovie == nil)
        let file: [UInt8]
        switch kind {
        case .jpeg:
            guard let range = stillInfo.exifThumbnail,
                  let thumbnail = try? bytes.readExactly(at: range.offset, count: Int(range.length)),   // try?: checked in the head above
                  thumbnail.count > 3, thumbnail[0] == 0xFF, thumbnail[1] == 0xD8 else { return nil }
            file = thumbnail
        case .heif:
            guard let (thumbnail, more) = await heifThumbnail(url, source: source, bytes: bytes, limits: limits) else { return nil }
            file = thumbnail
            fetched += more
        }
        let path = directory + "/" + kind.fileName
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try AtomicFileWriter.write(file, to: path)
            var info = try MediaProbe.probe(path: path, limits: limits)
            // IFD1 is stored like the main picture; a HEIF item carries its own irot/imir (copied with it).
            if kind == .jpeg { info.orientation = stillInfo.orientation }
            return RemotePreview(path: path, info: info, bytesFetched: fetched, replacesStill: replacesStill)
        } catch {
            return nil   // a preview that cannot be kept: the still is fetched as before
        }
    }

    /// The largest HEVC thumbnail item of the primary image as a one-image HEIF file, with the bytes fetched
    /// beyond the head for it (one range, when the item ends past the head); nil when there is none.
    private static func heifThumbnail(_ url: URL, source: any LibrarySource, bytes: SparseByteSource,
                                      limits: ParseLimits) async -> (file: [UInt8], fetched: UInt64)? {
        // try?: a head whose meta cannot be read has no usable thumbnail; the still is fetched and reports it.
        guard let meta = try? HEIFMeta.load(from: bytes, limits: limits), let primary = meta.primaryItemID else { return nil }
        let candidates = meta.items(referring: "thmb", to: primary).prefix(64).compactMap { id -> (UInt32, Int)? in
            guard meta.item(id)?.type == "hvc1", let size = meta.spatialExtent(of: id) else { return nil }
            return (id, size.width * size.height)
        }
        guard let thumbnail = candidates.max(by: { $0.1 < $1.1 })?.0,
              // try?: an item whose extents lie outside the file is no thumbnail to draw.
              let extents = try? meta.fileExtents(of: thumbnail, fileSize: bytes.size), !extents.isEmpty,
              let first = extents.map(\.offset).min(), let last = extents.map({ $0.offset + $0.length }).max(),
              last - first <= maxHEIFThumbnailBytes else { return nil }
        var fetched: UInt64 = 0
        let known = bytes.knownRanges
        if !extents.allSatisfy({ extent in known.contains { $0.offset <= extent.offset && extent.offset + extent.length <= $0.offset + $0.length } }) {
            fetched = await fetchPiece(url, ByteRange(offset: first, length: last - first), source: source, into: bytes)
        }
        // try?: bytes still missing (the piece could not be fetched) or a broken item: no preview.
        guard let file = try? HEIFSingleImageFile.make(itemID: thumbnail, of: meta, source: bytes, limits: limits) else { return nil }
        return (file, fetched)
    }

    /// Fetches `range` into `bytes`; the bytes that came, 0 when it could not be fetched (its reads then miss).
    private static func fetchPiece(_ url: URL, _ range: ByteRange, source: any LibrarySource,
                                   into bytes: SparseByteSource) async -> UInt64 {
        // try?: a piece that cannot be fetched leaves its miss, and the still is fetched as before.
        guard let piece = try? await source.fetch(url, range: .bytes(first: range.offset, last: range.offset + range.length - 1),
                                                  maxBytes: Int(range.length)) else { return 0 }
        bytes.add(piece.body, at: piece.bodyOffset)
        return UInt64(piece.body.count)
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
