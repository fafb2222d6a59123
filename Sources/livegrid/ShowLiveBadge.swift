import Foundation
import LivePairing
import MediaFormats
import TerminalGraphics

/// Which mark `show` puts on a still: the same pairing the browser does (`LivePairer`), so a Live Photo still
/// whose movie is missing (or a Motion Photo whose embedded movie is broken) wears LIVE OFF, not LIVE.
enum ShowLiveBadge {
    static let movieExtensions: Set<String> = ["mov", "mp4", "m4v", "qt"]
    /// Folders with more movies than this are only searched by name (IMG_1234.MOV, IMG_1234_3.mov ...).
    static let folderMovieLimit = 500

    /// `info`: the probed still at `path`. nil: a plain still, no badge.
    static func variant(forStill path: String, info: MediaInfo) -> LiveBadge.Variant? {
        guard info.contentIdentifier != nil || info.embeddedMovie != nil else { return nil }
        guard let still = mediaFile(path, info: info) else { return .live }
        let movies = info.embeddedMovie == nil ? candidateMovies(beside: path, identifier: info.contentIdentifier) : []
        let item = LivePairer.pair([still] + movies).first { $0.files.contains { $0.path == still.path } }
        guard let item else { return .live }
        if item.liveOffReason != nil { return .liveOff }
        return item.kind.isLive ? .live : nil
    }

    /// The folder's movies named after the still first; the whole folder's when none of those pairs.
    static func candidateMovies(beside path: String, identifier: String?) -> [MediaFile] {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        let stem = url.deletingPathExtension().lastPathComponent.lowercased()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }   // try?: no partner found
        let movies = names.filter { movieExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
        let named = movies.filter { $0.lowercased().hasPrefix(stem) }
        let probe = { (names: [String]) -> [MediaFile] in
            names.compactMap { name in
                let moviePath = folder.appendingPathComponent(name).path
                // try?: a movie that cannot be probed is no candidate.
                return (try? MediaProbe.probe(path: moviePath)).flatMap { mediaFile(moviePath, info: $0) }
            }
        }
        let byName = probe(named)
        let identifier = identifier?.uppercased()
        if byName.contains(where: { $0.info.contentIdentifier?.uppercased() == identifier }) || movies.count > folderMovieLimit {
            return byName
        }
        return byName + probe(movies.filter { !named.contains($0) })
    }

    static func mediaFile(_ path: String, info: MediaInfo) -> MediaFile? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }   // try?: vanished = no file
        let size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        let time = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return MediaFile(path: path, size: size, modificationTime: time, info: info)
    }
}
