/// One `trak` of a QuickTime/MP4 movie, as far as probing needs it.
public struct QuickTimeTrack: Sendable {
    public struct SampleEntry: Sendable, Hashable {
        /// `avc1`, `hvc1`, `mp4a`, `lpcm`, `mebx`...
        public var format: String
        /// Visual sample entries only.
        public var width: Int?
        public var height: Int?
        /// `mebx` entries: local key id → key value (namespace `mdta`), e.g. `com.apple.quicktime.still-image-time`.
        public var metadataKeys: [UInt32: String] = [:]
    }

    public var box: ISOBox
    public var trackID: UInt32?
    /// tkhd flags bit 0.
    public var enabled = true
    /// tkhd duration, in the movie timescale.
    public var duration: UInt64?
    /// tkhd width/height (16.16 fixed point, rounded).
    public var width: Int?
    public var height: Int?
    /// tkhd display matrix a, b, u, c, d, v, x, y, w (a..d and x, y are 16.16; u, v, w are 2.30).
    public var matrix: [Int32] = []
    /// `vide`, `soun`, `meta`...
    public var handlerType: String?
    public var mediaTimescale: UInt32?
    public var mediaDuration: UInt64?
    public var sampleEntries: [SampleEntry] = []
    public var editList: QuickTimeEditList?
    public var sampleTable: QuickTimeSampleTable?

    public var isVideo: Bool { handlerType == "vide" }
    public var isAudio: Bool { handlerType == "soun" }

    /// Clockwise rotation (0, 90, 180, 270) and horizontal mirror from the display matrix; nil when the
    /// matrix is not a multiple of 90 degrees. In QuickTime's row-vector convention x' = a·x + c·y, so
    /// a = 0, b = 1, c = -1, d = 0 turns "right" into "down" on screen: 90 degrees clockwise.
    public var displayRotation: (degrees: Int, mirrored: Bool)? {
        guard matrix.count == 9 else { return nil }
        return Self.displayRotation(a: matrix[0], b: matrix[1], c: matrix[3], d: matrix[4])
    }

    /// `displayRotation` from the matrix's a, b, c and d (the probe-only walk keeps no matrix).
    static func displayRotation(a ma: Int32, b mb: Int32, c mc: Int32, d md: Int32) -> (degrees: Int, mirrored: Bool)? {
        var a = Double(ma), b = Double(mb)
        let c = Double(mc), d = Double(md)
        let mirrored = a * d - b * c < 0
        // A mirrored matrix is a flip of x followed by a rotation: undo the flip to read the rotation.
        if mirrored { a = -a; b = -b }
        let degrees: Int
        switch (sign(a), sign(b)) {
        case (1, 0): degrees = 0
        case (0, 1): degrees = 90
        case (-1, 0): degrees = 180
        case (0, -1): degrees = 270
        default: return nil
        }
        return (degrees, mirrored)
    }

    private static func sign(_ v: Double) -> Int { v > 0 ? 1 : v < 0 ? -1 : 0 }

    /// Media duration in seconds (what the samples span, before the edit list).
    public var mediaDurationSeconds: Double? {
        guard let scale = mediaTimescale, scale > 0 else { return nil }
        if let table = sampleTable, table.totalDuration > 0 { return Double(table.totalDuration) / Double(scale) }
        guard let duration = mediaDuration, duration > 0 else { return nil }
        return Double(duration) / Double(scale)
    }

    /// Presentation time (seconds, in the movie) of sample `index`, after its composition offset and the edit list.
    public func presentationTime(ofSample index: UInt64, movieTimescale: UInt32) -> Double? {
        guard let scale = mediaTimescale, scale > 0, let table = sampleTable,
              let decode = table.decodeTime(ofSample: index) else { return nil }
        let composition = index == 0 ? table.firstCompositionOffset ?? 0 : 0
        let (mediaTime, overflow) = Int64(clamping: decode).addingReportingOverflow(composition)
        guard !overflow else { return nil }
        guard let edits = editList, !edits.entries.isEmpty else { return Double(mediaTime) / Double(scale) }
        return edits.movieTime(ofMediaTime: mediaTime, mediaTimescale: scale, movieTimescale: movieTimescale)
    }
}
