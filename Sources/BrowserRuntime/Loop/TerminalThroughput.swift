import Concurrent

/// What the terminal really takes (issue 28.4): the bytes livegrid wrote to the tty against the time `write`
/// blocked on them, over the last few seconds. Over SSH the tty's buffer, ssh's channel window and the socket's
/// buffers fill when the link is slower than livegrid writes; from then on `write` returns only as fast as the
/// link drains them, so bytes / blocked time is the link's rate as the terminal sees it. A write that never
/// blocks says nothing about the link (a local terminal, or a small write into empty buffers): with less than
/// `minimumBlocked` seconds of blocking in the window there is no estimate, and the link counts as fast.
///
/// The estimate runs high by at most the buffers' size (they fill without blocking first), which errs on the
/// side of drawing as before. Over SSH a first screen never blocks (sshd's 2 MB channel window takes it all):
/// there the round trip through the terminal (`TerminalRoundTrip`) measures, and the slower of the two
/// estimates counts. The pure parts are `ThroughputWindow` and `TerminalRoundTrip` (tested with made-up times);
/// this class is the shared box the write paths and the input reader feed and the loop reads, with the clock
/// injected.
public final class TerminalThroughput: Sendable {
    private struct Meters {
        var window: ThroughputWindow
        var roundTrip: TerminalRoundTrip
        /// The outputs held pictures back for the link (`PictureBudget`): the first held picture's bytes.
        var held: Int?

        /// The slower of the two meters' rates at `now`.
        func estimate(at now: Double) -> ThroughputWindow.Estimate? {
            let blocking = window.estimate(at: now)
            guard let rate = roundTrip.bytesPerSecond else { return blocking }
            if let blocking, blocking.bytesPerSecond <= rate { return blocking }
            return ThroughputWindow.Estimate(bytesPerSecond: rate, isSlow: rate < window.slowBelow)
        }

        func budget(at now: Double) -> PictureBudget? {
            let rate = estimate(at: now)?.bytesPerSecond
            return roundTrip.backlog(at: now, rate: rate).map { PictureBudget(backlog: $0, bytesPerSecond: rate) }
        }
    }
    private let meters: Locked<Meters>
    private let clock: @Sendable () -> Double

    public init(clock: @escaping @Sendable () -> Double, window: ThroughputWindow = ThroughputWindow(),
                roundTrip: TerminalRoundTrip = TerminalRoundTrip()) {
        self.clock = clock
        meters = Locked(Meters(window: window, roundTrip: roundTrip))
    }

    /// The meter's clock now (the input reader stamps a reply's arrival with it).
    public var now: Double { clock() }

    /// Runs one write of `bytes` to the tty (`write` returns when they are all taken) and counts the time it took.
    public func measure<Result>(bytes: Int, _ write: () -> Result) -> Result {
        let start = clock()
        let result = write()
        let end = clock()
        meters.withLockedValue {
            $0.window.record(bytes: bytes, blocked: max(0, end - start), at: end)
            $0.roundTrip.record(bytes: bytes, at: end)
        }
        return result
    }

    /// After a turn's writes: true when the loop should write the round trip's query now (it is then in flight).
    public func takeQueryDue() -> Bool {
        let now = clock()
        // While pictures are held, a query goes after every turn that wrote: its reply says what the terminal took.
        return meters.withLockedValue { $0.roundTrip.takeQueryDue(at: now, acknowledge: $0.held != nil) }
    }

    /// The budget for this turn's pictures: nil while the terminal never answered a query (nothing is held
    /// back for a terminal that cannot say what it took).
    public func pictureBudget() -> PictureBudget? {
        let now = clock()
        return meters.withLockedValue { $0.budget(at: now) }
    }

    /// What the outputs' last turn held back: the first held picture's bytes, nil when everything went.
    public func holdPictures(firstBytes: Int?) {
        meters.withLockedValue { $0.held = firstBytes }
    }

    /// True when pictures are held and the first of them would go now: the loop draws again.
    public var heldPicturesAdmitted: Bool {
        let now = clock()
        return meters.withLockedValue { meters in
            guard let held = meters.held else { return false }
            return meters.budget(at: now)?.admits(held) ?? true
        }
    }

