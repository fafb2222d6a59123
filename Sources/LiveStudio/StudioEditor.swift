import Foundation
import Imaging
import Library
import LivePairing
import MediaFormats

/// `livegrid edit` and the browser's key-photo mode: makes the new still and the new movie of an edited Live Photo and writes them as a
/// pair (`StudioWriting.writePair`: temporaries renamed into place, movie first, nothing left on failure).
/// Intermediate movies (trim, mute, re-encode) go to temporaries beside the output that are never
/// committed, so they vanish on success, failure and Ctrl-C alike.
public struct StudioEditor: Sendable {
    public let item: String
    public let outputDirectory: String
    public let request: StudioEditRequest

    public init(item: String, outputDirectory: String, request: StudioEditRequest) {
        self.item = item
        self.outputDirectory = outputDirectory
        self.request = request
    }

    /// What an edit wrote: the pair's paths (still first) and what the CLI prints about it.
    public struct Written: Sendable {
        public var identifier: String
        public var paths: [String]
        public var notes: [String]
        /// "Live Photo ID", the paths, the notes: the lines `livegrid edit` prints.
        public var lines: [String] { ["Live Photo \(identifier)"] + paths.map { "  \($0)" } + notes.map { "  \($0)" } }
    }

    /// Writes the new Live Photo; returns the lines that describe it (the identifier, the two paths, notes).
    public func run() throws -> [String] { try write().lines }

    /// What an edit of `item` keeps and where its key photo comes from, checked against the movie before
    /// anything is rendered: `write` and `edit --preview` share it.
    public struct Plan {
        public var stillPath: String
        public var moviePath: String
        /// The kept range of the movie, in seconds of the original.
        public var range: (start: Double, end: Double)
        /// The key photo's time in the original movie.
        public var keyTime: Double
        /// The new still is the movie's frame at `keyTime` (else the original still, perhaps adjusted).
        public var newStillFromMovie: Bool
        var stillSource: FileByteSource
        var movieSource: FileByteSource
        var stillInfo: MediaInfo
        var movieInfo: MediaInfo
        var frameDuration: Double
    }

    /// The checked plan of the edit (plain failures for a trim or key photo outside the movie).
    public func plan() throws -> Plan {
        let (stillPath, moviePath) = try Self.livePhoto(item)
        let stillSource = try FileByteSource(path: stillPath)
        let movieSource = try FileByteSource(path: moviePath)
        let stillInfo = MediaProbe.probe(stillSource)
        let movieInfo = MediaProbe.probe(movieSource)
        guard movieInfo.format.isMovie else { throw StudioWriting.Failure("\(moviePath): not a QuickTime or MP4 movie") }
        guard let duration = movieInfo.duration, duration > 0 else {
            throw StudioWriting.Failure("\(moviePath): the movie has no duration (truncated or damaged?)")
        }
        let frameDuration = 1 / (movieInfo.frameRate.flatMap { $0 > 0 ? $0 : nil } ?? 30)

        // The kept range and the key photo's time inside it.
        let range: (start: Double, end: Double) = try request.trim.map { trim -> (start: Double, end: Double) in
            guard trim.start < duration - frameDuration / 2 else {
                throw StudioWriting.Failure("--trim starts at \(Self.seconds(trim.start)) s, but the movie is \(Self.seconds(duration)) s long")
            }
            return (trim.start, min(trim.end, duration))
        } ?? (0, duration)
        if let keyPhotoAt = request.keyPhotoAt {
            guard keyPhotoAt < duration else {
                throw StudioWriting.Failure("--key-photo-at \(Self.seconds(keyPhotoAt)) s is past the end of the \(Self.seconds(duration)) s movie")
            }
            guard keyPhotoAt >= range.start - 1e-6, keyPhotoAt < range.end else {
                throw StudioWriting.Failure("the key photo (\(Self.seconds(keyPhotoAt)) s) must lie inside the kept range \(Self.seconds(range.start))-\(Self.seconds(range.end)) s")
            }
        }
        let originalStillTime = movieInfo.stillImageTime ?? duration / 2
        // A key photo trimmed away moves to the nearest kept frame.
        let keyTime = request.keyPhotoAt ?? min(max(originalStillTime, range.start), range.end - frameDuration / 2)
        let newStillFromMovie = request.keyPhotoAt != nil || abs(keyTime - originalStillTime) > frameDuration / 2

        return Plan(stillPath: stillPath, moviePath: moviePath, range: range, keyTime: keyTime,
                    newStillFromMovie: newStillFromMovie, stillSource: stillSource, movieSource: movieSource,
                    stillInfo: stillInfo, movieInfo: movieInfo, frameDuration: frameDuration)
    }

