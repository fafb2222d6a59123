/// What the terminal takes, measured through the terminal itself (issue 28.4): after a burst of pictures
/// livegrid writes a cursor position query (DSR, `CSI 6 n`); the terminal answers it only once it has parsed
/// every byte written before it. Over SSH the pty, sshd's channel window (2 MB) and the sockets swallow a whole
/// first screen without `write` ever blocking, so the blocking meter (`ThroughputWindow`) sees nothing there;
/// the reply's delay does.
///
/// The link is modelled as a queue: the terminal takes bytes at a rate R, in order, and a reply comes back one
/// round trip after the terminal reached its query. Knowing when each byte was written since the previous
/// query, when that query's reply came (the terminal was done with everything before it then), and the round
/// trip (the shortest reply delay seen; the first query is written with little in flight to learn it), the rate
/// is the R for which the queue reaches the query exactly when its reply says (found by bisection: the
/// finishing time falls as R grows). Pauses between writes are part of the model, so pictures written over
/// seconds as they are decoded are not mistaken for a slow link.
///
/// At most one query is in flight. A query follows only a burst (`minimumBytes` written in the last
/// `burstSpan`), so a few small writes never ask. A terminal that does not answer within the timeout is never
/// asked again, and nothing it sends later is taken for a reply (the meter gives up: no estimate, no state
/// grows). State is bounded: writes since the last query (merged past `maximumWrites`) and the last few samples.
public struct TerminalRoundTrip: Sendable {
    public struct Settings: Sendable {
        /// Bytes in the burst before a query is worth its round trip (at 4 MB/s, 128 KB takes 32 ms: well above
        /// the reply's jitter; below it the round trip is all the query would measure).
        public var minimumBytes = 128_000
        /// Seconds the burst is counted over: bytes written in that span before the query.
        public var burstSpan = 1.0
        /// Seconds of modelled draining below which a sample says only "faster than can be told".
        public var minimumBusy = 0.02
        /// A query is given up on after `timeout` seconds plus its backlog at `slowestLink` bytes a second.
        public var timeout = 10.0
        public var slowestLink = 50_000.0
        /// Samples the estimate is made of (the newest); writes kept per query before merging.
        public var samplesKept = 4
        public var maximumWrites = 256
        public init() {}
    }

    public let settings: Settings
    private struct Write { var at: Double; var bytes: Int }
    /// Writes since the last query was written.
    private var writes: [Write] = []
    /// The query in flight: when it was written, and the writes before it since the previous query.
    private var inFlight: (at: Double, writes: [Write])?
    /// When the previous reply came (the terminal had taken everything before that query).
    private var lastReply: Double?
    /// The shortest delay between a query and its reply: the round trip with (almost) nothing in flight.
    public private(set) var roundTrip: Double?
    /// Bytes and modelled seconds of draining of the newest samples.
    private var samples: [(bytes: Int, seconds: Double)] = []
    /// The terminal did not answer in time: it is not asked again.
    public private(set) var gaveUp = false

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    public var isQueryInFlight: Bool { inFlight != nil }
    /// Writes kept since the last query (bounded by `maximumWrites`).
    var pendingWrites: Int { writes.count }

    /// Bytes the terminal took per second lately, or nil when nothing was measured (or it was too fast to tell).
    public var bytesPerSecond: Double? {
        let seconds = samples.reduce(0) { $0 + $1.seconds }
        guard seconds > 0 else { return nil }
        return Double(samples.reduce(0) { $0 + $1.bytes }) / seconds
    }

    public mutating func record(bytes: Int, at time: Double) {
        guard bytes > 0, !gaveUp else { return }
        if let last = writes.last, time - last.at < 0.001 {
            writes[writes.count - 1].bytes += bytes   // one batch written in pieces
        } else {
            writes.append(Write(at: time, bytes: bytes))
        }
        if writes.count > settings.maximumWrites {
            // The oldest two become one at the later time: the model then thinks them written a little later,
            // which only shortens the draining it credits (errs toward a faster link).
            writes[1].bytes += writes[0].bytes
            writes.removeFirst()
        }
    }

