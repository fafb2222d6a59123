import Imaging

/// What a `MoviePlayer` decodes from: frames in presentation order, fitted inside a box, with the decoder
/// allowed to skip (decode without scaling) the frames the player already knows are late. `MovieDecoder`
/// (libav) is the real one; tests use frames they make, so the player's timing is tested without a codec.
/// Used by one thread at a time (the player's decode thread).
public protocol MovieFrameSource: AnyObject {
    /// The stream's description, when the source has one.
    var streamInfo: MovieStreamInfo? { get }
    /// Frames skipped as late so far.
    var skippedFrames: Int { get }
    /// The next frame, or nil at the end; frames for which `isLate(pts, duration)` holds are skipped.
    func nextFrame(fitting box: PixelSize?,
                   skippingWhere isLate: ((_ pts: Double, _ duration: Double) -> Bool)?) throws(LibavError) -> DecodedFrame?
    /// The next frame becomes the one shown at `seconds`.
    func seek(to seconds: Double) throws(LibavError)
}

extension MovieDecoder: MovieFrameSource {
    public var streamInfo: MovieStreamInfo? { info }
}
