import Foundation
import Imaging
import Library
import LivePairing
import MediaFormats
import TestSupport
import XCTest

/// `livegrid edit` (issue 20: key photo, trim, mute, adjustments) run as a user would on copies; every
/// output is checked by the in-process scanner and by exiftool/ffprobe, and the originals stay byte-identical.
final class StudioEditTests: StudioCommandTestCase {
    override class var folderPrefix: String { "studio-edit" }

    /// train.jpg + train.mov (iPhone 6s, 1440×1080 H.264, PCM sound, 1.23 s) copied into the test directory.
    func trainPair() throws -> (still: String, movie: String) {
        let still = dir.appendingPathComponent("train.jpg").path, movie = dir.appendingPathComponent("train.mov").path
        try FileManager.default.copyItem(atPath: try Fixtures.shared("train.jpg"), toPath: still)
        try FileManager.default.copyItem(atPath: try Fixtures.shared("train.mov"), toPath: movie)
        return (still, movie)
    }

    /// A generated Live Photo: a 320×240 testsrc2 clip at 30 fps (keyframe every `gop` frames, no B-frames,
    /// with a sine sound), its still the frame at `stillTime`, paired by make-live. Needs only ffmpeg.
    func generatedPair(seconds: Double = 3, gop: Int = 30, stillTime: Double = 1.5, codec: String = "libx264",
                       size: String = "320x240") throws -> (still: String, movie: String) {
        let clip = dir.appendingPathComponent("gen-src.mov").path
        let frame = dir.appendingPathComponent("gen-src.jpg").path
        _ = try tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=duration=\(seconds):size=\(size):rate=30",
                                "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)",
                                "-c:v", codec, "-g", "\(gop)", "-bf", "0", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
                                "-map_metadata", "-1", "-y", clip])
        _ = try tool("ffmpeg", ["-v", "error", "-ss", "\(stillTime)", "-i", clip, "-frames:v", "1", "-q:v", "2", "-y", frame])
        guard FileManager.default.fileExists(atPath: clip), FileManager.default.fileExists(atPath: frame) else {
            throw MissingRequirement.Failure(description: "ffmpeg could not make the generated clip")
        }
        let made = try livegrid(["make-live", frame, clip, "--still-time", "\(stillTime)"])
        XCTAssertEqual(made.status, 0, made.err)
        try FileManager.default.removeItem(atPath: clip)
        try FileManager.default.removeItem(atPath: frame)
        return (dir.appendingPathComponent("gen-src-live.JPG").path, dir.appendingPathComponent("gen-src-live.MOV").path)
    }

    func snapshot(_ paths: [String]) throws -> [Data] { try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } }

    /// The one live item in the output directory.
    func editedItem() throws -> LibraryItem {
        let scan = try LibraryScanner.scan(directory: out)
        let live = scan.items.filter { $0.kind == .live }
        XCTAssertEqual(live.count, 1, "items: \(scan.items.map { "\($0.kind) \($0.displayName)" })")
        return try XCTUnwrap(live.first)
    }

    func identifiers(still: String, movie: String) throws -> (still: String, movie: String) {
        let a = try tool("exiftool", ["-s3", "-MediaGroupUUID", still]).trimmingCharacters(in: .whitespacesAndNewlines)
        let b = try tool("exiftool", ["-s3", "-ContentIdentifier", movie]).trimmingCharacters(in: .whitespacesAndNewlines)
        return (a, b)
    }

    func streams(_ movie: String) throws -> [String] {
        try tool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", movie])
            .split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    func videoDuration(_ movie: String) throws -> Double {
        let text = try tool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=duration", "-of", "csv=p=0", movie])
        return try XCTUnwrap(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), text)
    }

    // MARK: key photo

    func testKeyPhotoOnTheTrainPair() throws {
        let pair = try trainPair()
        let before = try snapshot([pair.still, pair.movie])
        let original = try identifiers(still: pair.still, movie: pair.movie)
        let result = try livegrid(["edit", pair.still, "--key-photo-at", "0.8", "-o", out])
        XCTAssertEqual(result.status, 0, result.err)
        let item = try editedItem()
        let still = try XCTUnwrap(item.still?.path), movie = try XCTUnwrap(item.movie?.path)
        XCTAssertTrue(still.hasSuffix(".JPG"))
        // Same content identifier on both halves, read by exiftool.
        let ids = try identifiers(still: still, movie: movie)
        XCTAssertEqual(ids.still, original.still)
        XCTAssertEqual(ids.movie, original.movie)
        XCTAssertFalse(ids.still.isEmpty)
        // Still-image time within one frame (29.97 fps) of the chosen key photo.
        XCTAssertEqual(try XCTUnwrap(item.movie?.info.stillImageTime), 0.8, accuracy: 1 / 29.97)
        // The still: the movie's full resolution, the camera's Exif kept, upright.
        let exif = try tool("exiftool", ["-s", "-ImageSize", "-Make", "-Model", "-Orientation", "-ExposureTime", still])
        XCTAssertTrue(exif.contains("1440x1080"), exif)
        XCTAssertTrue(exif.contains("iPhone 6s"), exif)
        XCTAssertTrue(exif.contains("Horizontal (normal)"), exif)
        XCTAssertTrue(exif.contains("ExposureTime"), exif)
        // The movie is a stream copy: same video and sound packets.
        XCTAssertEqual(try ExternalTool.packetHash(movie, stream: "v"), try ExternalTool.packetHash(pair.movie, stream: "v"))
        XCTAssertEqual(try ExternalTool.packetHash(movie, stream: "a"), try ExternalTool.packetHash(pair.movie, stream: "a"))
        XCTAssertEqual(try snapshot([pair.still, pair.movie]), before, "the originals changed")
    }

    func testKeyPhotoStillIsTheMovieFrameAtTheStillImageTime() throws {
        let pair = try generatedPair()
        let result = try livegrid(["edit", pair.movie, "--key-photo-at", "2.2", "-o", out])
        XCTAssertEqual(result.status, 0, result.err)
        let item = try editedItem()
        let stillTime = try XCTUnwrap(item.movie?.info.stillImageTime)
        XCTAssertEqual(stillTime, 2.2, accuracy: 1 / 30.0)
        let still = try ImageDecoder.decode(path: try XCTUnwrap(item.still?.path), fitting: PixelSize(width: 4096, height: 4096)).frame
        let frame = try StudioRenderer.frame(ofMovie: try FileByteSource(path: try XCTUnwrap(item.movie?.path)), at: stillTime).image
        let rgb = RGBImage(width: still.width, height: still.height,
                           rgb: still.rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element))
        // JPEG (quality 92, 4:2:0) against the decoded movie frame: a few levels on testsrc2's sharp edges;
        // the frame a second away (testsrc2 moves) differs by far more.
        let match = try XCTUnwrap(rgb.meanDifference(to: frame))
        XCTAssertLessThan(match, 5)
        let other = try StudioRenderer.frame(ofMovie: try FileByteSource(path: try XCTUnwrap(item.movie?.path)), at: 1.0).image
        XCTAssertGreaterThan(try XCTUnwrap(rgb.meanDifference(to: other)), 2 * match)
    }

    func testListFramesMarksTheKeyPhotoAndEveryFrameTimeIsAValidKeyPhoto() throws {
        let pair = try generatedPair(seconds: 1, stillTime: 0.5)
        let listed = try livegrid(["edit", pair.still, "--list-frames"])
        XCTAssertEqual(listed.status, 0, listed.err)
        let lines = listed.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 30)
        XCTAssertEqual(lines.filter { $0.hasPrefix("*") }, ["* frame 15: 0.500 s"])
        // The time printed for frame 22 picks exactly that frame.
        let time = try XCTUnwrap(lines[22].split(separator: " ").dropLast().last.map(String.init))
        let result = try livegrid(["edit", pair.still, "--key-photo-at", time, "-o", out])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("the frame at \(time) s"), result.out)
        XCTAssertEqual(try XCTUnwrap(try editedItem().movie?.info.stillImageTime), 22.0 / 30, accuracy: 0.002)
    }

    // MARK: trim and mute

    func testTrimOnAKeyframeIsAStreamCopy() throws {
        let pair = try generatedPair(gop: 30, stillTime: 1.5)
        let before = try snapshot([pair.still, pair.movie])
        let result = try livegrid(["edit", pair.still, "--trim", "1:2.5", "-o", out])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("stream copy"), result.out)
        let item = try editedItem()
        let movie = try XCTUnwrap(item.movie?.path), still = try XCTUnwrap(item.still?.path)
        XCTAssertEqual(try videoDuration(movie), 1.5, accuracy: 1.01 / 30)
        XCTAssertEqual(try streams(movie).filter { $0 == "audio" }.count, 1)
        // The key photo (1.5 s) was kept: now 0.5 s into the trimmed movie, and the still is unchanged.
        XCTAssertEqual(try XCTUnwrap(item.movie?.info.stillImageTime), 0.5, accuracy: 1 / 30.0)
        let ids = try identifiers(still: still, movie: movie)
        XCTAssertEqual(ids.still, ids.movie)
        XCTAssertEqual(ids.still, try identifiers(still: pair.still, movie: pair.movie).still)
        XCTAssertEqual(try snapshot([pair.still, pair.movie]), before)
    }

    func testTrimBetweenKeyframesReencodesWithTheSameCodec() throws {
        for codec in ["libx264", "libx265"] {
            try? FileManager.default.removeItem(atPath: out)
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let pair = try generatedPair(gop: 30, stillTime: 1.5, codec: codec)
            let result = try livegrid(["edit", pair.movie, "--trim", "0.5:2", "-o", out])
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertTrue(result.out.contains("re-encoded"), result.out)
            let item = try editedItem()
            let movie = try XCTUnwrap(item.movie?.path)
            let codecName = try tool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", movie])
            XCTAssertEqual(codecName.trimmingCharacters(in: .whitespacesAndNewlines), codec == "libx264" ? "h264" : "hevc")
            XCTAssertEqual(try videoDuration(movie), 1.5, accuracy: 2.01 / 30)
            XCTAssertEqual(try XCTUnwrap(item.movie?.info.stillImageTime), 1.0, accuracy: 1 / 30.0)
            XCTAssertEqual(try streams(movie).filter { $0 == "audio" }.count, 1)
            let ids = try identifiers(still: try XCTUnwrap(item.still?.path), movie: movie)
            XCTAssertEqual(ids.still, ids.movie)
            XCTAssertFalse(ids.movie.isEmpty)
            try FileManager.default.removeItem(atPath: pair.still)
            try FileManager.default.removeItem(atPath: pair.movie)
        }
    }

    func testMuteDropsTheSoundAndKeepsEveryMetadataTrack() throws {
        let pair = try trainPair()
        let before = try snapshot([pair.still, pair.movie])
        let result = try livegrid(["edit", pair.still, "--mute", "-o", out])
        XCTAssertEqual(result.status, 0, result.err)
        let item = try editedItem()
        let movie = try XCTUnwrap(item.movie?.path)
        let original = try streams(pair.movie), muted = try streams(movie)
        XCTAssertTrue(original.contains("audio"))
        XCTAssertFalse(muted.contains("audio"), "\(muted)")
        XCTAssertEqual(muted.filter { $0 == "data" }.count, original.filter { $0 == "data" }.count, "metadata tracks: \(muted)")
        XCTAssertEqual(try ExternalTool.packetHash(movie, stream: "v"), try ExternalTool.packetHash(pair.movie, stream: "v"))
        XCTAssertEqual(try XCTUnwrap(item.movie?.info.stillImageTime), try XCTUnwrap(MediaProbe.probe(try FileByteSource(path: pair.movie)).stillImageTime), accuracy: 0.002)
        let ids = try identifiers(still: try XCTUnwrap(item.still?.path), movie: movie)
        XCTAssertEqual(ids.still, ids.movie)
        // The sound's bytes are gone from the file, not just unreferenced: a stretch of its PCM samples
        // (from the middle, not silence) is found in the original and not in the muted copy.
        let raw = dir.appendingPathComponent("sound.raw").path
        _ = try tool("ffmpeg", ["-v", "error", "-i", pair.movie, "-map", "0:a", "-c", "copy", "-f", "s16le", "-y", raw])
        let sound = try Data(contentsOf: URL(fileURLWithPath: raw))
        let stretch = sound.subdata(in: (sound.count / 2)..<(sound.count / 2 + 4096))
        XCTAssertTrue(stretch.contains { $0 != 0 })
        XCTAssertNotNil(try Data(contentsOf: URL(fileURLWithPath: pair.movie)).range(of: stretch))
        XCTAssertNil(try Data(contentsOf: URL(fileURLWithPath: movie)).range(of: stretch), "the sound's samples are still in the file")
        XCTAssertEqual(try snapshot([pair.still, pair.movie]), before)
    }

    func testTrimmingAwayTheKeyPhotoMovesItIntoTheKeptRange() throws {
        let pair = try generatedPair(stillTime: 2)
        let result = try livegrid(["edit", pair.still, "--trim", "0:1", "--mute", "-o", out])
        XCTAssertEqual(result.status, 0, result.err)
        let item = try editedItem()
        let movie = try XCTUnwrap(item.movie?.path)
        let stillTime = try XCTUnwrap(item.movie?.info.stillImageTime)
        XCTAssertLessThan(stillTime, 1)
        XCTAssertGreaterThanOrEqual(stillTime, 0.9)
        XCTAssertFalse(try streams(movie).contains("audio"))
        XCTAssertEqual(try videoDuration(movie), 1, accuracy: 1.01 / 30)
    }

    // MARK: adjustments

    /// The edited still against the edited movie's frame at its still-image time, both decoded here.
    func stillAndFrame(_ item: LibraryItem) throws -> (still: RGBImage, frame: RGBImage) {
        let decoded = try ImageDecoder.decode(path: try XCTUnwrap(item.still?.path), fitting: PixelSize(width: 4096, height: 4096)).frame
        let still = RGBImage(width: decoded.width, height: decoded.height,
                             rgb: decoded.rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element))
        let movie = try FileByteSource(path: try XCTUnwrap(item.movie?.path))
        let frame = try StudioRenderer.frame(ofMovie: movie, at: try XCTUnwrap(item.movie?.info.stillImageTime)).image
        return (still, frame)
    }

    func testAdjustmentsAreTheSameOnTheStillAndEveryMovieFrame() throws {
        // The generated still is the movie's frame at 1.5 s, so after the same adjustments both halves must
        // still agree (within JPEG and H.264 re-encoding), and differ clearly from the unadjusted picture.
        let pair = try generatedPair(stillTime: 1.5)
        let before = try snapshot([pair.still, pair.movie])
        let result = try livegrid(["edit", pair.still, "--crop", "1:1", "--exposure", "0.5", "--contrast", "1.2",
                                   "--saturation", "0.7", "-o", out])
        XCTAssertEqual(result.status, 0, result.err)
        let item = try editedItem()
        let (still, frame) = try stillAndFrame(item)
        XCTAssertEqual(still.width, 240)
        XCTAssertEqual(still.height, 240)
        XCTAssertEqual(frame.width, 240)
        XCTAssertEqual(frame.height, 240)
        let difference = try XCTUnwrap(still.meanDifference(to: frame))
        XCTAssertLessThan(difference, 6, "the still and the movie frame were adjusted differently")
        // Brighter than the unadjusted centre crop.
        let original = try StudioRenderer.frame(ofMovie: try FileByteSource(path: pair.movie), at: 1.5,
                                                adjustments: StudioAdjustments(aspectRatio: (1, 1))).image
        XCTAssertGreaterThan(try XCTUnwrap(still.meanDifference(to: original)), 3 * difference)
        XCTAssertGreaterThan(still.rgb.reduce(0) { $0 + Int($1) }, original.rgb.reduce(0) { $0 + Int($1) })
        XCTAssertEqual(try snapshot([pair.still, pair.movie]), before)
        let ids = try identifiers(still: try XCTUnwrap(item.still?.path), movie: try XCTUnwrap(item.movie?.path))
        XCTAssertEqual(ids.still, ids.movie)
    }

    func testBlackAndWhiteOnBothHalves() throws {
        let pair = try generatedPair(seconds: 2, stillTime: 1)
        let result = try livegrid(["edit", pair.movie, "--black-and-white", "-o", out])
        XCTAssertEqual(result.status, 0, result.err)
        let (still, frame) = try stillAndFrame(try editedItem())
        for image in [still, frame] {
            var colourfulness = 0
            for pixel in stride(from: 0, to: image.rgb.count, by: 3) {
                let r = Int(image.rgb[pixel]), g = Int(image.rgb[pixel + 1]), b = Int(image.rgb[pixel + 2])
                colourfulness += max(r, g, b) - min(r, g, b)
            }
            XCTAssertLessThan(Double(colourfulness) / Double(image.rgb.count / 3), 3, "not grey")
        }
        XCTAssertLessThan(try XCTUnwrap(still.meanDifference(to: frame)), 6)
    }

    func testAHEICLivePhotoGetsAHEICKeyPhotoWithItsExif() throws {
        let clip = try generatedPair(seconds: 2, stillTime: 1)
        let heic = dir.appendingPathComponent("phone.heic").path
        try FileManager.default.copyItem(atPath: try Fixtures.shared("iphone-se-still.heic"), toPath: heic)
        let made = try livegrid(["make-live", heic, clip.movie])
        XCTAssertEqual(made.status, 0, made.err)
        let original = dir.appendingPathComponent("phone-live.HEIC").path
        let before = try snapshot([original])
        let result = try livegrid(["edit", original, "--key-photo-at", "0.5", "--saturation", "0.5", "-o", out])
        XCTAssertEqual(result.status, 0, result.err)
        let item = try editedItem()
        let still = try XCTUnwrap(item.still?.path), movie = try XCTUnwrap(item.movie?.path)
        XCTAssertTrue(still.hasSuffix(".HEIC"), still)
        XCTAssertEqual(try XCTUnwrap(item.movie?.info.stillImageTime), 0.5, accuracy: 1 / 30.0)
        let exif = try tool("exiftool", ["-s", "-FileType", "-Model", "-ImageSize", still])
        XCTAssertTrue(exif.contains("HEIC") && exif.contains("iPhone SE") && exif.contains("320x240"), exif)
        let ids = try identifiers(still: still, movie: movie)
        XCTAssertEqual(ids.still, ids.movie)
        XCTAssertFalse(ids.still.isEmpty)
        let (stillImage, frame) = try stillAndFrame(item)
        XCTAssertLessThan(try XCTUnwrap(stillImage.meanDifference(to: frame)), 6)
        XCTAssertEqual(try snapshot([original]), before)
    }

    func testAMovieThatCannotBeReencodedOffersOnlyAStill() throws {
        // The movie's header is intact (it pairs) but most of its pictures are zeros: the adjustment could
        // reach the still but not the movie, so the one way offered is a still, and nothing is written.
        let pair = try generatedPair(stillTime: 1.5)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: pair.movie))
        let from = bytes.count * 3 / 10
        bytes.replaceSubrange(from..<bytes.count, with: Data(count: bytes.count - from))
        try bytes.write(to: URL(fileURLWithPath: pair.movie))
        let result = try livegrid(["edit", pair.still, "--exposure", "1", "-o", out])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.err.contains("--as still"), result.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [])
    }

    // MARK: interrupted

    func testSIGTERMDuringAReencodeLeavesNothing() throws {
        let pair = try generatedPair(seconds: 4, size: "1280x720")
        let binary = try MissingRequirement.livegridBinary()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["edit", pair.still, "--exposure", "0.5", "-o", out]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the re-encoded movie's temporary holds data, then stop it (condition, not a sleep).
        let deadline = Date().addingTimeInterval(60)
        var sawTemporary = false
        while process.isRunning, Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
            if let name = names.first(where: { $0.hasSuffix(".tmp") }),
               let size = (try? FileManager.default.attributesOfItem(atPath: (out as NSString).appendingPathComponent(name)))?[.size] as? Int,
               size > 0 {
                sawTemporary = true
                process.terminate()
                break
            }
            usleep(2000)
        }
        process.waitUntilExit()
        XCTAssertTrue(sawTemporary, "the edit finished before it could be interrupted")
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "SIGTERM left files behind")
    }

    // MARK: bad input

    func testBadInputGetsAPlainMessageAndNoFiles() throws {
        let pair = try generatedPair(seconds: 2, stillTime: 1)
        let before = try snapshot([pair.still, pair.movie])
        let past = try livegrid(["edit", pair.still, "--key-photo-at", "99", "-o", out])
        XCTAssertEqual(past.status, 1)
        XCTAssertTrue(past.err.contains("past the end"), past.err)
        let nan = try livegrid(["edit", pair.still, "--key-photo-at", "nan", "-o", out])
        XCTAssertNotEqual(nan.status, 0)
        XCTAssertTrue(nan.err.contains("--key-photo-at"), nan.err)
        let backwards = try livegrid(["edit", pair.still, "--trim", "1.5:0.5", "-o", out])
        XCTAssertEqual(backwards.status, 1)
        XCTAssertTrue(backwards.err.contains("--trim takes START:END"), backwards.err)
        let nothing = try livegrid(["edit", pair.still, "-o", out])
        XCTAssertEqual(nothing.status, 1)
        XCTAssertTrue(nothing.err.contains("nothing to do"), nothing.err)

        // A truncated movie: the pair no longer pairs, or its movie cannot be read; either way a sentence.
        let truncated = dir.appendingPathComponent("cut")
        try FileManager.default.createDirectory(at: truncated, withIntermediateDirectories: true)
        let cutStill = truncated.appendingPathComponent("a.JPG").path, cutMovie = truncated.appendingPathComponent("a.MOV").path
        try FileManager.default.copyItem(atPath: pair.still, toPath: cutStill)
        let movieBytes = try Data(contentsOf: URL(fileURLWithPath: pair.movie))
        try movieBytes.prefix(movieBytes.count / 3).write(to: URL(fileURLWithPath: cutMovie))
        let cut = try livegrid(["edit", cutStill, "--key-photo-at", "0.5", "-o", out])
        XCTAssertEqual(cut.status, 1)
        XCTAssertTrue(cut.err.hasPrefix("livegrid: "), cut.err)
        XCTAssertFalse(cut.err.contains("Fatal error"), cut.err)

        // A missing half.
        try FileManager.default.removeItem(atPath: cutMovie)
        let alone = try livegrid(["edit", cutStill, "--key-photo-at", "0.5", "-o", out])
        XCTAssertEqual(alone.status, 1)
        XCTAssertTrue(alone.err.contains("not a Live Photo"), alone.err)

        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "a failed edit left files")
        XCTAssertEqual(try snapshot([pair.still, pair.movie]), before)
    }
}
