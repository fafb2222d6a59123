/// What a file is, as far as its container says; the pure core's only output type.
public enum ContainerFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, heif, quickTime, mp4, png, gif, webp, tiff, bmp, unknown

    public var isStillImage: Bool {
        switch self {
        case .jpeg, .heif, .png, .gif, .webp, .tiff, .bmp: return true
        case .quickTime, .mp4, .unknown: return false
        }
    }
    public var isMovie: Bool { self == .quickTime || self == .mp4 }
}

/// How a movie is carried inside a still (a Motion Photo).
public enum EmbeddedMovieKind: String, Sendable, Codable {
    /// Google Motion Photo 1.0: XMP `Camera:MotionPhoto` + `Container:Directory`.
    case googleMotionPhoto
    /// Legacy Google `GCamera:MicroVideo` with `MicroVideoOffset` counted from the end.
    case microVideo
    /// Samsung SEF trailer entry `MotionPhoto_Data`.
    case samsungTrailer
    /// Top-level `mpvd` box of a (Samsung/Google) HEIC.
    case heifMpvd
}

public struct EmbeddedMovie: Sendable, Hashable, Codable {
    public var kind: EmbeddedMovieKind
    /// Where the MP4 lies in the still file; already checked to start with an `ftyp` box.
    public var range: ByteRange
    /// `MotionPhotoPresentationTimestampUs` / `MicroVideoPresentationTimestampUs`, when given (-1 = none).
    public var presentationTimestampUs: Int64?
    public init(kind: EmbeddedMovieKind, range: ByteRange, presentationTimestampUs: Int64? = nil) {
        self.kind = kind
        self.range = range
        self.presentationTimestampUs = presentationTimestampUs
    }
}

/// An unsigned Exif RATIONAL (numerator / denominator), kept exact.
public struct ExifRational: Sendable, Hashable, Codable {
    public var numerator: UInt32
    public var denominator: UInt32
    public init(_ numerator: UInt32, _ denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }
    /// nil for 0/0-style values cameras write for "unknown".
    public var value: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }
}

/// Metadata of one file, read from its bytes; missing values are nil, never guessed.
public struct MediaInfo: Sendable, Hashable, Codable {
    public var format: ContainerFormat
    /// Stored pixel size (before Exif orientation or a movie's display matrix is applied).
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// Exif Orientation 1...8 (stills).
    public var orientation: Int?
    /// Clockwise rotation in degrees (0, 90, 180, 270) from a movie's display matrix, or HEIF irot.
    public var rotation: Int?
    /// Horizontal mirror (HEIF imir, or a display matrix with negative determinant).
    public var mirrored: Bool?

    /// Live Photo pairing key: Apple MakerNote 0x0011 in stills, `com.apple.quicktime.content.identifier`
    /// in movies (or an XMP fallback). Upper-cased as Apple writes it.
    public var contentIdentifier: String?
    /// Where the identifier came from: "apple-makernote", "quicktime-mdta", "xmp".
    public var contentIdentifierSource: String?
    /// Apple MakerNote 0x0017 LivePhotoVideoIndex (raw value).
    public var livePhotoVideoIndex: UInt64?

    public var cameraMake: String?
    public var cameraModel: String?
    /// Capture time as written ("2021:05:02 12:34:56" Exif or ISO 8601 from QuickTime), no zone guessing.
    public var captureDate: String?
    /// Exif OffsetTimeOriginal (or OffsetTime): the capture time's zone as written, "+01:00".
    public var captureTimeZone: String?
    /// True when the file carries a position. The coordinates themselves are never kept here (see
    /// `LocationReader`, which reads them only when the user asks).
    public var hasGPS: Bool = false

    // MARK: exposure (Exif)
    public var lensMake: String?
    public var lensModel: String?
    /// ExposureTime as a fraction of seconds (1/801 is 1 over 801).
    public var exposureTime: ExifRational?
    public var fNumber: ExifRational?
    /// PhotographicSensitivity (ISO).
    public var iso: Int?
    public var focalLength: ExifRational?
    public var focalLengthIn35mm: Int?

    // MARK: movies
    public var duration: Double?
    public var videoCodec: String?
    public var audioCodec: String?
    public var frameCount: Int?
    /// Average frames per second of the video track.
    public var frameRate: Double?
    /// Presentation time (seconds, after the edit list) of the `com.apple.quicktime.still-image-time` sample.
    public var stillImageTime: Double?
    /// `com.apple.quicktime.live-photo.vitality-score`, when present.
    public var vitalityScore: Double?

    // MARK: stills
    /// JPEG thumbnail in Exif IFD1, as a range of the file.
    public var exifThumbnail: ByteRange?
    /// HEIF thumbnail item size, when the file has one.
    public var thumbnailWidth: Int?
    public var thumbnailHeight: Int?
    /// A Motion Photo's movie.
    public var embeddedMovie: EmbeddedMovie?
    public var hasXMP: Bool = false

    public var problems: [ParseProblem] = []

    public init(format: ContainerFormat) {
        self.format = format
    }

    /// Size as displayed: width and height swapped for orientations 5-8 or a 90/270 rotation.
    public var displaySize: (width: Int, height: Int)? {
        guard let w = pixelWidth, let h = pixelHeight else { return nil }
        let swaps = (orientation.map { $0 >= 5 && $0 <= 8 } ?? false) || rotation == 90 || rotation == 270
        return swaps ? (h, w) : (w, h)
    }
}
