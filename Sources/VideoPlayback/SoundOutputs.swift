/// The sound outputs a playback can go to, in the order they are tried. A new kind of output (ALSA, a native
/// PipeWire client, a file for tests...) is one new file with its `AudioSink` plus one line in `kinds`; the
/// browser's holds and `livegrid play` ask this table and never name a sink themselves.
/// Today there is one: PulseAudio's simple API, which PipeWire's pulse server answers too, and which follows
/// `PULSE_SERVER` home over SSH (DECISIONS "Sound (issue 29)").
public enum SoundOutputs {
    /// What a kind of output needs to open: the launch environment as the executable read it (nothing below
    /// the executable reads the process environment), a trace for the start-up stamps, and where its
    /// troubles are said (once each, by the caller).
    public struct Request: Sendable {
        public var environment: [String: String]
        public var trace: (@Sendable (String) -> Void)?
        public var report: @Sendable (SoundState) -> Void

        public init(environment: [String: String], trace: (@Sendable (String) -> Void)? = nil,
                    report: @escaping @Sendable (SoundState) -> Void = { _ in }) {
            self.environment = environment
            self.trace = trace
            self.report = report
        }
    }

    /// One kind of output. `open` answers nil when this kind cannot serve here at all, so the next is tried;
    /// a kind that can but finds no server says so through `report` and stays silent (a normal state).
    public struct Kind: Sendable {
        public let name: String
        let open: @Sendable (Request) -> (any AudioSink)?
        /// Loads the kind's library ahead of the first press (nil: nothing to load).
        let preload: (@Sendable () -> Void)?
    }

    /// The table: one line per kind, tried in order.
    static let kinds: [Kind] = [
        Kind(name: "pulse",
             open: { PulseAudioSink(server: $0.environment["PULSE_SERVER"], trace: $0.trace, report: $0.report) },
             preload: { PulseAudioSink.preloadLibrary() }),
    ]

    /// A sink of the first kind that opens here, or nil when none does (the playback is then silent).
    public static func open(_ request: Request) -> (any AudioSink)? {
        for kind in kinds {
            if let sink = kind.open(request) { return sink }
        }
        return nil
    }

    /// Loads every kind's library (on a thread that may block: dlopen).
    public static func preloadLibraries() {
        for kind in kinds { kind.preload?() }
    }

    /// The kinds' names, in the order they are tried.
    public static var names: [String] { kinds.map(\.name) }
}
