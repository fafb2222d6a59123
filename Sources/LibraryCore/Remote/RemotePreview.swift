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
    /// Nothing in the file hints at more than a picture (no XMP, which a Motion Photo's movie needs, and no
    /// Samsung trailer at its end): a lone still of this kind needs no other byte for a grid cell. When false,
    /// the still is fetched as before and the preview only comes first. nil while that is being checked (after
    /// the preview is shown: the check costs requests the first paint does not wait for).
    public let replacesStill: Bool?

    public init(path: String, info: MediaInfo, bytesFetched: UInt64, replacesStill: Bool?) {
        self.path = path
        self.info = info
        self.bytesFetched = bytesFetched
        self.replacesStill = replacesStill
    }

    /// The same preview once the rest of the file was checked, with the bytes that cost.
    public func checked(replacesStill: Bool, moreBytes: UInt64) -> RemotePreview {
        RemotePreview(path: path, info: info, bytesFetched: bytesFetched + moreBytes, replacesStill: replacesStill)
    }

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
