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
    /// Every field lives in one copy-on-write box: a MediaInfo is 8 bytes inline instead of about 540, so a
    /// library item (two files) copies with two retains where it moved a kilobyte (the pairer's sort and the
    /// browser's item arrays copied them all the time), and 100,000 items hold one copy of each file's facts.
    /// `Fields` is the former stored layout: its synthesized Codable keeps the JSON shape unchanged.
    struct Fields: Sendable, Hashable, Codable {
        var format: ContainerFormat
        var pixelWidth: Int? = nil
        var pixelHeight: Int? = nil
        var orientation: Int? = nil
        var rotation: Int? = nil
        var mirrored: Bool? = nil
        var contentIdentifier: String? = nil
        var contentIdentifierSource: String? = nil
        var livePhotoVideoIndex: UInt64? = nil
        var cameraMake: String? = nil
        var cameraModel: String? = nil
        var captureDate: String? = nil
        var captureTimeZone: String? = nil
        var hasGPS: Bool = false
        var lensMake: String? = nil
        var lensModel: String? = nil
        var exposureTime: ExifRational? = nil
        var fNumber: ExifRational? = nil
        var iso: Int? = nil
        var focalLength: ExifRational? = nil
        var focalLengthIn35mm: Int? = nil
        var duration: Double? = nil
        var videoCodec: String? = nil
        var audioCodec: String? = nil
        var frameCount: Int? = nil
        var frameRate: Double? = nil
        var stillImageTime: Double? = nil
        var vitalityScore: Double? = nil
        var exifThumbnail: ByteRange? = nil
        var thumbnailWidth: Int? = nil
        var thumbnailHeight: Int? = nil
        var embeddedMovie: EmbeddedMovie? = nil
        var hasXMP: Bool = false
        var problems: [ParseProblem] = []
    }

    /// Shared between copies; written only through `unique()`, which copies it first unless this value is
    /// its only owner, so a box another value or thread can see is never written.
    // unchecked: copy-on-write storage (not a C boundary): a shared box is never written, see `unique()`.
    private final class Box: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    private mutating func unique() -> Box {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
        return box
    }

    public static func == (a: MediaInfo, b: MediaInfo) -> Bool { a.box === b.box || a.box.fields == b.box.fields }
    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }
    public init(from decoder: any Decoder) throws { box = Box(try Fields(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try box.fields.encode(to: encoder) }
    public var format: ContainerFormat {
        get { box.fields.format }
        set { unique().fields.format = newValue }
    }
    /// Stored pixel size (before Exif orientation or a movie's display matrix is applied).
    public var pixelWidth: Int? {
        get { box.fields.pixelWidth }
        set { unique().fields.pixelWidth = newValue }
    }
    public var pixelHeight: Int? {
        get { box.fields.pixelHeight }
        set { unique().fields.pixelHeight = newValue }
    }
    /// Exif Orientation 1...8 (stills).
    public var orientation: Int? {
        get { box.fields.orientation }
        set { unique().fields.orientation = newValue }
    }
    /// Clockwise rotation in degrees (0, 90, 180, 270) from a movie's display matrix, or HEIF irot.
    public var rotation: Int? {
        get { box.fields.rotation }
        set { unique().fields.rotation = newValue }
    }
    /// Horizontal mirror (HEIF imir, or a display matrix with negative determinant).
    public var mirrored: Bool? {
        get { box.fields.mirrored }
        set { unique().fields.mirrored = newValue }
    }

    /// Live Photo pairing key: Apple MakerNote 0x0011 in stills, `com.apple.quicktime.content.identifier`
    /// in movies (or an XMP fallback). Upper-cased as Apple writes it.
    public var contentIdentifier: String? {
        get { box.fields.contentIdentifier }
        set { unique().fields.contentIdentifier = newValue }
    }
    /// Where the identifier came from: "apple-makernote", "quicktime-mdta", "xmp".
    public var contentIdentifierSource: String? {
        get { box.fields.contentIdentifierSource }
        set { unique().fields.contentIdentifierSource = newValue }
    }
    /// Apple MakerNote 0x0017 LivePhotoVideoIndex (raw value).
    public var livePhotoVideoIndex: UInt64? {
        get { box.fields.livePhotoVideoIndex }
        set { unique().fields.livePhotoVideoIndex = newValue }
    }

    public var cameraMake: String? {
        get { box.fields.cameraMake }
        set { unique().fields.cameraMake = newValue }
    }
    public var cameraModel: String? {
        get { box.fields.cameraModel }
        set { unique().fields.cameraModel = newValue }
    }
    /// Capture time as written ("2021:05:02 12:34:56" Exif or ISO 8601 from QuickTime), no zone guessing.
    public var captureDate: String? {
        get { box.fields.captureDate }
        set { unique().fields.captureDate = newValue }
    }
    /// Exif OffsetTimeOriginal (or OffsetTime): the capture time's zone as written, "+01:00".
    public var captureTimeZone: String? {
        get { box.fields.captureTimeZone }
        set { unique().fields.captureTimeZone = newValue }
    }
    /// True when the file carries a position. The coordinates themselves are never kept here (see
    /// `LocationReader`, which reads them only when the user asks).
    public var hasGPS: Bool {
        get { box.fields.hasGPS }
        set { unique().fields.hasGPS = newValue }
    }

    // MARK: exposure (Exif)
    public var lensMake: String? {
        get { box.fields.lensMake }
        set { unique().fields.lensMake = newValue }
    }
    public var lensModel: String? {
        get { box.fields.lensModel }
        set { unique().fields.lensModel = newValue }
    }
    /// ExposureTime as a fraction of seconds (1/801 is 1 over 801).
    public var exposureTime: ExifRational? {
        get { box.fields.exposureTime }
        set { unique().fields.exposureTime = newValue }
    }
    public var fNumber: ExifRational? {
        get { box.fields.fNumber }
        set { unique().fields.fNumber = newValue }
    }
    /// PhotographicSensitivity (ISO).
    public var iso: Int? {
        get { box.fields.iso }
        set { unique().fields.iso = newValue }
    }
    public var focalLength: ExifRational? {
        get { box.fields.focalLength }
        set { unique().fields.focalLength = newValue }
    }
    public var focalLengthIn35mm: Int? {
        get { box.fields.focalLengthIn35mm }
        set { unique().fields.focalLengthIn35mm = newValue }
    }

    // MARK: movies
    public var duration: Double? {
        get { box.fields.duration }
        set { unique().fields.duration = newValue }
    }
    public var videoCodec: String? {
        get { box.fields.videoCodec }
        set { unique().fields.videoCodec = newValue }
    }
    public var audioCodec: String? {
        get { box.fields.audioCodec }
        set { unique().fields.audioCodec = newValue }
    }
    public var frameCount: Int? {
        get { box.fields.frameCount }
        set { unique().fields.frameCount = newValue }
    }
    /// Average frames per second of the video track.
    public var frameRate: Double? {
        get { box.fields.frameRate }
        set { unique().fields.frameRate = newValue }
    }
    /// Presentation time (seconds, after the edit list) of the `com.apple.quicktime.still-image-time` sample.
    public var stillImageTime: Double? {
        get { box.fields.stillImageTime }
        set { unique().fields.stillImageTime = newValue }
    }
    /// `com.apple.quicktime.live-photo.vitality-score`, when present.
    public var vitalityScore: Double? {
        get { box.fields.vitalityScore }
        set { unique().fields.vitalityScore = newValue }
    }

    // MARK: stills
    /// JPEG thumbnail in Exif IFD1, as a range of the file.
    public var exifThumbnail: ByteRange? {
        get { box.fields.exifThumbnail }
        set { unique().fields.exifThumbnail = newValue }
    }
    /// HEIF thumbnail item size, when the file has one.
    public var thumbnailWidth: Int? {
        get { box.fields.thumbnailWidth }
        set { unique().fields.thumbnailWidth = newValue }
    }
    public var thumbnailHeight: Int? {
        get { box.fields.thumbnailHeight }
        set { unique().fields.thumbnailHeight = newValue }
    }
    /// A Motion Photo's movie.
    public var embeddedMovie: EmbeddedMovie? {
        get { box.fields.embeddedMovie }
        set { unique().fields.embeddedMovie = newValue }
    }
    public var hasXMP: Bool {
        get { box.fields.hasXMP }
        set { unique().fields.hasXMP = newValue }
    }

    public var problems: [ParseProblem] {
        get { box.fields.problems }
        set { unique().fields.problems = newValue }
    }

    public init(format: ContainerFormat) {
        box = Box(Fields(format: format))
    }

    /// Size as displayed: width and height swapped for orientations 5-8 or a 90/270 rotation.
    public var displaySize: (width: Int, height: Int)? {
        guard let w = pixelWidth, let h = pixelHeight else { return nil }
        let swaps = (orientation.map { $0 >= 5 && $0 <= 8 } ?? false) || rotation == 90 || rotation == 270
        return swaps ? (h, w) : (w, h)
    }
}
