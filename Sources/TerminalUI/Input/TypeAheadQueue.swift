/// Keys typed while livegrid starts, held until there is something to act on (the first items, or the scan's
/// end), in the order they were typed.
///
/// The start-up probes read the tty before the input reader does, so the first keys come from them; keys
/// typed a moment later come from the reader. Those later keys join the queue behind the earlier ones:
/// acted on at once, they moved the selection of an empty grid (lost) and went before the keys typed first
/// (TypeAheadEndToEndTests saw one `l` of two lost, about one run in eight under load).
struct TypeAheadQueue {
    private(set) var held: [TerminalEvent]

    init(_ held: [TerminalEvent]) { self.held = held }

    var isEmpty: Bool { held.isEmpty }

    /// The events to handle now, given what the reader just read. `due`: there is something to act on. While
    /// keys are held and not yet due, newly read keys are held behind them; resizes, mouse reports and
    /// hang-ups pass at once (they describe the terminal, not a wish to move). `leaves`: a key that quits
    /// acts at once, and what was held goes with the browser.
    mutating func admit(_ read: [TerminalEvent], due: Bool, leaves: (TerminalEvent) -> Bool = { _ in false }) -> [TerminalEvent] {
        if due {
            defer { held = [] }
            return held + read
        }
        guard !held.isEmpty else { return read }
        if read.contains(where: leaves) {
            held = []
            return read
        }
        held += read.filter(\.isKey)
        return read.filter { !$0.isKey }
    }
}

extension TerminalEvent {
    var isKey: Bool {
        switch self {
        case .key, .keyEvent: true
        case .resize, .mouse, .hangup: false
        }
    }
}
