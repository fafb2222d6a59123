import ArgumentParser
import Foundation
import MediaFormats

struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Write the still and the movie of a Live Photo or Motion Photo as two separate files.",
        discussion: """
        For a Motion Photo, the still is written without the embedded movie and without the Motion Photo \
        XMP, and the movie is copied byte for byte (.mp4). For a Live Photo (ITEM = its still), both files \
        are copied unchanged. Names never overwrite existing files.
        """
    )

    @Argument(help: "A Motion Photo, or the still of a Live Photo.", completion: .file())
    var item: String

    @Option(name: [.short, .customLong("output")], help: "Directory for the two files.", completion: .directory)
    var outputDirectory: String

    func run() throws {
        try LiveWriting.reportingErrors {
            let source = try FileByteSource(path: item)
            let info = MediaProbe.probe(source)
            let base = LiveWriting.baseName(item)
            if let embedded = info.embeddedMovie {
                guard info.format == .jpeg || info.format == .heif else {
                    throw LiveWriting.Failure("\(item): extracting from a \(info.format.plainName) Motion Photo is not supported yet (JPEG and HEIC only)")
                }
                let still = try LiveWriting.labelled(item) { try MediaWriting.stillWithoutMotion(source) }
                var movie = ByteAssembly()
                movie.append(range: embedded.range)
                let paths = try LiveWriting.writePair(directory: outputDirectory, base: base, extensions: [info.format == .heif ? "heic" : "jpg", "mp4"],
                                                      files: [(still, source), (movie, source)])
                HumanOutput.lines(paths)
                return
            }
            guard info.format.isStillImage else { throw LiveWriting.Failure("\(item): give the still of a Live Photo or a Motion Photo") }
            let moviePath = try LiveWriting.pairedMovie(
                of: item, advice: "extract needs a Live Photo (its movie in the same folder, with the same content identifier) or a Motion Photo")
            let movieSource = try FileByteSource(path: moviePath)
            var still = ByteAssembly(), movie = ByteAssembly()
            still.append(range: ByteRange(offset: 0, length: source.size))
            movie.append(range: ByteRange(offset: 0, length: movieSource.size))
            let stillExtension = (item as NSString).pathExtension.isEmpty ? "jpg" : (item as NSString).pathExtension
            let movieExtension = (moviePath as NSString).pathExtension.isEmpty ? "mov" : (moviePath as NSString).pathExtension
            let paths = try LiveWriting.writePair(directory: outputDirectory, base: base, extensions: [stillExtension, movieExtension],
                                                  files: [(still, source), (movie, movieSource)])
            HumanOutput.lines(paths)
        }
    }
}
