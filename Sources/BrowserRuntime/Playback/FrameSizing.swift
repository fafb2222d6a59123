/// How big movie frames are drawn for the link the terminal is on (issue 28.4): a share of the picture area's
/// width and height, and for kitty how many bits of each colour channel are kept. When a frame's bytes at the
/// movie's frame rate do not fit what the terminal takes, the next frames are drawn smaller (bytes follow the
/// cells: a frame at 0.7 of the width and height costs about half), down to a readable size; below that a
/// kitty frame keeps fewer colour bits (its PNG shrinks by a third or a half), so the movie keeps its real
/// timing with few frames dropped instead of falling behind the link; when the link carries more again, they
/// grow back. The player's timing never changes: only the frames' size and colours.
public struct FrameSizing: Sendable, Equatable {
    /// Share of the picture area's columns and rows (1: the whole area).
    public var scale: Double
    /// Bits kept of each colour channel (8: all of them; kitty frames only, see `colourSteps`).
    public var colourBits: Int
    /// Below this share a frame is too small to be worth watching: frames are never drawn smaller, and when
    /// even that does not fit, fewer colours (kitty) or the player's drops take over. Half the width and
    /// height: 40x11 cells of an 80x24 terminal's viewer, where a movie still reads. It was 0.3 (24x7 cells):
    /// in a local xterm that drained sixels at 0.1 MB/s that made postage stamps at a few frames a second,
    /// where frames at a readable size with some dropped show more (issue 28.4).
    public static let smallest = 0.5
    /// Steps the scale moves in (no redraws for one per cent), and how much more the link must carry before
    /// frames grow back (no flapping between two sizes on a noisy estimate).
    static let step = 0.05
    static let growthMargin = 0.1
    /// The colour depths a kitty frame may drop to, with what its PNG then weighs against all 8 bits: measured
    /// on train.mov's frames at 293x220 and 176x132 (PNG with row filters: 6 bits 0.61-0.72, 5 bits 0.47-0.55;
    /// the noise in the low bits is what deflate cannot squeeze). The larger figures are taken: a step too
    /// optimistic would have the next frames not fit.
    static let colourSteps: [(bits: Int, bytes: Double)] = [(8, 1), (6, 0.7), (5, 0.55)]

    public init(scale: Double = 1, colourBits: Int = 8) {
        self.scale = scale
        self.colourBits = colourBits
    }

