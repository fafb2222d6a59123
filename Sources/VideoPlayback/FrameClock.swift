/// Decides when each frame of a movie is shown: frame n is due at `start + pts(n) - pts(0)`. Deadlines are
/// computed from the start, never accumulated from the previous frame, so time cannot drift; a frame whose
/// display slot has already passed when it comes up is dropped (and counted) instead of delaying the rest.
/// A value type with the time passed in, so it is tested without sleeping.
public struct FrameClock: Sendable, Equatable {
    public enum Decision: Sendable, Equatable {
        /// Too early: wait this many seconds, then ask again (or show it).
        case wait(Double)
        /// Show it now.
        case show
        /// Its slot is over (the next frame is already due): skip it.
        case drop
    }

    /// Monotonic time at which the first frame is due; nil until the first frame is scheduled.
    public private(set) var start: Double?
    /// pts of the first frame scheduled: the movie's time origin for this playback.
    public private(set) var firstPTS: Double?
    public private(set) var droppedFrames = 0
    public private(set) var shownFrames = 0
    /// Monotonic time of the last `.show`.
    public private(set) var lastShownAt: Double?
    /// A frame counts as late only past its slot plus this slack (scheduler jitter must not drop frames).
    public var tolerance: Double
    /// When decoding is slower than real time every frame arrives late; rather than freeze on the first
    /// frame, a late frame is still shown once nothing was shown for this long (time still does not drift:
    /// later frames keep their original deadlines).
    public var maximumFreeze: Double

    public init(tolerance: Double = 0.005, maximumFreeze: Double = 0.25) {
        self.tolerance = tolerance
        self.maximumFreeze = maximumFreeze
    }

    /// Starts the clock so that the first frame scheduled is due at `start` (defaults to its first use).
    public init(start: Double, tolerance: Double = 0.005, maximumFreeze: Double = 0.25) {
        self.start = start
        self.tolerance = tolerance
        self.maximumFreeze = maximumFreeze
    }

    /// When the frame with `pts` is due, on the monotonic clock. The first call fixes pts(0), and the start
    /// when none was given.
    public mutating func deadline(for pts: Double, now: Double) -> Double {
        if firstPTS == nil { firstPTS = pts }
        if start == nil { start = now }
        return (start ?? now) + pts - (firstPTS ?? pts)
    }

    /// What to do with the frame `pts` (shown for `duration`) at time `now`. `.show` and `.drop` are
    /// counted; `.wait` is not (ask again after waiting).
    public mutating func decide(pts: Double, duration: Double, now: Double) -> Decision {
        let due = deadline(for: pts, now: now)
        if now < due { return .wait(due - now) }
        if shouldDrop(pts: pts, duration: duration, now: now) {
            droppedFrames += 1
            return .drop
        }
        shownFrames += 1
        lastShownAt = now
        return .show
    }

    /// True when frame `pts` should be skipped at `now`: it is late and the picture has not been frozen
    /// for `maximumFreeze`. Counts nothing (the decoder asks this before scaling a frame).
    public func shouldDrop(pts: Double, duration: Double, now: Double) -> Bool {
        guard isLate(pts: pts, duration: duration, now: now) else { return false }
        guard let lastShownAt else { return false }
        return now - lastShownAt < maximumFreeze
    }

    /// True when the slot of frame `pts` is over at `now` (does not count anything). Before the clock
    /// started, nothing is late.
    public func isLate(pts: Double, duration: Double, now: Double) -> Bool {
        guard let start, let firstPTS else { return false }
        let slotEnd = start + pts - firstPTS + max(duration, 0)
        return now > slotEnd + tolerance
    }

    /// Re-anchors the clock on a master clock (the audio position, as mpv does): the frame whose pts is
    /// `mediaTime` is due at `now`, and every other frame keeps its distance from it. Before the first
    /// frame is scheduled, `mediaTime` becomes the time origin.
    public mutating func follow(mediaTime: Double, now: Double) {
        let origin = firstPTS ?? mediaTime
        firstPTS = origin
        start = now - (mediaTime - origin)
    }

    /// Records frames dropped elsewhere (e.g. skipped by the decoder because they were already late).
    public mutating func countDropped(_ count: Int) {
        droppedFrames += max(0, count)
    }
}