    /// Writes the new Live Photo (the browser's key-photo mode calls this off the draw loop).
    public func write() throws -> Written {
        guard PathBytes.isDirectory(outputDirectory) else { throw StudioWriting.Failure("\(outputDirectory): no such directory") }
        let plan = try self.plan()
        let (stillPath, moviePath, range, keyTime) = (plan.stillPath, plan.moviePath, plan.range, plan.keyTime)
        let (stillSource, movieSource, stillInfo, movieInfo) = (plan.stillSource, plan.movieSource, plan.stillInfo, plan.movieInfo)
        let (frameDuration, newStillFromMovie) = (plan.frameDuration, plan.newStillFromMovie)
        let (identifier, identifierNote) = StudioWriting.identifier(photo: stillInfo.contentIdentifier, movie: movieInfo.contentIdentifier)

        var notes: [String] = identifierNote.map { [$0] } ?? []
        // The still.
        let stillBytes: [UInt8]?
        var frameTime = keyTime
        if newStillFromMovie {
            try Self.requireRewritable(stillInfo, stillPath)
            let frame = try Self.studio { try StudioRenderer.frame(ofMovie: movieSource, at: keyTime, adjustments: request.adjustments) }
            frameTime = frame.time
            stillBytes = try Self.encodeStill(frame.image, like: stillSource, format: stillInfo.format)
            notes.append("key photo: the frame at \(Self.seconds(frameTime)) s (\(frame.image.width)×\(frame.image.height))")
        } else if !request.adjustments.isEmpty {
            try Self.requireRewritable(stillInfo, stillPath)
            let decoded: DecodedImage
            do {
                decoded = try ImageDecoder.decode(source: stillSource, info: stillInfo, fitting: PixelSize(width: 32768, height: 32768))
            } catch {
                throw StudioWriting.Failure("\(stillPath): \(error)")
            }
            if let damage = decoded.damage { throw StudioWriting.Failure("\(stillPath): the still is damaged (\(damage)); nothing was written") }
            let image = try Self.studio { try StudioRenderer.adjusted(decoded.frame, adjustments: request.adjustments) }
            stillBytes = try Self.encodeStill(image, like: stillSource, format: stillInfo.format)
        } else {
            stillBytes = nil
        }
        let stillBase: any ByteSource = stillBytes.map { MemoryByteSource($0) } ?? stillSource
        let still = try StudioWriting.labelled(stillPath) { try MediaWriting.setContentIdentifier(still: stillBase, identifier: identifier) }

        // The movie.
        var scratch: [AtomicFileWriter] = []
        defer { scratch.forEach { $0.abort() } }
        func scratchWriter() throws -> AtomicFileWriter {
            let writer = try AtomicFileWriter(destination: (outputDirectory as NSString).appendingPathComponent(".livegrid-edit-movie"))
            scratch.append(writer)
            return writer
        }
        var movieBase: any ByteSource = movieSource
        let reencode = !request.adjustments.isEmpty
        if request.trim != nil || reencode {
            let path = try scratchWriter().temporaryPath
            var rendered: StudioRenderer.RenderedMovie?
            if !reencode {
                rendered = try Self.studio { try StudioRenderer.streamCopyTrim(movieSource, to: path, trim: range, keepAudio: !request.mute) }
            }
            if rendered == nil {
                do {
                    rendered = try StudioRenderer.renderMovie(movieSource, to: path, trim: range, adjustments: request.adjustments,
                                                              keepAudio: !request.mute)
                } catch {
                    // The still could take the change but the movie cannot: Apple's rule is to offer a still.
                    let what = reencode ? "the adjustment cannot reach both halves" : "the trim cannot be made"
                    throw StudioWriting.Failure("\(moviePath): the movie cannot be re-encoded (\(error)), so \(what); convert to a still instead: livegrid export ITEM --as still")
                }
            }
            if let rendered, rendered.duration < range.end - range.start - 2.5 * frameDuration {
                // A damaged movie decodes short: refuse rather than write a Live Photo missing its end.
                throw StudioWriting.Failure("\(moviePath): the movie is damaged: only \(Self.seconds(rendered.duration)) s of the \(Self.seconds(range.end - range.start)) s could be decoded; nothing was written (convert to a still instead: livegrid export ITEM --as still)")
            }
            if let rendered {
                notes.append("movie: \(Self.seconds(rendered.duration)) s, \(rendered.frameCount) frames, "
                             + (rendered.streamCopied ? "stream copy" : "re-encoded (\(movieInfo.videoCodec == "hevc" ? "HEVC, libx265" : "H.264, libx264"))"))
            }
            movieBase = try FileByteSource(path: path)
        } else if request.mute {
            let writer = try scratchWriter()
            let silent = try StudioWriting.labelled(moviePath) { try MediaWriting.movieWithoutAudio(movieSource) }
            try silent.stream(from: movieSource) { try writer.write($0) }
            movieBase = try FileByteSource(path: writer.temporaryPath)
        }
        // A trimmed movie starts at the range's start.
        let newStillTime = max(0, frameTime - (request.trim != nil || reencode ? range.start : 0))
        let movie = try StudioWriting.labelled(moviePath) {
            try MediaWriting.makeLivePhotoMovie(movieBase, identifier: identifier, stillTime: newStillTime)
        }
        if request.mute { notes.append("sound removed") }
        let paths = try StudioWriting.writePair(directory: outputDirectory, base: StudioWriting.baseName(stillPath) + "-edit",
                                              extensions: [stillInfo.format == .heif ? "HEIC" : "JPG", "MOV"],
                                              files: [(still, stillBase), (movie, movieBase)])
        notes.append("still-image time: \(Self.seconds(newStillTime)) s")
        return Written(identifier: identifier, paths: paths, notes: notes)
    }

