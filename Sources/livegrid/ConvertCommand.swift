import ArgumentParser
import Foundation
import Library
import LivePairing
import MediaFormats

struct ConvertCommand: ParsableCommand {
    enum Target: String, ExpressibleByArgument, CaseIterable {
        case live, motion
    }

    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a Motion Photo into a Live Photo, or a Live Photo into a Motion Photo (new files).",
        discussion: """
        --to live: ITEM is a Google/Samsung Motion Photo (JPEG, or HEIC with an mpvd box). The still (without \
        the movie and the Motion Photo XMP) gets a content identifier, and the embedded movie becomes a \
        QuickTime Live Photo movie (stream copy) whose still-image time comes from \
        MotionPhotoPresentationTimestampUs.

        --to motion: ITEM is the still of a Live Photo (its movie is found beside it by content identifier, \
        or given as MOVIE). The result is one file with Google Motion Photo XMP (Camera:MotionPhoto, \
        Container:Directory): a JPEG with the movie appended, or a HEIC with the movie in a final mpvd box.
        """
    )

    @Argument(help: "The Motion Photo, or the still of a Live Photo.", completion: .file())
    var item: String

    @Argument(help: "The Live Photo's movie (only with --to motion; default: found beside the still).", completion: .file())
    var movie: String?

    @Option(help: "What to make: live or motion.")
    var to: Target

    @Option(name: [.short, .customLong("output")], help: "Directory for the new files (default: the item's directory).",
            completion: .directory)
    var outputDirectory: String?

    func run() throws {
        try LiveWriting.reportingErrors {
            switch to {
            case .live: try motionToLive()
            case .motion: try liveToMotion()
            }
        }
    }

    func motionToLive() throws {
        guard movie == nil else { throw LiveWriting.Failure("--to live takes one Motion Photo, not a movie") }
        let source = try FileByteSource(path: item)
        let info = MediaProbe.probe(source)
        guard info.format == .jpeg || info.format == .heif else {
            throw LiveWriting.Failure("\(item): only JPEG and HEIC Motion Photos can be converted (this is \(Self.describe(info.format)))")
        }
        guard let embedded = info.embeddedMovie else {
            let why = info.problems.first { $0.severity == .error }.map { " (\($0.message))" } ?? ""
            throw LiveWriting.Failure("\(item): not a Motion Photo: no embedded movie found\(why)")
        }
        let id = try LiveWriting.chooseIdentifier(explicit: nil, photo: info.contentIdentifier, movie: nil)
        let stillOnly = try LiveWriting.labelled(item) { try MediaWriting.stillWithoutMotion(source).materialize(from: source) }
        let stillSource = MemoryByteSource(stillOnly)
        let still = try LiveWriting.labelled(item) { try MediaWriting.setContentIdentifier(still: stillSource, identifier: id) }
        let movieSource = SliceByteSource(base: source, range: embedded.range)
        let stillTime = embedded.presentationTimestampUs.flatMap { $0 >= 0 ? Double($0) / 1_000_000 : nil }
        let movieInfo = MediaProbe.probe(movieSource)
        // A timestamp past the end (or no duration known) falls back to the middle.
        let usable = stillTime.flatMap { t in (movieInfo.duration.map { t < $0 } ?? false) ? t : nil }
        let live = try LiveWriting.labelled(item) {
            try MediaWriting.makeLivePhotoMovie(movieSource, identifier: id, stillTime: usable)
        }
        let paths = try LiveWriting.writePair(directory: outputDirectory ?? LiveWriting.directory(of: item),
                                              base: LiveWriting.baseName(item) + "-live", extensions: [info.format == .heif ? "HEIC" : "JPG", "MOV"],
                                              files: [(still, stillSource), (live, movieSource)])
        HumanOutput.lines(["Live Photo \(id)"] + paths.map { "  \($0)" })
    }

    /// "a MOV movie", "a PNG" for a refusal (the corpus audit found "this is quickTime": an enum's raw value).
    static func describe(_ format: ContainerFormat) -> String {
        format == .unknown ? "not a format livegrid knows" : (format == .mp4 ? "an " : "a ") + format.plainName
    }

    func liveToMotion() throws {
        let stillSource = try FileByteSource(path: item)
        let stillInfo = MediaProbe.probe(stillSource)
        guard stillInfo.format == .jpeg || stillInfo.format == .heif else {
            throw LiveWriting.Failure("\(item): Motion Photos can only be made from JPEG or HEIC stills (this is \(Self.describe(stillInfo.format)))")
        }
        let moviePath = try movie ?? LiveWriting.pairedMovie(of: item)
        let movieSource = try FileByteSource(path: moviePath)
        let movieInfo = MediaProbe.probe(movieSource)
        guard movieInfo.format.isMovie else { throw LiveWriting.Failure("\(moviePath): not a QuickTime or MP4 movie") }
        let timestamp = movieInfo.stillImageTime.map { Int64(($0 * 1_000_000).rounded()) } ?? -1
        let still = try stillSource.readExactly(at: 0, count: Int(stillSource.size))
        let motion = try LiveWriting.labelled(item) {
            try MediaWriting.motionPhoto(still: still, movie: movieSource, presentationTimestampUs: timestamp)
        }
        let paths = try LiveWriting.writePair(directory: outputDirectory ?? LiveWriting.directory(of: item),
                                              base: LiveWriting.baseName(item) + "-motion", extensions: [stillInfo.format == .heif ? "heic" : "jpg"],
                                              files: [(motion, movieSource)])
        HumanOutput.lines(["Motion Photo (movie \(movieSource.size) bytes, still at \(timestamp) µs)"] + paths.map { "  \($0)" })
    }
}

extension LiveWriting {
    /// The movie paired with `still` in its directory (by content identifier, or by name when that is all
    /// there is), or a clear error ending in `advice` (what the calling command lets the user do about it).
    static func pairedMovie(of still: String,
                            advice: String = "give the movie as the second argument") throws -> String {
        let scan = try LibraryScanner.scan(directory: directory(of: still))
        // Absolute, standardised paths: "x.HEIC" and the scanner's "./x.HEIC" are the same file.
        func canonical(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
        let target = canonical(still)
        guard let item = scan.items.first(where: { $0.still.map { canonical($0.path) == target } ?? false }) else {
            throw Failure("\(still): not found by the scanner")
        }
        guard let movie = item.movie, item.kind == .live else {
            throw Failure("\(still): no paired movie beside it; \(advice)")
        }
        return movie.path
    }
}
