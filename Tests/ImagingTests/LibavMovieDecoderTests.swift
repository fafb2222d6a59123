@testable import Imaging
import MediaFormats
import TestSupport
import XCTest

final class LibavMovieDecoderTests: XCTestCase {
    private func decodeAll(_ decoder: MovieDecoder, box: PixelSize = PixelSize(width: 160, height: 160)) throws -> [DecodedFrame] {
        var frames: [DecodedFrame] = []
        while let frame = try decoder.nextFrame(fitting: box) {
            frames.append(frame)
            XCTAssertLessThan(frames.count, 10_000)
        }
        return frames
    }

    private func assertStrictlyIncreasing(_ frames: [DecodedFrame], file: StaticString = #filePath, line: UInt = #line) {
        for (a, b) in zip(frames, frames.dropFirst()) {
            XCTAssertLessThan(a.pts, b.pts, "pts must increase: \(a.pts) then \(b.pts)", file: file, line: line)
        }
    }

    func testTrainMovieYields22FramesOverAbout1_23Seconds() throws {
        let decoder = try MovieDecoder(path: Fixtures.committed("train.mov"))
        XCTAssertEqual(decoder.info.codecName, "h264")
        XCTAssertEqual(decoder.info.codedSize, PixelSize(width: 1440, height: 1080))
        let frames = try decodeAll(decoder)
        XCTAssertEqual(frames.count, 22)
        assertStrictlyIncreasing(frames)
        XCTAssertEqual(frames.first?.pts ?? -1, 0, accuracy: 0.001)
        let last = try XCTUnwrap(frames.last)
        XCTAssertEqual(last.pts + last.duration, 1.233, accuracy: 0.02)
        XCTAssertEqual(decoder.info.duration ?? 0, 1.233, accuracy: 0.02)
        // 1440x1080 fitted in 160x160 keeps 4:3.
        XCTAssertEqual(last.pixels.width, 160)
        XCTAssertEqual(last.pixels.height, 120)
        XCTAssertEqual(frames.map(\.index), Array(0..<22))
    }

    func testTrainMovieFrameAtStillImageTime() throws {
        let decoder = try MovieDecoder(path: Fixtures.committed("train.mov"))
        let poster = try XCTUnwrap(decoder.frame(at: 0.48, fitting: PixelSize(width: 320, height: 240)))
        // Frames sit at 0.4667 and 0.5333 s: the one shown at 0.48 s starts at 0.4667.
        XCTAssertEqual(poster.pts, 0.4667, accuracy: 0.005)
        XCTAssertEqual(poster.pixels.width, 320)
        XCTAssertEqual(poster.pixels.height, 240)
        XCTAssertTrue(poster.pixels.rgba.contains { $0 != 0 && $0 != 255 }, "a real picture, not a blank")
        // Playback continues from there in order.
        let next = try XCTUnwrap(decoder.nextFrame(fitting: PixelSize(width: 32, height: 32)))
        XCTAssertEqual(next.pts, 0.5333, accuracy: 0.005)
        // Seeking past the end shows the last frame; seeking back to 0 restarts.
        let end = try XCTUnwrap(decoder.frame(at: 50))
        XCTAssertEqual(end.pts, 1.2017, accuracy: 0.005)
        XCTAssertEqual(try decoder.frame(at: 0)?.pts ?? -1, 0, accuracy: 0.001)
    }

    func testPosterFrameOfRotatedMotionPhotoMovie() throws {
        let still = try FileByteSource(path: try Fixtures.shared("motion-photo.heic"))
        let payload = try XCTUnwrap(LibavTestMedia.topLevelBoxPayload("mpvd", in: still), "no top-level mpvd box")
        let poster = try MovieDecoder.posterFrame(source: SliceByteSource(base: still, range: payload), at: 0.5,
                                                  fitting: PixelSize(width: 200, height: 200))
        XCTAssertEqual(poster.width, 150)
        XCTAssertEqual(poster.height, 200)
        XCTAssertThrowsError(try MovieDecoder.posterFrame(source: MemoryByteSource([1, 2, 3])))
    }

