/// Explicit bounds for every parser: loops and 2^32 counts are the classic crashes.
public struct ParseLimits: Sendable, Equatable {
    /// Deepest nesting of ISO BMFF boxes or TIFF sub-IFDs.
    public var maxDepth = 16
    /// Children of one box, entries of one IFD, items in iinf/iloc.
    public var maxEntries = 4096
    /// Largest single structure read into memory (moov, meta, an Exif block, XMP).
    public var maxStructureBytes = 64 << 20
    /// Samples in one track's tables.
    public var maxSamples = 1 << 22
    /// Bytes read from the start of a file in one read, shared by the sniff and the parser: camera JPEGs end
    /// their metadata before 15 KB and HEIF meta boxes are a few KB, so a still costs one small read in the
    /// common case; JPEG segments beyond it are read on demand.
    public var headerProbeBytes = 16 << 10
    /// Bytes read from the end of a file to find trailers (Samsung SEF).
    public var trailerProbeBytes = 8 << 10

    public init() {}
    public static let `default` = ParseLimits()
}
