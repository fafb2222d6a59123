/// How a picture was obtained; the benchmark and tests read it to prove the cheap path was taken.
public enum DecodePath: String, Sendable, Hashable {
    /// The JPEG thumbnail in Exif IFD1.
    case exifThumbnail
    /// The Exif IFD1 thumbnail with its black bars cut off (a 3:2 camera's 4:3 thumbnail, `LetterboxedThumbnail`).
    case exifThumbnailLetterboxed
    /// The JPEG decoded with a DCT scaling factor below 1 (1/2, 1/4, 1/8, ...).
    case jpegScaled
    /// A progressive JPEG at 1/8 scale from the scans that carry its DC coefficients (the rest left unread).
    case jpegFirstScans
    /// The JPEG decoded at full size.
    case jpegFull
    /// The HEIF primary image's thumbnail item.
    case heifThumbnail
    /// The HEIF primary image (all grid tiles).
    case heifPrimary
    /// Another format through libav.
    case libav

    /// A thumbnail the file carries (it may be smaller than what was asked, see `DecodeOptions`).
    public var isEmbeddedThumbnail: Bool { self == .exifThumbnail || self == .exifThumbnailLetterboxed || self == .heifThumbnail }
}

/// Knobs for benchmarks and tests; the defaults are what livegrid uses.
public struct DecodeOptions: Sendable, Hashable {
    /// Use an embedded thumbnail (Exif IFD1, HEIF thumbnail item) when it covers the requested size.
    public var useEmbeddedThumbnails: Bool
    /// Let libjpeg-turbo scale while decoding (IDCT at 1/2...1/8).
    public var useDCTScaling: Bool
    /// How much of the target an embedded thumbnail must cover in each dimension (1 = all of it). Terminal
    /// symbol rendering, which samples 8x8 pixels per cell, loses nothing at 0.9; thumbnails for files keep 1.
    public var embeddedThumbnailMinimumCoverage: Double
    /// The output cannot show more than the picture fitted into this box (symbol cells: a few colour samples
    /// per cell, see TerminalGraphics' `CellPictureResolution`): an embedded thumbnail at least that big
    /// serves whatever the target, used as it is (never enlarged). nil: only the coverage rule applies.
    public var embeddedThumbnailSufficientBox: PixelSize?
    public init(useEmbeddedThumbnails: Bool = true, useDCTScaling: Bool = true, embeddedThumbnailMinimumCoverage: Double = 1,
                embeddedThumbnailSufficientBox: PixelSize? = nil) {
        self.useEmbeddedThumbnails = useEmbeddedThumbnails
        self.useDCTScaling = useDCTScaling
        self.embeddedThumbnailMinimumCoverage = min(1, max(0.5, embeddedThumbnailMinimumCoverage))
        self.embeddedThumbnailSufficientBox = embeddedThumbnailSufficientBox
    }

    /// True when an embedded thumbnail of `thumbnail` pixels may stand in for a picture of `full` pixels
    /// fitted into `target` (both in the same orientation).
    public func embeddedThumbnail(_ thumbnail: PixelSize, serves target: PixelSize, of full: PixelSize) -> Bool {
        guard useEmbeddedThumbnails, thumbnail.hasAspectRatio(of: full) else { return false }
        if thumbnail.covers(target, coverage: embeddedThumbnailMinimumCoverage) { return true }
        guard let sufficient = embeddedThumbnailSufficientBox, !sufficient.isEmpty else { return false }
        return thumbnail.covers(full.fittedDown(in: sufficient))
    }
    public static let `default` = DecodeOptions()
    /// Always decode the whole image at full size (benchmark baseline).
    public static let fullDecode = DecodeOptions(useEmbeddedThumbnails: false, useDCTScaling: false)
}

/// An upright picture fitted into the requested box, and how it was made.
public struct DecodedImage: Sendable {
    public var frame: PixelFrame
    public var path: DecodePath
    /// Upright size of the whole picture (before fitting), when known.
    public var fullSize: PixelSize?
    /// Set when the file is damaged and the picture shows only what decoded (the rest grey): the grid
    /// marks the item "damaged" and the info panel says why. Other viewers draw such files too.
    public var damage: ImagingError?
    public init(frame: PixelFrame, path: DecodePath, fullSize: PixelSize?, damage: ImagingError? = nil) {
        self.frame = frame
        self.path = path
        self.fullSize = fullSize
        self.damage = damage
    }
}