    func testPairedVideoHas108FramesAt30fps() throws {
        let decoder = try MovieDecoder(path: try Fixtures.shared("limitpoint/pairedVideo.mov"))
        XCTAssertEqual(decoder.info.averageFrameRate ?? 0, 30, accuracy: 0.1)
        XCTAssertEqual(decoder.info.codedSize, PixelSize(width: 720, height: 960))
        let frames = try decodeAll(decoder, box: PixelSize(width: 64, height: 64))
        XCTAssertEqual(frames.count, 108)
        assertStrictlyIncreasing(frames)
        let last = try XCTUnwrap(frames.last)
        XCTAssertEqual(last.pts + last.duration, 3.6, accuracy: 0.05)
        // The rotation the file declares (none: AVFoundation wrote the pixels upright).
        XCTAssertEqual(decoder.info.displaySize, decoder.info.orientation == 1 ? PixelSize(width: 720, height: 960) : PixelSize(width: 960, height: 720))
    }

    /// The Motion Photo's MP4 decodes straight from its byte range in the still.
    func testMotionPhotoV1EmbeddedMovieDecodesFromSlice() throws {
        let still = try FileByteSource(path: Fixtures.committed("motion-photo-v1.jpeg"))
        let movie = SliceByteSource(base: still, range: ByteRange(offset: 30821, length: 122562))
        try assertMotionPhotoMovie(movie, fps: 60)
    }

    func testMicroVideoCountedFromEndDecodesFromSlice() throws {
        let still = try FileByteSource(path: try Fixtures.shared("microvideo-v1.jpeg"))
        let movie = SliceByteSource(base: still, range: ByteRange(offset: still.size - 122562, length: 122562))
        try assertMotionPhotoMovie(movie, fps: 60)
    }

    private func assertMotionPhotoMovie(_ movie: any ByteSource, fps: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let decoder = try MovieDecoder(source: movie)
        XCTAssertEqual(decoder.info.codecName, "h264", file: file, line: line)
        XCTAssertEqual(decoder.info.codedSize, PixelSize(width: 1024, height: 768), file: file, line: line)
        XCTAssertEqual(decoder.info.averageFrameRate ?? 0, fps, accuracy: 1, file: file, line: line)
        let frames = try decodeAll(decoder, box: PixelSize(width: 64, height: 64))
        XCTAssertGreaterThan(frames.count, 10, file: file, line: line)
        assertStrictlyIncreasing(frames, file: file, line: line)
    }

    func testMotionPhotoHEICMovieIsRotatedUpright() throws {
        let still = try FileByteSource(path: try Fixtures.shared("motion-photo.heic"))
        let payload = try XCTUnwrap(LibavTestMedia.topLevelBoxPayload("mpvd", in: still), "no top-level mpvd box")
        let decoder = try MovieDecoder(source: SliceByteSource(base: still, range: payload))
        XCTAssertEqual(decoder.info.codedSize, PixelSize(width: 1024, height: 768))
        XCTAssertEqual(decoder.info.rotation, -90, accuracy: 0.5)
        XCTAssertEqual(decoder.info.orientation, 6)
        XCTAssertEqual(decoder.info.displaySize, PixelSize(width: 768, height: 1024))
        XCTAssertEqual(decoder.info.averageFrameRate ?? 0, 30, accuracy: 3)
        let first = try XCTUnwrap(decoder.nextFrame())
        XCTAssertEqual(first.pixels.width, 768)
        XCTAssertEqual(first.pixels.height, 1024)
        let small = try XCTUnwrap(decoder.nextFrame(fitting: PixelSize(width: 300, height: 300)))
        XCTAssertEqual(small.pixels.width, 225)
        XCTAssertEqual(small.pixels.height, 300)
    }

