import BrowserCore
import Foundation
import LivePairing
import MediaFormats

/// Where a movie to play lives, as a `ByteSource`: a movie file, or a Motion Photo's embedded movie read in
/// place through a slice of the still (never extracted to a temporary file).
public enum PlayableMovie {
    /// The movie of a library item, or nil when it has none (a plain still).
    public static func source(for item: LibraryItem) throws -> (any ByteSource)? {
        guard let playable = item.playableMovie else { return nil }
        return try source(path: playable.path, range: playable.range)
    }

    /// The whole file, or `range` of it.
    public static func source(path: String, range: ByteRange?) throws -> any ByteSource {
        let file = try FileByteSource(path: path)
        guard let range else { return file }
        return SliceByteSource(base: file, range: range)
    }

    /// The movie a file on the command line stands for: a movie file itself, a Motion Photo's embedded
    /// movie, or a Live Photo still's companion movie beside it (same base name, .mov/.MOV/.mp4).
    public static func locate(file path: String) throws -> (source: any ByteSource, description: String) {
        let info = try MediaProbe.probe(path: path)
        if info.format.isMovie { return (try source(path: path, range: nil), "movie") }
        if let embedded = info.embeddedMovie {
            return (try source(path: path, range: embedded.range), "embedded movie")
        }
        let url = URL(fileURLWithPath: path)
        let base = url.deletingPathExtension()
        for ext in ["mov", "MOV", "mp4", "MP4"] {
            let candidate = base.appendingPathExtension(ext).path
            guard PathBytes.exists(candidate) else { continue }
            let movieInfo = try? MediaProbe.probe(path: candidate)   // try?: an unreadable movie pairs by name alone
            if let stillID = info.contentIdentifier, let movieID = movieInfo?.contentIdentifier,
               stillID.uppercased() != movieID.uppercased() { continue }
            return (try source(path: candidate, range: nil), "companion movie \(candidate)")
        }
        throw PlaybackFailure.noMovie(path)
    }
}
