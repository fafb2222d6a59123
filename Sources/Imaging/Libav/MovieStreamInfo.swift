/// What a movie's video stream is, read once when it is opened.
public struct MovieStreamInfo: Sendable, Equatable {
    /// libavformat's demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    public var containerFormat: String
    /// libavcodec's codec name, e.g. "h264", "hevc".
    public var codecName: String
    /// Index of the decoded stream in the container.
    public var streamIndex: Int
    /// Size of the coded pictures, before rotation.
    public var codedSize: PixelSize
    /// Pixel aspect ratio (1 for square pixels).
    public var sampleAspectRatio: Double
    /// Anticlockwise rotation from the display matrix, as `av_display_rotation_get` reports it (ffprobe's
    /// "rotation"): -90 means the picture must be turned 90° clockwise to be upright. 0 without a matrix.
    public var rotation: Double
    /// The display transform as an Exif orientation (1...8), flips included; what `MovieDecoder` applies.
    public var orientation: Int
    /// Upright size for display: coded size with square pixels, after rotation.
    public var displaySize: PixelSize
    /// Length of the video stream in seconds (after the edit list), when known.
    public var duration: Double?
    /// Stream time base as a fraction of a second.
    public var timeBase: Fraction
    /// Average frame rate in frames per second, when known.
    public var averageFrameRate: Double?
    /// Frame count stored in the container (`nb_frames`), when known.
    public var frameCount: Int?
}

/// A fraction such as a time base (1/600) or a frame rate (30000/1001).
public struct Fraction: Sendable, Hashable, CustomStringConvertible {
    public var numerator: Int32
    public var denominator: Int32
    public init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }
    public var value: Double? { denominator != 0 ? Double(numerator) / Double(denominator) : nil }
    public var description: String { "\(numerator)/\(denominator)" }
}

/// One decoded video frame, scaled and turned upright.
public struct DecodedFrame: Sendable {
    /// Upright RGBA pixels at the requested size.
    public var pixels: PixelFrame
    /// Presentation time in seconds from the start of the movie (after the edit list).
    public var pts: Double
    /// How long the frame is shown, in seconds (from the container; the average frame interval if unknown).
    public var duration: Double
    /// Index in presentation order since the decoder was opened or last seeked.
    public var index: Int

    public init(pixels: PixelFrame, pts: Double, duration: Double, index: Int) {
        self.pixels = pixels
        self.pts = pts
        self.duration = duration
        self.index = index
    }
}
