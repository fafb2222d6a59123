import ArgumentParser
import BrowserRuntime
import Foundation
import LibraryCore
import LibrarySources
import Imaging
import LiveStudio
import Library
import LivePairing
import MediaFormats

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit a Live Photo into a new one: key photo, trim, mute, crop and colour (originals untouched).",
        usage: "livegrid edit <item> (-o <dir> | --preview) [<options>]",
        discussion: """
        ITEM is the still or the movie of a Live Photo. The result is a new still + movie pair in DIR with the \
        same content identifier, written atomically (the movie first); the originals are never modified.

        --key-photo-at makes the frame at that time the new still (full movie resolution, JPEG, the \
        original's Exif and MakerNote kept, orientation upright) and moves the movie's still-image time \
        to it; the movie itself is stream-copied. --trim keeps START:END seconds: a stream copy when START \
        falls on a keyframe, else the pictures are re-encoded with the same codec (H.264 or HEVC). --mute \
        removes the sound (its bytes too) and keeps every other track. --crop, --exposure, --contrast, \
        --saturation and --black-and-white change the still and every movie frame through the same \
        libavfilter filters. When an adjustment cannot be made to both halves, the only way offered is \
        `livegrid export ITEM --as still`.

        --preview plays the edit in the terminal instead, as `livegrid play` does: the kept range only, with \
        its sound through PulseAudio or PipeWire (silent with --mute, as the edit is, or with --no-sound), \
        then the new key photo stays on screen. The preview shows the trim, the sound and the key photo, not \
        the crop or the colour adjustments, and it writes nothing (with -o too).
        """
    )

    @Argument(help: "The still or the movie of a Live Photo.", completion: .file())
    var item: String

    @Option(name: [.short, .customLong("output")], help: "Directory for the new Live Photo (must exist).", completion: .directory)
    var outputDirectory: String?

    @Option(name: .customLong("key-photo-at"), help: "Seconds into the movie of the new key photo.")
    var keyPhotoAt: Double?

    @Option(help: "Keep START:END seconds of the movie (e.g. 0.5:2.5).")
    var trim: String?

    @Flag(help: "Remove the sound.")
    var mute = false

    @Option(help: "Crop both halves to an aspect ratio W:H (e.g. 1:1, 4:5, 16:9).")
    var crop: String?

    @Option(help: "Exposure in stops (-4...4).")
    var exposure: Double?

    @Option(help: "Contrast (0...2, 1 = unchanged).")
    var contrast: Double?

    @Option(help: "Saturation (0...3, 1 = unchanged).")
    var saturation: Double?

    @Flag(name: .customLong("black-and-white"), help: "Black and white.")
    var blackAndWhite = false

    @Flag(name: .customLong("list-frames"), help: "List the movie's frame times (the key photo's marked) and write nothing.")
    var listFrames = false

    @Flag(help: "Play the edit in the terminal (the kept range, with its sound unless muted), then show its key photo; write nothing.")
    var preview = false

    @Flag(name: .customLong("no-sound"), help: "With --preview: play the preview silent (the edit keeps its sound).")
    var noSound = false

    @OptionGroup(title: "Preview") var screen: TerminalAreaOptions

    func validate() throws {
        if noSound && !preview {
            throw ValidationError("--no-sound goes with --preview (to remove the sound from the edit, give --mute)")
        }
    }

    func run() throws {
        try LiveWriting.reportingErrors {
            if listFrames {
                HumanOutput.lines(try StudioEditor.frameList(item))
                return
            }
            let request = try StudioEditRequest(keyPhotoAt: keyPhotoAt, trim: trim, mute: mute, crop: crop,
                                                exposure: exposure, contrast: contrast, saturation: saturation,
                                                blackAndWhite: blackAndWhite)
            if preview { return try runPreview(request) }
            guard let outputDirectory else { throw LiveWriting.Failure("-o DIR is needed: the directory for the new Live Photo") }
            // Before any work, and in the folder's own words: a read-only one used to fail on the studio's
            // hidden temporary's name.
            do {
                try FileGroupTransfer.checkDestination(outputDirectory)
            } catch {
                throw LiveWriting.Failure("\(error)")
            }
            let result = try StudioEditor(item: item, outputDirectory: outputDirectory, request: request).run()
            HumanOutput.lines(result)
        }
    }
}

