import Concurrent
import Imaging
import MediaFormats
import VideoPlayback

/// The sound track of the movie the cursor rests on, opened before the press (issue 29's start target): under
/// load, opening the track on the hold's own audio thread was one of the two waits of a slow start (275-290
/// ms of 400 in Benchmarks/sound.py's outliers; the other is the server's connection, which needs the track's
/// format first). One background thread opens the latest movie asked for and exits: nothing runs while the
/// cursor stays put, and a quick run of the cursor over many items opens at most the last one or two.
/// Only the header is read (`AudioDecoder`'s quick open); no sound server is asked before the press.
final class PreparedSoundTrack: Sendable {
    /// Which movie: a file, or a Motion Photo's embedded movie.
    struct Movie: Hashable, Sendable {
        var path: String
        var range: ByteRange?
    }

    /// An opened decoder, handed from the preparing thread to one player's audio thread (never used by two
    /// threads at once: it leaves the state when taken).
    // unchecked: owned by one thread at a time, see above.
    final class Opened: @unchecked Sendable {
        let decoder: AudioDecoder
        init(_ decoder: AudioDecoder) { self.decoder = decoder }
    }

    private struct State {
        var wanted: Movie?
        var ready: (movie: Movie, track: Opened)?
        var working = false
        /// The last movie whose track did not open: not tried again while the cursor stays on it.
        var refused: Movie?
        var attempts = 0
    }

    private let state = Locked(State())

    /// Opens `movie`'s sound track in the background unless it is the one wanted already (called on every loop
    /// turn while the cursor rests: cheap when nothing changed).
    func prepare(_ movie: Movie) {
        let start: Bool = state.withLockedValue { state in
            guard state.wanted != movie, state.refused != movie else { return false }
            state.wanted = movie
            if let ready = state.ready, ready.movie != movie { state.ready = nil }
            guard !state.working else { return false }
            state.working = true
            return true
        }
        if start { NamedThread.start("livegrid.audio.prepare") { [self] in work() } }
    }

    /// The opened track of `movie`, if it is ready (taken: the next rest prepares again).
    func take(_ movie: Movie) -> Opened? {
        state.withLockedValue { state in
            state.wanted = nil
            guard let ready = state.ready, ready.movie == movie else { return nil }
            state.ready = nil
            return ready.track
        }
    }

    /// The movie whose track is open and waiting, if any (for tests: `take` would consume it).
    var readyMovie: Movie? { state.withLockedValue { $0.ready?.movie } }
    /// Opens tried so far, and whether the thread is still at it (for tests).
    var progress: (attempts: Int, working: Bool) { state.withLockedValue { ($0.attempts, $0.working) } }

    /// Forgets what was prepared (sound turned off).
    func clear() {
        state.withLockedValue { state in
            state.wanted = nil
            state.ready = nil
            state.refused = nil
        }
    }

    private func work() {
        while true {
            let next: Movie? = state.withLockedValue { state in
                guard let wanted = state.wanted, state.ready?.movie != wanted else {
                    state.working = false
                    return nil
                }
                state.attempts += 1
                return wanted
            }
            guard let next else { return }
            let opened = Self.open(next)
            state.withLockedValue { state in
                if let opened {
                    if state.wanted == next { state.ready = (next, opened) }
                } else {
                    // Not asked again until the cursor moves: the press opens it itself and says why.
                    state.refused = next
                    if state.wanted == next { state.wanted = nil }
                }
            }
        }
    }

    private static func open(_ movie: Movie) -> Opened? {
        do {
            let source = try PlayableMovie.source(path: movie.path, range: movie.range)
            return Opened(try AudioDecoder(source: source))
        } catch {
            return nil   // no track, no file, a damaged header: the press finds out again and says why
        }
    }
}
