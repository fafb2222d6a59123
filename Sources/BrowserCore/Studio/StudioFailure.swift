/// Why a key-photo step or an effect preview failed, kept as a value from the studio's worker through the
/// action and the state (issue 27.6); the status bar and the export dialog make the sentence (`description`).
/// `cause` is the failing library's own words (the decoder's, the writer's), said after ours.
public enum StudioFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The item has no movie to take frames from.
    case noMovie(itemName: String)
    /// The movie's frame times cannot be read.
    case framesUnreadable(cause: String)
    /// The movie has no frame at that time.
    case noFrame(seconds: Double)
    /// The frame at that time is there but does not decode (or cannot be drawn).
    case frameUndecodable(seconds: Double, cause: String)
    /// The new Live Photo could not be written; nothing was.
    case notWritten(cause: String)
    /// An effect's preview could not be rendered.
    case effectNotRendered(cause: String)

    public var description: String {
        switch self {
        case .noMovie(let name): return "\(name) has no movie"
        case .framesUnreadable(let cause): return "the movie's frames cannot be read (\(cause))"
        case .noFrame(let seconds): return "no frame at \(KeyPhotoPicker.seconds(seconds)) s"
        case .frameUndecodable(let seconds, let cause):
            return "the frame at \(KeyPhotoPicker.seconds(seconds)) s does not decode (\(cause))"
        case .notWritten(let cause): return "nothing written: \(cause)"
        case .effectNotRendered(let cause): return cause
        }
    }
}
