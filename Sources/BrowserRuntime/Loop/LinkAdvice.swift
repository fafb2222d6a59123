/// What livegrid does about the link the terminal is measured on (issue 28.4), from `TerminalThroughput`'s
/// estimate: on a slow link the hint of movement stays off (its frames would compete with the pictures the user
/// asked for), and the status bar says the measured speed and that. A fast link, or no estimate (nothing
/// blocked: a local terminal), changes nothing.
public struct LinkAdvice: Sendable, Equatable {
    /// The hint of movement waits while this is true.
    public let holdsHints: Bool
    /// The status bar's note, nil when there is nothing to say.
    public let note: String?

    public init(_ estimate: ThroughputWindow.Estimate?) {
        guard let estimate, estimate.isSlow else {
            holdsHints = false
            note = nil
            return
        }
        holdsHints = true
        note = "link \(estimate.shortDescription): motion hints off"
    }
}
