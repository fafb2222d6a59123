import Imaging

/// What an edit asks for, already checked (the CLI parses its options into one, the browser's key-photo
/// mode makes one with only `keyPhotoAt`).
public struct StudioEditRequest: Sendable {
    public var keyPhotoAt: Double?
    public var trim: (start: Double, end: Double)?
    public var mute: Bool
    public var adjustments: StudioAdjustments

    public init(keyPhotoAt: Double?, trim: (start: Double, end: Double)? = nil, mute: Bool = false,
                adjustments: StudioAdjustments = StudioAdjustments()) {
        self.keyPhotoAt = keyPhotoAt
        self.trim = trim
        self.mute = mute
        self.adjustments = adjustments
    }

    /// The browser's key-photo mode: the frame at `seconds` becomes the still, nothing else changes.
    public static func keyPhoto(at seconds: Double) -> StudioEditRequest { StudioEditRequest(keyPhotoAt: seconds) }
}
