import Concurrent

/// The injected clock of the link tests: time moves only when a test moves it.
final class LinkTestClock: Sendable {
    let time = Locked<Double>(1000)
    func advance(by seconds: Double) { time.withLockedValue { $0 += seconds } }
    func set(_ seconds: Double) { time.withLockedValue { $0 = seconds } }
    var now: Double { time.value }
}

/// A link taking `rate` bytes a second with `roundTrip` seconds of latency: it says when the terminal reaches
/// each byte written, so the reply to a query is that moment plus the round trip. Writes never block, as over
/// SSH (sshd's channel window takes them).
struct SimulatedLink {
    let rate: Double
    let roundTrip: Double
    private(set) var free = -Double.infinity
    init(rate: Double, roundTrip: Double) { self.rate = rate; self.roundTrip = roundTrip }
    /// Bytes written at `time` (the writer's clock; the out leg is part of the round trip).
    mutating func write(_ bytes: Int, at time: Double) { free = max(free, time) + Double(bytes) / rate }
    /// A query written at `time`: when its reply is read.
    mutating func reply(toQueryAt time: Double) -> Double {
        free = max(free, time)
        return free + roundTrip
    }
}
