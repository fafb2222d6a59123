/// Why a live item could not play: kept per item by the playback engine, carried as a value by
/// `PlaybackReport` into the state (issue 27.6); the status bar and the info panel make the sentence.
/// (Moved here from BrowserRuntime so that the reducer's actions can carry it.)
public enum PlaybackFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case noMovie(String)
    case cannotOpen(String)
    case cannotDecode(String)
    case noFrames
    case tooSmall

    public var description: String {
        switch self {
        case .noMovie(let path): return "no movie found for \(path)"
        case .cannotOpen(let why): return "cannot open its movie: \(why)"
        case .cannotDecode(let why): return "cannot play its movie: \(why)"
        case .noFrames: return "its movie has no playable frames"
        case .tooSmall: return "the picture is too small to play here"
        }
    }

    /// Failures that belong to the file (remembered), as opposed to the screen (a bigger cell may play).
    public var isPermanent: Bool { self != .tooSmall }
}