    /// Called after a turn's writes: true when a query should be written now (it is then in flight). Gives up
    /// on a query that timed out. `acknowledge`: the writer holds pictures back until the terminal has taken
    /// what is in flight (`backlog`), so a query goes now whatever the burst, once the terminal has answered one.
    public mutating func takeQueryDue(at time: Double, acknowledge: Bool = false) -> Bool {
        guard !gaveUp else { return false }
        if let inFlight {
            let backlog = Double(inFlight.writes.reduce(0) { $0 + $1.bytes })
            if time - inFlight.at > settings.timeout + backlog / settings.slowestLink { giveUp() }
            return false
        }
        let recent = writes.reduce(0) { $0 + ($1.at >= time - settings.burstSpan ? $1.bytes : 0) }
        let asked = acknowledge && hasAnswered && !writes.isEmpty
        // The first query goes with little in flight: its delay is the round trip the others are corrected by.
        guard asked || recent >= settings.minimumBytes || (roundTrip == nil && recent < settings.minimumBytes / 4) else {
            return false
        }
        inFlight = (time, writes)
        writes = []
        return true
    }

    /// True once the terminal answered a query (and was not given up on): what it has taken is then known.
    public var hasAnswered: Bool { lastReply != nil && !gaveUp }

    /// Bytes written that the terminal has not taken yet at `time`, as far as can be told: everything written
    /// after the last answered query, less what a link of `rate` bytes a second drained since (the same queue
    /// as the estimate's; without a rate, nothing is counted drained until a reply says so). Nil when the
    /// terminal never answered (or was given up on): nothing can be told, and nothing is held back for it.
    public func backlog(at time: Double, rate: Double?) -> Int? {
        guard hasAnswered, let lastReply else { return nil }
        let unanswered = (inFlight?.writes ?? []) + writes
        let total = unanswered.reduce(0) { $0 + $1.bytes }
        guard let rate, rate > 0, total > 0 else { return total }
        let drained = Self.finish(unanswered, free: lastReply - (roundTrip ?? 0), query: -.infinity, rate: rate)
        return min(total, Int((max(0, drained - time) * rate).rounded(.up)))
    }

    /// When a link of `rate` bytes a second will have taken everything written (nil as for `backlog`, or
    /// without a rate).
    public func drained(rate: Double?) -> Double? {
        guard hasAnswered, let lastReply, let rate, rate > 0 else { return nil }
        let unanswered = (inFlight?.writes ?? []) + writes
        return Self.finish(unanswered, free: lastReply - (roundTrip ?? 0), query: -.infinity, rate: rate)
    }

    /// The terminal answered the query (the input reader read the cursor position report at `time`). A report
    /// with no query in flight (after a timeout, or a key that looks like one) changes nothing.
    public mutating func replyArrived(at time: Double) {
        guard let (queryAt, sent) = inFlight, time >= queryAt else { return }
        inFlight = nil
        defer { lastReply = time }
        let bytes = sent.reduce(0) { $0 + $1.bytes }
        // A query with little before it measures the round trip, and has nothing else to say.
        if bytes < settings.minimumBytes / 4 {
            roundTrip = min(roundTrip ?? .infinity, time - queryAt)
            return
        }
        // Without a round trip known yet, the whole delay counts as draining (errs toward a slower link).
        let latency = min(roundTrip ?? 0, time - queryAt)
        let free = lastReply.map { $0 - latency } ?? -Double.infinity
        // The reply left the terminal `latency` after it reached the query, in the writer's time.
        let reached = time - latency
        guard Self.finish(sent, free: free, query: queryAt, rate: .infinity) < reached - 1e-9 else {
            samples.removeAll()   // everything was taken as fast as it could be seen: the link is fast now
            return
        }
        var slow = 1.0, fast = 1e11
        for _ in 0..<60 {
            let rate = (slow * fast).squareRoot()
            if Self.finish(sent, free: free, query: queryAt, rate: rate) > reached { slow = rate } else { fast = rate }
        }
        let rate = (slow * fast).squareRoot()
        let busy = Double(bytes) / rate
        guard busy >= settings.minimumBusy else {
            samples.removeAll()   // drained in less time than the reply's jitter: faster than can be told
            return
        }
        samples.append((bytes, busy))
        if samples.count > settings.samplesKept { samples.removeFirst() }
    }

    /// When a terminal taking `rate` bytes a second, free from `free`, reaches the query written at `query`.
    private static func finish(_ writes: [Write], free: Double, query: Double, rate: Double) -> Double {
        var time = free
        for write in writes { time = max(time, write.at) + Double(write.bytes) / rate }
        return max(time, query)
    }

    private mutating func giveUp() {
        gaveUp = true
        inFlight = nil
        writes = []
        samples = []
    }
}