    func testTruncatedMovieFailsOrEndsEarlyWithoutCrashing() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.mov"))))
        let truncated = MemoryByteSource(Array(bytes.prefix(bytes.count * 4 / 10)))
        do {
            let decoder = try MovieDecoder(source: truncated)
            var count = 0
            while let _ = try decoder.nextFrame(fitting: PixelSize(width: 32, height: 32)) { count += 1 }
            XCTAssertLessThan(count, 22)
        } catch {
            XCTAssertTrue(error.description.hasPrefix("cannot decode"), error.description)
        }
    }

    /// With the index first (faststart), a cut file opens and must end early at the cut, without a crash;
    /// flipped bytes in the middle are damaged packets, skipped or decoded as glitches.
    func testTruncatedAndDamagedFaststartMoviesEndWithoutCrashing() throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-libav-movie")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try LibavTestMedia.generate("faststart.mp4", in: directory, arguments: [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=2", "-c:v", "libx264", "-g", "15",
            "-pix_fmt", "yuv420p", "-movflags", "+faststart"])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let whole = try decodeAll(MovieDecoder(source: MemoryByteSource(bytes)), box: PixelSize(width: 32, height: 32))
        XCTAssertEqual(whole.count, 60)

        let cut = try MovieDecoder(source: MemoryByteSource(Array(bytes.prefix(bytes.count * 4 / 10))))
        var count = 0
        do {
            while let _ = try cut.nextFrame(fitting: PixelSize(width: 32, height: 32)) { count += 1 }
        } catch {
            XCTAssertTrue(error.description.hasPrefix("cannot decode"), error.description)
        }
        XCTAssertGreaterThan(count, 0, "frames before the cut still decode")
        XCTAssertLessThan(count, 60)

        var damaged = bytes
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let index = Int.random(in: (bytes.count / 4)..<bytes.count, using: &generator)
            damaged[index] = UInt8.random(in: 0...255, using: &generator)
        }
        do {
            let decoder = try MovieDecoder(source: MemoryByteSource(damaged))
            var frames = 0
            while let _ = try decoder.nextFrame(fitting: PixelSize(width: 32, height: 32)) {
                frames += 1
                if frames > 1000 { return XCTFail("runaway decoding") }
            }
        } catch {
            XCTAssertTrue(error.description.hasPrefix("cannot decode"), error.description)
        }
    }

    /// iPhones record HEVC, HDR ones in 10 bits: the scaler must take yuv420p10le straight to RGBA.
    func testTenBitHEVCMovieDecodes() throws {
        let directory = try Fixtures.makeTemporaryDirectory("livegrid-libav-hevc")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try LibavTestMedia.generate("hevc10.mov", in: directory, arguments: [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=1", "-c:v", "libx265",
            "-x265-params", "log-level=none", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1"])
        let decoder = try MovieDecoder(path: path)
        XCTAssertEqual(decoder.info.codecName, "hevc")
        let frames = try decodeAll(decoder, box: PixelSize(width: 160, height: 160))
        XCTAssertEqual(frames.count, 30)
        XCTAssertEqual(frames.first?.pixels.width, 160)
        XCTAssertEqual(frames.first?.pixels.height, 120)
        XCTAssertGreaterThan(Set(frames.first?.pixels.rgba ?? []).count, 32, "a colourful test pattern")
    }

    func testGarbageGivesAnError() {
        var generator = SystemRandomNumberGenerator()
        let garbage = MemoryByteSource((0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        XCTAssertThrowsError(try MovieDecoder(source: garbage)) { error in
            XCTAssertTrue(error is LibavError, "\(error)")
        }
        XCTAssertThrowsError(try MovieDecoder(source: MemoryByteSource([])))
        XCTAssertThrowsError(try MovieDecoder(path: "/nonexistent/movie.mov"))
    }

    func testDisplayMatrixOrientationMapping() {
        // av_display_rotation_set(-90): m0 = 0, m3 = -65536, m4 = 0 -> turn clockwise (Exif 6).
        XCTAssertEqual(MovieDecoder.orientation(rotation: -90, m0: 0, m3: -65536, m4: 0), 6)
        XCTAssertEqual(MovieDecoder.orientation(rotation: 90, m0: 0, m3: 65536, m4: 0), 8)
        XCTAssertEqual(MovieDecoder.orientation(rotation: 180, m0: -65536, m3: 0, m4: -65536), 3)
        XCTAssertEqual(MovieDecoder.orientation(rotation: 0, m0: 65536, m3: 0, m4: 65536), 1)
        // A horizontal mirror: [-1 0; 0 1].
        XCTAssertEqual(MovieDecoder.orientation(rotation: -180, m0: -65536, m3: 0, m4: 65536), 2)
    }
}
