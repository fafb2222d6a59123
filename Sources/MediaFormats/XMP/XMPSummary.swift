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
    /// `exif:GPSLatitude` / `exif:GPSLongitude` as written ("52,12.58N"): for `LocationReader` only.
    public var gpsLatitude: String?
    public var gpsLongitude: String?
    public var hasGPS: Bool { gpsLatitude != nil || gpsLongitude != nil }
    /// `xmpNote:HasExtendedXMP`: the GUID of the extended XMP chunks that belong to this packet.
    public var extendedXMPGUID: String?
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