    /// While pictures are held: when the link will have drained enough for the first of them (a reply, which
    /// wakes the loop anyway, may say so sooner), and never later than `heldPicturesRecheck` from now (a query
    /// given up on lets everything go).
    public var heldPicturesDeadline: Double? {
        let now = clock()
        return meters.withLockedValue { meters in
            guard let held = meters.held else { return nil }
            let latest = now + Self.heldPicturesRecheck
            guard let budget = meters.budget(at: now), let rate = meters.estimate(at: now)?.bytesPerSecond,
                  let drained = meters.roundTrip.drained(rate: rate) else { return latest }
            let opening = drained - Double(max(0, budget.limit - held)) / rate
            return min(latest, max(now, opening))
        }
    }

    /// Seconds between looks at held pictures when nothing else wakes the loop.
    public static let heldPicturesRecheck = 0.25

    /// The terminal's reply to the query was read at `time` (the meter's clock).
    public func replyArrived(at time: Double) {
        meters.withLockedValue { $0.roundTrip.replyArrived(at: time) }
    }

    /// True while a query waits for its reply (on quit, the reply is read before the terminal is given back).
    public var isQueryInFlight: Bool { meters.withLockedValue { $0.roundTrip.isQueryInFlight } }

    /// The link's rate as the terminal takes bytes now (the slower of the two meters), or nil when neither
    /// measured anything lately.
    public var estimate: ThroughputWindow.Estimate? {
        let now = clock()
        return meters.withLockedValue { $0.estimate(at: now) }
    }
}

/// Writes to the tty in the last `span` seconds: bytes and the seconds `write` blocked on them.
public struct ThroughputWindow: Sendable {
    public struct Estimate: Sendable, Equatable {
        /// Bytes per second the terminal took while livegrid waited on it.
        public let bytesPerSecond: Double
        /// Below `slowBelow`: hints stay off and the status bar says so.
        public let isSlow: Bool

        /// The share of the link a movie may take: the rest is for labels, the status bar, the next picture.
        public static let headroom = 1.25

        /// Whether `bytesPerSecond` carries a stream of `bytesPerFrame` at `framesPerSecond`, with `headroom` for
        /// everything else on the screen (labels, the status bar, the next picture).
        public func carries(bytesPerFrame: Int, framesPerSecond: Double, headroom: Double = Estimate.headroom) -> Bool {
            Double(bytesPerFrame) * framesPerSecond * headroom <= bytesPerSecond
        }

        /// "~2.1 MB/s" (decimal megabytes, as link speeds are told).
        public var shortDescription: String {
            let megabytes = bytesPerSecond / 1_000_000
            if megabytes >= 10 { return "~\(Int(megabytes.rounded())) MB/s" }
            if megabytes >= 0.1 { return "~" + String(format: "%.1f", megabytes) + " MB/s" }
            return "~\(Int((bytesPerSecond / 1000).rounded())) KB/s"
        }
    }

    /// Seconds of history kept: long enough to span a first screen's burst, short enough to notice a link
    /// that became fast again.
    public var span: Double
    /// Seconds of blocking in the window below which there is no estimate.
    public var minimumBlocked: Double
    /// Bytes per second below which the link counts as slow (4 MB/s = 32 Mbit/s: a first screen of kitty or
    /// sixel pictures, 1-3 MB, then takes more than half a second on the wire).
    public var slowBelow: Double
    private var samples: [(at: Double, bytes: Int, blocked: Double)] = []

    public init(span: Double = 5, minimumBlocked: Double = 0.1, slowBelow: Double = 4_000_000) {
        self.span = span
        self.minimumBlocked = minimumBlocked
        self.slowBelow = slowBelow
    }

    public mutating func record(bytes: Int, blocked: Double, at time: Double) {
        guard bytes > 0 else { return }
        samples.append((time, bytes, blocked))
        forget(before: time - span)
    }

    public func estimate(at time: Double) -> Estimate? {
        var bytes = 0, blocked = 0.0
        for sample in samples where sample.at >= time - span {
            bytes += sample.bytes
            blocked += sample.blocked
        }
        guard blocked >= minimumBlocked else { return nil }
        let rate = Double(bytes) / blocked
        return Estimate(bytesPerSecond: rate, isSlow: rate < slowBelow)
    }

    private mutating func forget(before time: Double) {
        if let keep = samples.firstIndex(where: { $0.at >= time }) {
            if keep > 0 { samples.removeFirst(keep) }
        } else {
            samples.removeAll(keepingCapacity: true)
        }
    }

}
