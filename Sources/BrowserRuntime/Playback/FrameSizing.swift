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

    /// The share of a frame's time its render (chafa's sixel or symbols, a PNG for kitty) may take: the player
    /// decodes on its own thread, and a frame rendered later than its time is dropped by the player.
    public static let renderShare = 0.8

    /// The sizing for the next frames, after one of `bytesPerFrame` drawn at this sizing in a `columns` x `rows`
    /// area, for a movie of `framesPerSecond` on `link` (nil: nothing measured), whose render took
    /// `renderSeconds` (nil: not measured). Bytes and render time both follow the cells drawn, so the share of
    /// the area that fits is the square root of what fits over what a whole frame takes; the smaller of the two
    /// counts. Both fitting: the whole area.
    public func following(bytesPerFrame: Int, framesPerSecond: Double, link: ThroughputWindow.Estimate?,
                          renderSeconds: Double? = nil, columns: Int, rows: Int) -> FrameSizing {
        followingWithReason(bytesPerFrame: bytesPerFrame, framesPerSecond: framesPerSecond, link: link,
                            renderSeconds: renderSeconds, columns: columns, rows: rows).sizing
    }

    /// `following`, and whether the link alone falls short of a whole frame (the status bar then names the
    /// link as what the frames were shrunk for; a slow render alone does not). One pass over the figures: the
    /// player asked twice per frame, the second time without the render only to learn this.
    public func followingWithReason(bytesPerFrame: Int, framesPerSecond: Double, link: ThroughputWindow.Estimate?,
                                    renderSeconds: Double? = nil, columns: Int,
                                    rows: Int) -> (sizing: FrameSizing, forTheLink: Bool) {
        guard columns > 0, rows > 0, framesPerSecond > 0 else { return (FrameSizing(), false) }
        let drawn = cells(columns: columns, rows: rows)
        let share = Double(drawn.columns * drawn.rows) / Double(columns * rows)
        var fitting = 1.0
        if let link, bytesPerFrame > 0 {
            let wholeFrame = Double(bytesPerFrame) / share
            if !link.carries(bytesPerFrame: Int(wholeFrame), framesPerSecond: framesPerSecond) {
                fitting = (link.bytesPerSecond / (wholeFrame * framesPerSecond * ThroughputWindow.Estimate.headroom)).squareRoot()
            }
        }
        // Any share under 1 is stepped to at most 0.95 (or kept, when already smaller): the link alone shrinks.
        let forTheLink = fitting < 1
        if let renderSeconds, renderSeconds > 0 {
            let wholeRender = renderSeconds / share
            let allowed = Self.renderShare / framesPerSecond
            if wholeRender > allowed { fitting = min(fitting, (allowed / wholeRender).squareRoot()) }
        }
        guard fitting < 1 else { return (FrameSizing(), forTheLink) }
        // Divided, not multiplied, by the steps per unit: 6 / 20 is 0.3 to the last bit, where 6 * 0.05 is
        // not (traces said "0.30000000000000004").
        let stepped = max(Self.smallest, min(1, (fitting / Self.step).rounded(.down) / (1 / Self.step)))
        if stepped > scale && stepped < scale + Self.growthMargin { return (self, forTheLink) }
        return (FrameSizing(scale: stepped), forTheLink)
    }
}
