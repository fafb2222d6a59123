/// What the TIFF/Exif reader extracts; shared by JPEG (APP1) and HEIF (Exif item).
public struct ExifSummary: Sendable, Hashable {
    public var orientation: Int?
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var cameraMake: String?
    public var cameraModel: String?
    public var captureDate: String?
    public var captureTimeZone: String?
    public var hasGPS = false
    /// The position, for `LocationReader` only: `apply(to:)` never copies it into `MediaInfo`.
    public var location: GeoLocation?
    public var lensMake: String?
    public var lensModel: String?
    public var exposureTime: ExifRational?
    public var fNumber: ExifRational?
    public var iso: Int?
    public var focalLength: ExifRational?
    public var focalLengthIn35mm: Int?
    /// Apple MakerNote 0x0011.
    public var contentIdentifier: String?
    /// Apple MakerNote 0x0017.
    public var livePhotoVideoIndex: UInt64?
    /// IFD1 JPEG thumbnail, in file offsets.
    public var thumbnail: ByteRange?
    public var problems: [ParseProblem] = []
    public init() {}

    /// Copies what is known into `info` (without overwriting values a container already set).
    public func apply(to info: inout MediaInfo) {
        if info.orientation == nil { info.orientation = orientation }
        if info.pixelWidth == nil { info.pixelWidth = pixelWidth }
        if info.pixelHeight == nil { info.pixelHeight = pixelHeight }
        info.captureDate = info.captureDate ?? captureDate
        info.hasGPS = info.hasGPS || hasGPS
        let identifierSource = info.contentIdentifier == nil && contentIdentifier != nil ? "apple-makernote" : nil
        info.updateNames { names in
            names.cameraMake = names.cameraMake ?? cameraMake
            names.cameraModel = names.cameraModel ?? cameraModel
            names.captureTimeZone = names.captureTimeZone ?? captureTimeZone
            names.lensMake = names.lensMake ?? lensMake
            names.lensModel = names.lensModel ?? lensModel
            if let identifierSource { names.contentIdentifierSource = identifierSource }
        }
        info.exposureTime = info.exposureTime ?? exposureTime
        info.fNumber = info.fNumber ?? fNumber
        info.iso = info.iso ?? iso
        info.focalLength = info.focalLength ?? focalLength
        info.focalLengthIn35mm = info.focalLengthIn35mm ?? focalLengthIn35mm
        if info.contentIdentifier == nil, let id = contentIdentifier {
            info.contentIdentifier = id
        }
        info.livePhotoVideoIndex = info.livePhotoVideoIndex ?? livePhotoVideoIndex
        info.exifThumbnail = info.exifThumbnail ?? thumbnail
        info.problems += problems
    }
}
