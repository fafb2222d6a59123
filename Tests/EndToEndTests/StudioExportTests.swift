import Foundation
import Imaging
import MediaFormats
import TestSupport
import XCTest

/// `livegrid export --as loop|bounce|gif|long-exposure` on generated Live Photos (and the train pair),
/// checked with ffprobe/ffmpeg/exiftool; frame order by matching decoded frames against the source's.
final class StudioExportTests: StudioCommandTestCase {
    override class var folderPrefix: String { "studio-export" }

    /// A Live Photo made by make-live from an ffmpeg lavfi source (`filter`, 30 fps) and its frame at 1 s.
    func generatedPair(_ source: String, then filters: String? = nil, seconds: Double = 2, extraEncoder: [String] = []) throws -> (still: String, movie: String) {
        let clip = dir.appendingPathComponent("gen.mov").path, frame = dir.appendingPathComponent("gen.jpg").path
        _ = try tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "\(source):rate=30:duration=\(seconds)" + (filters.map { "," + $0 } ?? ""),
                                "-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p"] + extraEncoder + ["-map_metadata", "-1", "-y", clip])
        _ = try tool("ffmpeg", ["-v", "error", "-ss", "1", "-i", clip, "-frames:v", "1", "-q:v", "2", "-y", frame])
        guard FileManager.default.fileExists(atPath: clip) else { throw MissingRequirement.Failure(description: "ffmpeg could not make the generated clip") }
        let made = try livegrid(["make-live", frame, clip, "--still-time", "1"])
        XCTAssertEqual(made.status, 0, made.err)
        try FileManager.default.removeItem(atPath: clip)
        try FileManager.default.removeItem(atPath: frame)
        return (dir.appendingPathComponent("gen-live.JPG").path, dir.appendingPathComponent("gen-live.MOV").path)
    }

    /// Every frame of `movie` as 32×24 grey bytes, decoded by ffmpeg.
    func thumbnails(_ movie: String) throws -> [[UInt8]] {
        let raw = dir.appendingPathComponent("frames-\(UUID().uuidString).gray").path
        _ = try tool("ffmpeg", ["-v", "error", "-i", movie, "-vf", "scale=32:24:flags=area,format=gray", "-vsync", "passthrough",
                                "-f", "rawvideo", "-y", raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        return stride(from: 0, to: bytes.count - 767, by: 768).map { Array(bytes[$0..<($0 + 768)]) }
    }

    func difference(_ a: [UInt8], _ b: [UInt8]) -> Int { zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } }

    /// Index of the frame in `candidates` nearest to `frame`.
    func nearest(_ frame: [UInt8], in candidates: [[UInt8]]) -> Int {
        candidates.indices.min { difference(frame, candidates[$0]) < difference(frame, candidates[$1]) } ?? -1
    }

    func duration(_ file: String) throws -> Double {
        let text = try tool("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file])
        return try XCTUnwrap(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), text)
    }

    func snapshot(_ paths: [String]) throws -> [Data] { try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } }

    // MARK: bounce and loop

    func testBounceIsForwardThenTheSameFramesReversed() throws {
        let pair = try generatedPair("testsrc2=size=320x240")
        let before = try snapshot([pair.still, pair.movie])
        let result = try livegrid(["export", pair.still, "--as", "bounce", "--to", out])
        XCTAssertEqual(result.status, 0, result.err)
        let bounce = (out as NSString).appendingPathComponent("gen-live-bounce.mp4")
        let source = try thumbnails(pair.movie), frames = try thumbnails(bounce)
        XCTAssertEqual(source.count, 60)
        XCTAssertEqual(frames.count, 2 * source.count)
        XCTAssertEqual(try duration(bounce), 4, accuracy: 0.1)
        // Each frame of the first half is the source frame of the same index; the second half is the
        // first half reversed (matched to the nearest source frame; testsrc2 differs frame to frame).
        for index in 0..<source.count {
            XCTAssertEqual(nearest(frames[index], in: source), index, "forward frame \(index)")
            XCTAssertEqual(nearest(frames[source.count + index], in: source), source.count - 1 - index, "reversed frame \(index)")
        }
        XCTAssertEqual(try snapshot([pair.still, pair.movie]), before)
    }

    func testLoopCrossFadesTheEndIntoTheStart() throws {
        let pair = try generatedPair("testsrc2=size=320x240")
        let result = try livegrid(["export", pair.movie, "--as", "loop", "--to", out])
        XCTAssertEqual(result.status, 0, result.err)
        let loop = (out as NSString).appendingPathComponent("gen-live-loop.mp4")
        let source = try thumbnails(pair.movie), frames = try thumbnails(loop)
        // 2 s with a 0.5 s fade: 1.5 s; it starts at the source's 0.5 s and ends fading into the source's
        // first half second, whose last frame leads back into the loop's first.
        XCTAssertEqual(frames.count, 45)
        XCTAssertEqual(try duration(loop), 1.5, accuracy: 0.07)
        XCTAssertEqual(nearest(frames[0], in: source), 15)
        XCTAssertEqual(nearest(frames[10], in: source), 25)
        XCTAssertEqual(nearest(frames[44], in: source), 14, "the last frame is not the one before the first")
        // Mid-fade frames are blends: closer to the mix of both sources than to either.
        let a = source[15 + 37], b = source[37 - 30 + 0]
        let mixed = zip(a, b).map { UInt8((Int($0) + Int($1)) / 2) }
        XCTAssertLessThan(difference(frames[37], mixed), min(difference(frames[37], a), difference(frames[37], b)))
    }

    // MARK: GIF

    func testGIFStaysUnderItsBound() throws {
        let pair = try generatedPair("testsrc2=size=640x480", seconds: 3)
        let result = try livegrid(["export", pair.still, "--as", "gif", "--to", out])
        XCTAssertEqual(result.status, 0, result.err)
        let gif = (out as NSString).appendingPathComponent("gen-live-gif.gif")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: gif)[.size] as? Int)
        XCTAssertLessThanOrEqual(size, 8_000_000)
        let probe = try tool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width", "-of", "csv=p=0", gif])
        XCTAssertEqual(probe.trimmingCharacters(in: .whitespacesAndNewlines), "gif,480")
        // A tight bound makes it smaller, still a GIF, still under the bound.
        let tight = try livegrid(["export", pair.still, "--as", "gif", "--max-size", "300K", "--to", out])
        XCTAssertEqual(tight.status, 0, tight.err)
        let small = (out as NSString).appendingPathComponent("gen-live-gif-2.gif")
        let smallSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: small)[.size] as? Int)
        XCTAssertLessThanOrEqual(smallSize, 300_000)
        XCTAssertGreaterThan(smallSize, 1000)
        let bad = try livegrid(["export", pair.still, "--as", "gif", "--max-size", "lots", "--to", out])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.err.contains("--max-size takes a size"), bad.err)
    }

    // MARK: long exposure

    func testLongExposureOfAStillCameraIsTheMeanOfItsFrames() throws {
        // Half a second each of four flat colours (no motion): the mean is known, and nothing is aligned.
        let pair = try generatedPair("color=c=0x103050:size=96x64", then: "format=rgb24,geq=r='if(lt(T,0.5),16,if(lt(T,1),200,if(lt(T,1.5),90,30)))':g='if(lt(T,1),48+T*100,140)':b='80+60*sin(T*3)'")
        let before = try snapshot([pair.still, pair.movie])
        let result = try livegrid(["export", pair.still, "--as", "long-exposure", "--to", out])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(result.out.contains("aligned"), result.out)
        let jpeg = (out as NSString).appendingPathComponent("gen-live-long-exposure.jpg")
        // The expected mean, from ffmpeg's own decoding of the movie.
        let raw = dir.appendingPathComponent("frames.rgb").path
        _ = try tool("ffmpeg", ["-v", "error", "-i", pair.movie, "-vsync", "passthrough", "-pix_fmt", "rgb24", "-f", "rawvideo", "-y", raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let frameBytes = 96 * 64 * 3
        let count = bytes.count / frameBytes
        XCTAssertEqual(count, 60)
        var mean = [Double](repeating: 0, count: frameBytes)
        for frame in 0..<count { for i in 0..<frameBytes { mean[i] += Double(bytes[frame * frameBytes + i]) / Double(count) } }
        let decoded = try ImageDecoder.decode(path: jpeg, fitting: PixelSize(width: 96, height: 64)).frame
        XCTAssertEqual(decoded.width, 96)
        var total = 0.0
        for pixel in 0..<(96 * 64) { for channel in 0..<3 { total += abs(Double(decoded.rgba[pixel * 4 + channel]) - mean[pixel * 3 + channel]) } }
        // Tolerance: 3 levels on average (JPEG at quality 92 of a smooth picture, and libswscale vs
        // ffmpeg's YUV->RGB rounding).
        XCTAssertLessThan(total / Double(frameBytes), 3)
        // The original's Exif travels, all but the content identifier: a long exposure is no Live Photo
        // still and must not pair with the original movie.
        let newID = try tool("exiftool", ["-s3", "-MediaGroupUUID", jpeg]), oldID = try tool("exiftool", ["-s3", "-MediaGroupUUID", pair.still])
        XCTAssertFalse(oldID.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        XCTAssertEqual(newID.trimmingCharacters(in: .whitespacesAndNewlines), "")
        XCTAssertEqual(try snapshot([pair.still, pair.movie]), before)
    }

    func testLongExposureAlignsWhenTheCameraMoves() throws {
        // A pan: a 160×120 window sliding 40 px a second across a larger test picture.
        let pair = try generatedPair("testsrc2=size=400x200", then: "crop=160:120:x='t*40':y=20")
        let result = try livegrid(["export", pair.still, "--as", "long-exposure", "--to", out])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("aligned first"), result.out)
    }

    func testTheTrainPairGivesEveryEffect() throws {
        let still = dir.appendingPathComponent("train.jpg").path, movie = dir.appendingPathComponent("train.mov").path
        try FileManager.default.copyItem(atPath: try Fixtures.shared("train.jpg"), toPath: still)
        try FileManager.default.copyItem(atPath: try Fixtures.shared("train.mov"), toPath: movie)
        let before = try snapshot([still, movie])
        for effect in ["loop", "bounce", "gif", "long-exposure"] {
            let result = try livegrid(["export", still, "--as", effect, "--to", out])
            XCTAssertEqual(result.status, 0, "\(effect): \(result.err)")
        }
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        XCTAssertEqual(names, ["train-loop.mp4", "train-bounce.mp4", "train-gif.gif", "train-long-exposure.jpg"])
        let exif = try tool("exiftool", ["-s", "-Model", "-ImageSize", "-AETarget", "-MediaGroupUUID", (out as NSString).appendingPathComponent("train-long-exposure.jpg")])
        XCTAssertTrue(exif.contains("iPhone 6s") && exif.contains("1440x1080") && exif.contains("AETarget"), exif)
        XCTAssertFalse(exif.contains("MediaGroupUUID"), exif)
        XCTAssertEqual(try snapshot([still, movie]), before)
    }

    func testAStillWithoutMovieGetsAPlainMessage() throws {
        let still = dir.appendingPathComponent("alone.jpg").path
        _ = try tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", "-y", still])
        let result = try livegrid(["export", still, "--as", "bounce", "--to", out])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.err.contains("no movie"), result.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [])
    }
}