    /// The sizing a playback starts at: the last one's (what the link took then), or on a link known to be slow
    /// with nothing measured yet, the smallest share. The first frame is rendered before anything about its
    /// bytes is known, and at the whole area on a slow link it cost 250-950 ms of render and a third of a
    /// Live Photo's 1.2 s before the second frame (issue 28.4); frames grow back after the first one when the
    /// link carries them.
    public static func starting(after last: FrameSizing, link: ThroughputWindow.Estimate?) -> FrameSizing {
        guard last == FrameSizing(), let link, link.isSlow else { return last }
        return FrameSizing(scale: smallest)
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

    /// What a frame weighs at this sizing's colour depth against all 8 bits.
    var colourBytes: Double { Self.colourSteps.first { $0.bits == colourBits }?.bytes ?? 1 }

    /// The sizing for the next frames, after one of `bytesPerFrame` drawn at this sizing in a `columns` x `rows`
    /// area, for a movie of `framesPerSecond` on `link` (nil: nothing measured), whose render took
    /// `renderSeconds` (nil: not measured). Bytes and render time both follow the cells drawn, so the share of
    /// the area that fits is the square root of what fits over what a whole frame takes; the smaller of the two
    /// counts, never under `smallest`. `fewerColours`: the frames are kitty PNGs, which may keep fewer colour
    /// bits when the link does not carry them at the smallest share. Both fitting: the whole area.
    public func following(bytesPerFrame: Int, framesPerSecond: Double, link: ThroughputWindow.Estimate?,
                          renderSeconds: Double? = nil, fewerColours: Bool = false, columns: Int, rows: Int) -> FrameSizing {
        followingWithReason(bytesPerFrame: bytesPerFrame, framesPerSecond: framesPerSecond, link: link,
                            renderSeconds: renderSeconds, fewerColours: fewerColours, columns: columns, rows: rows).sizing
    }

    /// `following`, and whether the link alone falls short of a whole full-colour frame (the status bar then
    /// names the link as what the frames were shrunk for; a slow render alone does not). One pass over the
    /// figures: the player asked twice per frame, the second time without the render only to learn this.
    public func followingWithReason(bytesPerFrame: Int, framesPerSecond: Double, link: ThroughputWindow.Estimate?,
                                    renderSeconds: Double? = nil, fewerColours: Bool = false, columns: Int,
                                    rows: Int) -> (sizing: FrameSizing, forTheLink: Bool) {
        // Nothing measured: nothing to distrust either, the whole area at once.
        guard columns > 0, rows > 0, framesPerSecond > 0, link != nil || renderSeconds != nil else { return (FrameSizing(), false) }
        let drawn = cells(columns: columns, rows: rows)
        let share = Double(drawn.columns * drawn.rows) / Double(columns * rows)
        // The link's choice: what share of a whole full-colour frame's bytes it carries, and the colours for it.
        var next = FrameSizing()
        if let link, bytesPerFrame > 0 {
            let wholeFrame = Double(bytesPerFrame) / share / colourBytes
            if !link.carries(bytesPerFrame: Int(wholeFrame), framesPerSecond: framesPerSecond) {
                let carried = link.bytesPerSecond / (wholeFrame * framesPerSecond * ThroughputWindow.Estimate.headroom)
                next = Self.forLink(carrying: carried, fewerColours: fewerColours)
            }
        }
        let forTheLink = next != FrameSizing()
        if let renderSeconds, renderSeconds > 0 {
            let wholeRender = renderSeconds / share
            let allowed = Self.renderShare / framesPerSecond
            if wholeRender > allowed { next.scale = min(next.scale, Self.stepped((allowed / wholeRender).squareRoot())) }
        }
        guard next.weight > weight else { return (next, forTheLink) }
        // Growing (more cells or more colours) only by a clear margin: compared as the share of a whole
        // full-colour frame's bytes each carries, in the scale's units.
        if next != FrameSizing() && next.weight < weight + Self.growthMargin { return (self, forTheLink) }
        return (grown(toward: next), forTheLink)
    }

    /// One step toward `target`: the colours back first, then 0.1 more of the width and height. Shrinking
    /// is at once; growing is gradual because one estimate can be wrong: at 20 Mbit/s a reply that came
    /// back quickly read the link as 18 MB/s for one frame, and the next frame went out at 0.85 of the area
    /// (316 KB), four frames' worth of the link (issue 28.4, DECISIONS "link28c").
    func grown(toward target: FrameSizing) -> FrameSizing {
        if colourBits < target.colourBits, let index = Self.colourSteps.firstIndex(where: { $0.bits == colourBits }), index > 0 {
            return FrameSizing(scale: scale, colourBits: Self.colourSteps[index - 1].bits)
        }
        // Counted in steps, not added (0.6 + 0.1 + 0.1 is not 0.8 in binary).
        let stepsUp = (scale / Self.step).rounded() + 2
        let larger = FrameSizing(scale: min(target.scale, stepsUp / (1 / Self.step)), colourBits: colourBits)
        return larger.scale >= 1 && larger.colourBits == 8 ? FrameSizing() : larger
    }

    /// The largest share at all 8 bits that carries `carried` of a whole frame's bytes, down to `smallest`;
    /// below that (with `fewerColours`) the first colour step at which the smallest share fits, at the share
    /// that step carries. Nothing fits: the smallest share at the fewest colours (the player drops the rest).
    static func forLink(carrying carried: Double, fewerColours: Bool) -> FrameSizing {
        let steps = fewerColours ? colourSteps : [colourSteps[0]]
        for step in steps {
            let fitting = (carried / step.bytes).squareRoot()
            if fitting >= smallest { return FrameSizing(scale: stepped(fitting), colourBits: step.bits) }
        }
        return FrameSizing(scale: smallest, colourBits: steps[steps.count - 1].bits)
    }

    /// `fitting` rounded down to a step, within `smallest`...1.
    static func stepped(_ fitting: Double) -> Double {
        // Divided, not multiplied, by the steps per unit: 6 / 20 is 0.3 to the last bit, where 6 * 0.05 is
        // not (traces said "0.30000000000000004").
        max(smallest, min(1, (fitting / step).rounded(.down) / (1 / step)))
    }

    /// The square root of the share of a whole full-colour frame's bytes this sizing sends.
    private var weight: Double { scale * colourBytes.squareRoot() }
}
