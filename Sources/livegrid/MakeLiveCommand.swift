import ArgumentParser
import Foundation
import Library
import LibrarySources
import LiveStudio
import MediaFormats

struct MakeLiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-live",
        abstract: "Make a Live Photo from any photo and video (new files; the inputs are never modified).",
        usage: "livegrid make-live <photo> <video> [<options>]",   // the full synopsis is wider than 80 columns
        discussion: """
        Writes a copy of PHOTO (JPEG or HEIC) with Apple MakerNote ContentIdentifier, and a copy of VIDEO (QuickTime \
        or MP4 with an H.264/HEVC video track; stream copy, nothing re-encoded) as a QuickTime movie with \
        the same com.apple.quicktime.content.identifier and a still-image-time track marking the still's \
        moment. An identifier already present in either input is reused (the photo's wins when they \
        differ); otherwise a new UUID is made. Both files are written atomically next to the photo (or \
        into --output) under names that collide with nothing, the movie before the still; on any error, \
        Ctrl-C, SIGTERM or SIGHUP no file is left behind. After a kill -9 at most the movie is left, and \
        the temporary file is removed by the next livegrid that writes into that folder.
        """
    )

    @Argument(help: "The still (JPEG or HEIC).", completion: .file())
    var photo: String

    @Argument(help: "The movie (QuickTime .mov or MP4 with a video track).", completion: .file())
    var video: String

    @Option(name: [.short, .customLong("output")], help: "Directory for the new files (default: the photo's directory).",
            completion: .directory)
    var outputDirectory: String?

    @Option(help: "Content identifier to use (a UUID; default: reuse one from the inputs or make one).")
    var identifier: String?

    @Option(help: "Moment of the still in the movie, in seconds (default: the middle of the movie).")
    var stillTime: Double?

    func run() throws {
        try LiveWriting.reportingErrors {
            let photoSource = try FileByteSource(path: photo)
            let videoSource = try FileByteSource(path: video)
            let photoInfo = MediaProbe.probe(photoSource)
            let videoInfo = MediaProbe.probe(videoSource)
            guard videoInfo.format.isMovie else {
                throw LiveWriting.Failure("\(video): not a QuickTime or MP4 movie (it is \(ConvertCommand.describe(videoInfo.format)))")
            }
            let id = try LiveWriting.chooseIdentifier(explicit: identifier, photo: photoInfo.contentIdentifier,
                                                      movie: videoInfo.contentIdentifier)
            let still = try LiveWriting.labelled(photo) {
                try MediaWriting.setContentIdentifier(still: photoSource, identifier: id)
            }
            let movie = try LiveWriting.labelled(video) {
                try MediaWriting.makeLivePhotoMovie(videoSource, identifier: id, stillTime: stillTime)
            }
            let directory = outputDirectory ?? LiveWriting.directory(of: photo)
            let base = LiveWriting.baseName(photo) + "-live"
            let paths = try LiveWriting.writePair(directory: directory, base: base, extensions: [photoInfo.format == .heif ? "HEIC" : "JPG", "MOV"],
                                                  files: [(still, photoSource), (movie, videoSource)])
            HumanOutput.lines(["Live Photo \(id)"] + paths.map { "  \($0)" })
        }
    }
}

/// What make-live, convert and extract share: identifiers, names that collide with nothing, writing
/// several files as one (all or none), and errors printed as one clear line.
enum LiveWriting {
    typealias Failure = StudioWriting.Failure

    /// Runs `body`; an error becomes `livegrid: <message>` on stderr and exit status 1.
    static func reportingErrors(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch {
            HumanOutput.error("\(error)")
            throw ExitCode(1)
        }
    }

    /// Prefixes a writer's error with the file it concerns.
    static func labelled<T>(_ path: String, _ body: () throws -> T) throws -> T { try StudioWriting.labelled(path, body) }

    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
        return groups == [8, 4, 4, 4, 12] && text.allSatisfy { $0 == "-" || $0.isHexDigit }
    }

    /// The explicit identifier, else the photo's, else the movie's, else a new one (upper-cased).
    static func chooseIdentifier(explicit: String?, photo: String?, movie: String?) throws -> String {
        if let explicit {
            guard isUUID(explicit) else { throw Failure("--identifier \(explicit) is not a UUID (8-4-4-4-12 hex digits)") }
            return explicit.uppercased()
        }
        if let photo, let movie, photo.uppercased() != movie.uppercased() {
            HumanOutput.error("the photo's identifier \(photo) differs from the movie's \(movie); using the photo's")
        }
        return (photo ?? movie)?.uppercased() ?? MediaWriting.newContentIdentifier()
    }

    static func directory(of path: String) -> String {
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }

    static func baseName(_ path: String) -> String { StudioWriting.baseName(path) }

    static func freeNames(directory: String, base: String, extensions: [String]) throws -> [String] {
        try StudioWriting.freeNames(directory: directory, base: base, extensions: extensions)
    }

    /// The pair as one (all or none): see `StudioWriting.writePair`.
    static func writePair(directory: String, base: String, extensions: [String],
                          files: [(ByteAssembly, any ByteSource)]) throws -> [String] {
        try StudioWriting.writePair(directory: directory, base: base, extensions: extensions, files: files)
    }
}