extension EditCommand {
    /// `--preview`: the kept range played with its sound (the one player, as `livegrid play`), then the key
    /// photo the edit would write, drawn over the last frame. Nothing is written.
    func runPreview(_ request: StudioEditRequest) throws {
        // The plan reads only the item: the output directory plays no part in it.
        let plan = try StudioEditor(item: item, outputDirectory: outputDirectory ?? ".", request: request).plan()
        let movie: any ByteSource
        do {
            movie = try PlayableMovie.source(path: plan.moviePath, range: nil)
        } catch {
            throw LiveWriting.Failure(describe(error, of: plan.moviePath))
        }
        let (area, capabilities) = screen.resolve()
        let movieScreen = MovieScreen(area: area, capabilities: capabilities)
        movieScreen.begin()
        defer {
            movieScreen.end()
            HumanOutput.note(outputDirectory.map { "preview only: nothing was written to \($0) (run again without --preview to write the edit)" }
                             ?? "preview only: nothing was written")
        }
        // The edit's --mute takes the sound out of the result, so its preview is silent too.
        let played = try movieScreen.play(movie, startTime: plan.range.start, endTime: plan.range.end, muted: mute || noSound)
        if case .failed(let error) = played.end { throw LiveWriting.Failure(describe(error, of: plan.moviePath)) }
        do {
            movieScreen.show(try Self.keyPhoto(plan, fitting: movieScreen.target), after: played)
        } catch {
            // The preview played; a key photo that cannot be decoded leaves its last frame, and says why.
            HumanOutput.note("the key photo cannot be shown: \(describe(error, of: plan.newStillFromMovie ? plan.moviePath : plan.stillPath))")
        }
    }

    /// The key photo the edit would write, unadjusted: the movie's frame at the key time when the still comes
    /// from the movie (--key-photo-at, or a still trimmed away), else the original still.
    static func keyPhoto(_ plan: StudioEditor.Plan, fitting box: PixelSize) throws -> PixelFrame {
        if plan.newStillFromMovie {
            guard let frame = try MovieDecoder(path: plan.moviePath).frame(at: plan.keyTime, fitting: box) else {
                throw LiveWriting.Failure("no frame at \(plan.keyTime) s")
            }
            return frame.pixels
        }
        return try ImageDecoder.decode(path: plan.stillPath, fitting: box).frame
    }
}

/// What the user asked `edit` to do, checked (the request itself lives in LiveStudio).
extension StudioEditRequest {
    init(keyPhotoAt: Double?, trim: String?, mute: Bool, crop: String?, exposure: Double?, contrast: Double?,
         saturation: Double?, blackAndWhite: Bool) throws {
        if let keyPhotoAt, !keyPhotoAt.isFinite || keyPhotoAt < 0 {
            throw LiveWriting.Failure("--key-photo-at takes seconds from the start of the movie (0 or more)")
        }
        let trim = try trim.map(Self.range)
        var adjustments = StudioAdjustments(exposure: exposure ?? 0, contrast: contrast ?? 1, saturation: saturation ?? 1,
                                            blackAndWhite: blackAndWhite)
        if let crop { adjustments.aspectRatio = try Self.ratio(crop) }
        if let problem = adjustments.problem { throw LiveWriting.Failure(problem) }
        guard keyPhotoAt != nil || trim != nil || mute || !adjustments.isEmpty else {
            throw LiveWriting.Failure("nothing to do: give --key-photo-at, --trim, --mute or an adjustment (see livegrid edit --help)")
        }
        self.init(keyPhotoAt: keyPhotoAt, trim: trim, mute: mute, adjustments: adjustments)
    }

    static func range(_ text: String) throws -> (start: Double, end: Double) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Double(parts[0]), let end = Double(parts[1]), start.isFinite, end.isFinite,
              start >= 0, end > start else {
            throw LiveWriting.Failure("--trim takes START:END in seconds with START < END (e.g. 0.5:2.5), not \(text)")
        }
        return (start, end)
    }

    static func ratio(_ text: String) throws -> (width: Int, height: Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...100).contains(w), (1...100).contains(h) else {
            throw LiveWriting.Failure("--crop takes a ratio like 1:1, 4:5 or 16:9, not \(text)")
        }
        return (w, h)
    }
}
