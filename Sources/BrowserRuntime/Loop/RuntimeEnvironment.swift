import Concurrent

/// The environment the browser and `play` run with: the executable's `LaunchEnvironment`, read once at start
/// and handed down. The browser passes it explicitly (`BrowserOptions.environment`) where it calls a service;
/// `install` keeps the same value for the few defaults reached from code that is not handed it yet (the
/// playback input's trace and kitty keyboard check, the playback work factor), so nothing below the
/// executable reads the process environment itself (EnvironmentReadTests keeps it so).
public struct RuntimeEnvironment: Sendable {
    public var variables: [String: String]

    public init(variables: [String: String] = [:]) {
        self.variables = variables
    }

    /// `TERM`, "" when unset.
    public var term: String { variables["TERM"] ?? "" }
    /// `HOME`, for `~` in typed paths.
    public var home: String? { variables["HOME"] }
    /// `LIVEGRID_KITTY_KEYS=0` turns the kitty keyboard protocol off.
    public var kittyKeysAllowed: Bool { variables["LIVEGRID_KITTY_KEYS"] != "0" }
    /// `LIVEGRID_PLAY_WORK`: chafa's work factor for movie frames (debugging and measurements).
    public var playWorkFactor: Float? { variables["LIVEGRID_PLAY_WORK"].flatMap(Float.init) }
    /// `LIVEGRID_PLAY_RENDERER=chafa`: movie frames in symbol mode through chafa instead of quadrant cells
    /// (to compare cost and look).
    public var playFramesThroughChafa: Bool { variables["LIVEGRID_PLAY_RENDERER"] == "chafa" }
    /// `LIVEGRID_CURSES_PICTURES=1`: symbol pictures drawn through curses' colour pairs as before the direct
    /// cell writer (to compare bytes and look).
    public var picturesThroughCurses: Bool { variables["LIVEGRID_CURSES_PICTURES"] == "1" }
    /// `LIVEGRID_PICTURE_PACING=0`: pixel pictures go as soon as they are made, as before issue 28.4's pacing
    /// (the slow-link benchmark compares both in one build).
    public var pacesPictures: Bool { variables["LIVEGRID_PICTURE_PACING"] != "0" }
    /// `PATH`, with the usual directories when unset.
    public var executableSearchPath: String { variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin" }

    private static let installed = Locked(RuntimeEnvironment())

    /// The value the executable installed at start (empty in tests that install none).
    public static var launch: RuntimeEnvironment { installed.value }

    /// Called once by the executable at start, before any command runs.
    public static func install(_ environment: RuntimeEnvironment) { installed.set(environment) }
}
