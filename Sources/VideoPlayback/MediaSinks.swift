import Imaging

/// Where a `MoviePlayer`'s pictures go. Both calls come on the player's presenter thread, in presentation
/// order, never concurrently: `prepare` ahead of the frame's time (while the next frames decode, so a
/// frame's render time is spent before its deadline), `present` when it is due. A frame that is late is
/// dropped before `prepare` or between the two; `present` is never called for it.
///
/// The terminal's sinks render a frame to cells or a pixel picture in `prepare` and hand it to whatever
/// draws in `present` (the browser's event loop, `livegrid play`'s stdout writer, the studio's preview).
public protocol VideoSink: Sendable {
    associatedtype Picture: Sendable
    /// What `present` will show for `frame`; nil skips the frame (it is not counted as shown).
    func prepare(_ frame: DecodedFrame) -> Picture?
    /// Shows `picture` now.
    func present(_ frame: DecodedFrame, _ picture: Picture)
}

/// A video sink made of two closures.
public struct ClosureVideoSink<Picture: Sendable>: VideoSink {
    private let prepareFrame: @Sendable (DecodedFrame) -> Picture?
    private let presentFrame: @Sendable (DecodedFrame, Picture) -> Void

    public init(prepare: @escaping @Sendable (DecodedFrame) -> Picture?,
                present: @escaping @Sendable (DecodedFrame, Picture) -> Void) {
        prepareFrame = prepare
        presentFrame = present
    }

    public func prepare(_ frame: DecodedFrame) -> Picture? { prepareFrame(frame) }
    public func present(_ frame: DecodedFrame, _ picture: Picture) { presentFrame(frame, picture) }
}

extension ClosureVideoSink where Picture == DecodedFrame {
    /// A sink that takes each decoded frame as it is, when it is due.
    public init(_ sink: @escaping @Sendable (DecodedFrame) -> Void) {
        self.init(prepare: { $0 }, present: { _, frame in sink(frame) })
    }
}

/// The clock the pictures follow while it runs: an audio sink's position, as mpv syncs video to audio.
/// While `position()` answers, the player re-anchors its frame clock on it before every frame (a frame is
/// due when the master reaches its time, and a late frame is dropped: pictures are dropped, never sound);
/// while it answers nil (no sound yet, an underrun, no sound server), frames run on the `PlaybackClock`.
///
/// An audio sink (issue 29) is one of these that the player also feeds with decoded samples.
public protocol MasterClock: Sendable {
    /// The movie time (seconds, the same scale as frame pts, loop passes added) being heard now, or nil.
    func position() -> Double?
}
