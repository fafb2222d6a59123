/// What the TIFF/Exif reader extracts; shared by JPEG (APP1) and HEIF (Exif item).
public struct ExifSummary: Sendable, Hashable {
    public var orientation: Int?
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var cameraMake: String?
    public var cameraModel: String?
    public var captureDate: String?
    public var hasGPS = false
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
        info.cameraMake = info.cameraMake ?? cameraMake
        info.cameraModel = info.cameraModel ?? cameraModel
        info.captureDate = info.captureDate ?? captureDate
        info.hasGPS = info.hasGPS || hasGPS
        if info.contentIdentifier == nil, let id = contentIdentifier {
            info.contentIdentifier = id
            info.contentIdentifierSource = "apple-makernote"
        }
        info.livePhotoVideoIndex = info.livePhotoVideoIndex ?? livePhotoVideoIndex
        info.exifThumbnail = info.exifThumbnail ?? thumbnail
        info.problems += problems
    }
}

/// TIFF/Exif reader. (Stub: implemented by the JPEG/TIFF/XMP work.)
public enum ExifReader {
    /// Parses a TIFF structure (starting at "II*\0"/"MM\0*") located at `fileOffset` in the file.
    public static func parse(tiff: [UInt8], fileOffset: UInt64, limits: ParseLimits = .default) -> ExifSummary {
        ExifSummary()
    }
}

/// What the XMP reader extracts. Shared by JPEG and HEIF.
public struct XMPSummary: Sendable, Hashable {
    public var motionPhoto = false
    public var motionPhotoVersion: Int?
    public var presentationTimestampUs: Int64?
    /// Container:Directory items in order (Mime, Semantic, Length, Padding).
    public var directory: [XMPContainerItem] = []
    public var microVideo = false
    public var microVideoOffset: UInt64?
    public var microVideoPresentationTimestampUs: Int64?
    /// Fallback identifier (e.g. `apple-fi:ContentIdentifier` or `xmp:ContentIdentifier`-style).
    public var contentIdentifier: String?
    public var orientation: Int?
    public var rating: Int?
    public var problems: [ParseProblem] = []
    public init() {}
}

public struct XMPContainerItem: Sendable, Hashable, Codable {
    public var mime: String
    public var semantic: String
    public var length: UInt64
    public var padding: UInt64
    public init(mime: String, semantic: String, length: UInt64, padding: UInt64) {
        self.mime = mime
        self.semantic = semantic
        self.length = length
        self.padding = padding
    }
}

/// XMP packet reader. (Stub: implemented by the JPEG/TIFF/XMP work.)
public enum XMPReader {
    public static func parse(_ packet: [UInt8], limits: ParseLimits = .default) -> XMPSummary {
        XMPSummary()
    }
}
