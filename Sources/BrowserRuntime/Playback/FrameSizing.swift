/// How big movie frames are drawn for the link the terminal is on (issue 28.4): a share of the picture area's
/// width and height. When a frame's bytes at the movie's frame rate do not fit what the terminal takes, the next
/// frames are drawn smaller (bytes follow the cells: a frame at 0.7 of the width and height costs about half),
/// so the movie keeps its real timing with few frames dropped instead of falling behind the link; when the
/// link carries more again, they grow back. The player's timing never changes: only the frames' size.
public struct FrameSizing: Sendable, Equatable {
    /// Share of the picture area's columns and rows (1: the whole area).
    public var scale: Double
    /// Below this share a frame is too small to be worth watching (and the picture's area is at least
    /// `PlaybackController.minimumColumns` x `minimumRows` anyway).
    public static let smallest = 0.3
    /// Steps the scale moves in (no redraws for one per cent), and how much more the link must carry before
    /// frames grow back (no flapping between two sizes on a noisy estimate).
    static let step = 0.05
    static let growthMargin = 0.1

    public init(scale: Double = 1) {
        self.scale = scale
    }

    /// The cells a frame of a `columns` x `rows` picture area is drawn in.
    public func cells(columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        guard scale < 1 else { return (columns, rows) }
        return (max(min(columns, PlaybackController.minimumColumns), Int((Double(columns) * scale).rounded())),
                max(min(rows, PlaybackController.minimumRows), Int((Double(rows) * scale).rounded())))
    }

    /// The sizing for the next frames, after one of `bytesPerFrame` drawn at this sizing in a `columns` x `rows`
    /// area, for a movie of `framesPerSecond` on `link` (nil: nothing measured, the whole area).
    public func following(bytesPerFrame: Int, framesPerSecond: Double, link: ThroughputWindow.Estimate?,
                          columns: Int, rows: Int) -> FrameSizing {
        guard let link, bytesPerFrame > 0, columns > 0, rows > 0 else { return FrameSizing() }
        let drawn = cells(columns: columns, rows: rows)
        let share = Double(drawn.columns * drawn.rows) / Double(columns * rows)
        let wholeFrame = Double(bytesPerFrame) / share
        guard !link.carries(bytesPerFrame: Int(wholeFrame), framesPerSecond: framesPerSecond) else { return FrameSizing() }
        let fitting = (link.bytesPerSecond / (wholeFrame * framesPerSecond * ThroughputWindow.Estimate.headroom)).squareRoot()
        let stepped = max(Self.smallest, min(1, (fitting / Self.step).rounded(.down) * Self.step))
        if stepped > scale && stepped < scale + Self.growthMargin { return self }
        return FrameSizing(scale: stepped)
    }
}
