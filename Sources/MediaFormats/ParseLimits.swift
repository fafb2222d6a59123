/// Explicit bounds for every parser: loops and 2^32 counts are the classic crashes.
public struct ParseLimits: Sendable {
    /// Deepest nesting of ISO BMFF boxes or TIFF sub-IFDs.
    public var maxDepth = 16
    /// Children of one box, entries of one IFD, items in iinf/iloc.
    public var maxEntries = 4096
    /// Largest single structure read into memory (moov, meta, an Exif block, XMP).
    public var maxStructureBytes = 64 << 20
    /// Samples in one track's tables.
    public var maxSamples = 1 << 22
    /// Bytes read from the start of a still to find its metadata: one small read covers Exif (at most 64 KiB
    /// by the JPEG segment limit) in the common case; segments beyond it are read on demand.
    public var headerProbeBytes = 64 << 10
    /// Bytes read from the end of a file to find trailers (Samsung SEF).
    public var trailerProbeBytes = 8 << 10

    public init() {}
    public static let `default` = ParseLimits()
}
