import Foundation
import LibraryCore
import LibrarySources
import MediaFormats

extension RemotePreview {
    /// Whether a still of this name can have a preview (`RemotePreviewReader.canHavePreview`).
    public static func canExist(forName name: String) -> Bool { RemotePreviewReader.canHavePreview(name) }
}

enum RemotePreviewReader {
    /// The first read: SOI, APP0, Exif's TIFF header, IFD0 and (in most files) IFD1, and, in a file whose Exif
    /// segment holds nothing but a 160x120 thumbnail (4.3-4.6 KB), that whole segment and the marker after
    /// it: one request. The rest of the thumbnail's own range is read next; a file whose IFD1 lies further
    /// costs one small read more. The bytes spent are max(head, the thumbnail's end): a bigger head wastes
    /// bytes on small thumbnails (8 KiB was 1.9x a 4,265-byte one), a smaller one costs a request more for them.
    static let headBytes: UInt64 = 5 << 10
    /// The thumbnail's read goes on to the segment after Exif's (its marker and signature: whether XMP
    /// follows) when that is at most this much further: one request instead of two.
    static let followingReach: UInt64 = 1 << 10
    /// Pieces asked for when the walk needs bytes it lacks (an IFD beyond the head, the segment after Exif's).
    static let pieceBytes: UInt64 = 512
    /// Reads of pieces before giving up on a file (the still is then fetched as before).
    static let maxPieces = 3

    /// A HEIC's head: its `meta` comes first, and an iPhone's thumbnail item ends some 30 KB in.
    static let heifHeadBytes: UInt64 = 68 << 10
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

    /// A preview read so far, with what the check of the rest of its file needs.
    struct Found: Sendable {
        var preview: RemotePreview
        var url: URL
        var exifEnd: UInt64
        var xmpBefore: Bool
        var bytes: SparseByteSource
    }

