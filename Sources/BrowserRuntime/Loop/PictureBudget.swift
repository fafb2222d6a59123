/// How many bytes of pictures may go to the terminal now (issue 28.4: "never queue megabytes of pictures for a
/// screen already left"). Over SSH nothing blocks a write: sshd's 2 MB channel window and the sockets take a
/// whole screen of pictures at once, and once written they reach the terminal whatever the user does next. So
/// pictures are written only while what the terminal has not taken yet (`backlog`, from the round trip through
/// the terminal) stays within what the link drains in `drainSeconds`. A key then waits at most that long behind
/// pictures already sent, and the pictures still held go to the new screen, or nowhere.
///
/// A turn spends its budget picture by picture, in screen order; a picture that does not fit waits, and so do
/// the ones after it (screen order is kept). With nothing in flight one picture always goes, however big: a
/// viewer's picture larger than the budget still gets drawn.
public struct PictureBudget: Sendable, Equatable {
    /// Seconds of the link's rate the terminal may have still to take: a key typed then is answered after that
    /// plus the round trip and a render (issue 28.4: within 200 ms).
    public static let drainSeconds = 0.12
    /// The budget while the link's rate is unknown (not measured yet, or too fast to tell): the round trip's
    /// reply decides instead, and a fast terminal answers within milliseconds.
    public static let unmeasured = 128_000
    /// Bounds of a measured budget: one small picture at the least, and a megabyte at the most (a fast link's
    /// budget would otherwise let a whole screen go at once, which is fine but says nothing more).
    public static let smallest = 16_000
    public static let largest = 1_000_000

    /// Bytes written that the terminal has not taken yet (estimated), including what this turn wrote.
    public private(set) var backlog: Int
    /// Bytes in flight allowed.
    public let limit: Int

    public init(backlog: Int, bytesPerSecond: Double?) {
        self.init(backlog: backlog, limit: Self.limit(bytesPerSecond: bytesPerSecond))
    }

    public init(backlog: Int, limit: Int) {
        self.backlog = max(0, backlog)
        self.limit = max(0, limit)
    }

    public static func limit(bytesPerSecond: Double?) -> Int {
        guard let bytesPerSecond, bytesPerSecond > 0 else { return unmeasured }
        return min(largest, max(smallest, Int(bytesPerSecond * drainSeconds)))
    }

    /// Whether a picture of `bytes` may be written now.
    public func admits(_ bytes: Int) -> Bool {
        backlog == 0 || backlog + bytes <= limit
    }

    /// A picture of `bytes` was written.
    public mutating func spend(_ bytes: Int) {
        backlog += max(0, bytes)
    }
}