    /// `edit --list-frames`: every frame's number and time, the one at the still-image time marked: what
    /// a user steps through to choose `--key-photo-at`.
    public static func frameList(_ item: String) throws -> [String] {
        let (_, moviePath) = try livePhoto(item)
        let source = try FileByteSource(path: moviePath)
        let stillTime = MediaProbe.probe(source).stillImageTime
        let times = try studio { try StudioRenderer.frameTimes(ofMovie: source) }
        let key = stillTime.flatMap { t in times.lastIndex { $0 <= t + 0.0005 } }
        return times.enumerated().map { index, time in
            "\(index == key ? "*" : " ") frame \(index): \(seconds(time)) s"
        }
    }

    /// Only JPEG and HEIC stills can be written again; for anything else the one way offered is a still.
    static func requireRewritable(_ info: MediaInfo, _ path: String) throws {
        guard info.format == .jpeg || info.format == .heif else {
            throw StudioWriting.Failure("\(path): a \(info.format.plainName) still cannot be rewritten, so the change cannot reach both halves; convert to a still instead: livegrid export ITEM --as still")
        }
    }

    /// The new still in the original's format with the original's Exif (MakerNote and identifier included).
    static func encodeStill(_ image: RGBImage, like original: any ByteSource, format: ContainerFormat) throws -> [UInt8] {
        if format == .heif {
            let bytes = try original.readExactly(at: 0, count: Int(original.size))
            return try studio { try image.heic(exifOf: bytes) }
        }
        return try MediaWriting.jpegCarryingExif(of: original, newJPEG: try studio { try image.jpeg() })
    }

    /// The still and movie paths of the Live Photo `path` belongs to, or a plain reason why not.
    public static func livePhoto(_ path: String) throws -> (still: String, movie: String) {
        let resolved: LibraryItem
        do {
            guard let first = try ItemResolver.resolve([path]).first else { throw StudioWriting.Failure("\(path): not found") }
            resolved = first
        } catch let failure as StudioWriting.Failure {
            throw failure
        } catch {
            throw StudioWriting.Failure("\(error)")
        }
        switch resolved.kind {
        case .live:
            guard let still = resolved.still?.path, let movie = resolved.movie?.path else {
                throw StudioWriting.Failure("\(path): the Live Photo is missing a half")
            }
            return (still, movie)
        case .motion:
            throw StudioWriting.Failure("\(path): a Motion Photo; make it a Live Photo first (livegrid convert --to live)")
        default:
            if let reason = resolved.liveOffReason { throw StudioWriting.Failure("\(path): not a Live Photo (\(reason))") }
            throw StudioWriting.Failure("\(path): not a Live Photo (no still and movie sharing a content identifier beside it)")
        }
    }

    /// Runs a studio renderer, its `LibavError` turned into the CLI's plain failure.
    public static func studio<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as LibavError { throw StudioWriting.Failure(error.description) }
    }

    public static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
}
