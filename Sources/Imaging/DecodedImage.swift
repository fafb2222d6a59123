/// How a picture was obtained; the benchmark and tests read it to prove the cheap path was taken.
public enum DecodePath: String, Sendable, Hashable {
    /// The JPEG thumbnail in Exif IFD1.
    case exifThumbnail
    /// The JPEG decoded with a DCT scaling factor below 1 (1/2, 1/4, 1/8, ...).
    case jpegScaled
    /// The JPEG decoded at full size.
    case jpegFull
    /// The HEIF primary image's thumbnail item.
    case heifThumbnail
    /// The HEIF primary image (all grid tiles).
    case heifPrimary
    /// Another format through libav.
    case libav
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
    public init(useEmbeddedThumbnails: Bool = true, useDCTScaling: Bool = true, embeddedThumbnailMinimumCoverage: Double = 1) {
        self.useEmbeddedThumbnails = useEmbeddedThumbnails
        self.useDCTScaling = useDCTScaling
        self.embeddedThumbnailMinimumCoverage = min(1, max(0.5, embeddedThumbnailMinimumCoverage))
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