    /// Reads the head of `url`, then the thumbnail's own range, and writes the thumbnail into `directory`;
    /// nil when there is none. A JPEG's `replacesStill` is left unknown (`check` decides it); a HEIC's is
    /// known from its head.
    static func read(_ url: URL, size: UInt64?, client: RemoteHTTPClient, directory: String,
                     limits: ParseLimits) async -> Found? {
        guard let kind = kind(url.lastPathComponent) else { return nil }
        if kind == .heif { return await readHEIF(url, size: size, client: client, directory: directory, limits: limits) }
        let path = directory + "/" + Kind.jpeg.fileName
        guard let source = LibrarySourceTable.source(for: url, client: client),
              // try?: a head that cannot be fetched means no preview; the still's own download reports the reason.
              let head = try? await source.fetch(url, range: .bytes(first: 0, last: headBytes - 1), maxBytes: Int(headBytes))
        else { return nil }
        let end = head.bodyOffset + UInt64(head.body.count)
        let bytes = SparseByteSource(size: max(head.totalSize ?? size ?? end, end))
        bytes.add(head.body, at: head.bodyOffset)
        var fetched = UInt64(head.body.count)
        var location: ExifThumbnailLocator.Location?
        for _ in 0...maxPieces {
            switch ExifThumbnailLocator.locate(bytes) {
            case .found(let found):
                location = found
            case .none:
                return nil
            case .missing(let range):
                guard let piece = await fetch(range, minimum: pieceBytes, of: url, source: source, into: bytes) else { return nil }
                fetched += piece
                continue
            }
            break
        }
        guard let location else { return nil }
        // The thumbnail's bytes not already here (usually all but what the head held), in one range.
        let known = bytes.knownRanges.first { $0.offset <= location.thumbnail.offset && $0.offset + $0.length > location.thumbnail.offset }
        let knownEnd = known.map { $0.offset + $0.length } ?? location.thumbnail.offset
        let thumbnailEnd = location.thumbnail.offset + location.thumbnail.length
        let following = min(location.exifEnd + 64, bytes.size)
        let readEnd = following >= thumbnailEnd && following - thumbnailEnd <= followingReach ? following : thumbnailEnd
        if knownEnd < thumbnailEnd {
            guard let piece = await fetch(ByteRange(offset: knownEnd, length: readEnd - knownEnd), minimum: 0, of: url,
                                          source: source, into: bytes) else { return nil }
            fetched += piece
        }
        // try?: bytes that did not come (a short answer) mean no preview; the still is fetched as before.
        guard let thumbnail = try? bytes.readExactly(at: location.thumbnail.offset, count: Int(location.thumbnail.length)),
              thumbnail[0] == 0xFF, thumbnail[1] == 0xD8 else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try AtomicFileWriter.write(thumbnail, to: path)
            var info = try MediaProbe.probe(path: path, limits: limits)
            info.orientation = location.orientation
            return Found(preview: RemotePreview(path: path, info: info, bytesFetched: fetched, replacesStill: nil), url: url,
                         exifEnd: location.exifEnd, xmpBefore: location.xmpBefore, bytes: bytes)
        } catch {
            return nil   // a preview that cannot be kept: the still is fetched as before
        }
    }

    /// Whether the preview replaces the still: no XMP among the segments after Exif's (a few bytes at its end)
    /// and no Samsung trailer (the file's last 8 bytes). Anything unread or unusual keeps the still.
    static func check(_ found: Found, client: RemoteHTTPClient) async -> RemotePreview {
        if found.preview.replacesStill != nil { return found.preview }   // decided when read (a HEIC's)
        guard !found.xmpBefore, let source = LibrarySourceTable.source(for: found.url, client: client) else {
            return found.preview.checked(replacesStill: false, moreBytes: 0)
        }
        var fetched: UInt64 = 0
        var xmp: Bool?
        for _ in 0...maxPieces {
            switch ExifThumbnailLocator.xmpFollows(found.bytes, from: found.exifEnd) {
            case .xmp(let follows):
                xmp = follows
            case .missing(let range):
                // Only a segment's header and signature are read: 64 bytes hold both.
                guard let piece = await fetch(range, minimum: 64, of: found.url, source: source, into: found.bytes) else { break }
                fetched += piece
                continue
            }
            break
        }
        guard xmp == false else { return found.preview.checked(replacesStill: false, moreBytes: fetched) }
        let size = found.bytes.size
        guard size >= 8,
              // try?: an end that cannot be read keeps the still (it may hold a trailer).
              let end = try? await source.fetch(found.url, range: .bytes(first: size - 8, last: size - 1), maxBytes: 8),
              end.body.count == 8 else {
            return found.preview.checked(replacesStill: false, moreBytes: fetched)
        }
        fetched += 8
        let samsungTrailer = end.body.suffix(4).elementsEqual("SEFT".utf8)
        return found.preview.checked(replacesStill: !samsungTrailer, moreBytes: fetched)
    }

    /// Fetches `range` (widened to `minimum` bytes, within the file) into `bytes`; the bytes received, nil on failure.
    private static func fetch(_ range: ByteRange, minimum: UInt64, of url: URL, source: any LibrarySource,
                              into bytes: SparseByteSource) async -> UInt64? {
        let length = min(max(range.length, minimum), bytes.size - min(range.offset, bytes.size))
        guard length > 0,
              // try?: a piece that cannot be fetched ends the preview; the still is fetched as before.
              let piece = try? await source.fetch(url, range: .bytes(first: range.offset, last: range.offset + length - 1),
                                                  maxBytes: Int(length)),
              !piece.body.isEmpty else { return nil }
        bytes.add(piece.body, at: piece.bodyOffset)
        return UInt64(piece.body.count)
    }

    /// A HEIC's preview: its head (meta, and the thumbnail item when it lies there), one round for what the
    /// parser wanted beyond it, then the item as a one-image HEIF file. Whether it replaces the still (no
    /// Motion Photo's movie, nothing left unread) is known at once.
    private static func readHEIF(_ url: URL, size: UInt64?, client: RemoteHTTPClient, directory: String,
                                 limits: ParseLimits) async -> Found? {
        guard let source = LibrarySourceTable.source(for: url, client: client),
              // try?: a head that cannot be fetched means no preview; the still's own download reports the reason.
              let head = try? await source.fetch(url, range: .bytes(first: 0, last: heifHeadBytes - 1), maxBytes: Int(heifHeadBytes))
        else { return nil }
        let end = head.bodyOffset + UInt64(head.body.count)
        let bytes = SparseByteSource(size: max(head.totalSize ?? size ?? end, end))
        bytes.add(head.body, at: head.bodyOffset)
        var fetched = UInt64(head.body.count)
        var stillInfo = MediaProbe.probe(bytes, limits: limits)
        // One round for what the parser wanted beyond the head (the box after a HEIC's mdat, say), so that a
        // still that is more than a picture is known as such: small pieces only, overlapping ones asked once.
        let wanted = Self.coalesced(bytes.misses)
        if !wanted.isEmpty, wanted.count <= 2, wanted.allSatisfy({ $0.length <= 64 << 10 && $0.length > 0 }) {
            bytes.clearMisses()
            for miss in wanted { fetched += await fetch(miss, minimum: 0, of: url, source: source, into: bytes) ?? 0 }
            stillInfo = MediaProbe.probe(bytes, limits: limits)
        }
        let replacesStill = bytes.misses.isEmpty && stillInfo.embeddedMovie == nil
        guard let (file, more) = await heifThumbnail(url, source: source, bytes: bytes, limits: limits) else { return nil }
        fetched += more
        let path = directory + "/" + Kind.heif.fileName
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try AtomicFileWriter.write(file, to: path)
            // A HEIF item carries its own irot/imir (copied with it).
            let info = try MediaProbe.probe(path: path, limits: limits)
            return Found(preview: RemotePreview(path: path, info: info, bytesFetched: fetched, replacesStill: replacesStill),
                         url: url, exifEnd: 0, xmpBefore: false, bytes: bytes)
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
            fetched = await fetch(ByteRange(offset: first, length: last - first), minimum: 0, of: url, source: source, into: bytes) ?? 0
        }
        // try?: bytes still missing (the piece could not be fetched) or a broken item: no preview.
        guard let file = try? HEIFSingleImageFile.make(itemID: thumbnail, of: meta, source: bytes, limits: limits) else { return nil }
        return (file, fetched)
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
