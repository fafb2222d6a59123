@testable import Imaging
import Foundation
import MediaFormats
import TestSupport
import XCTest

/// Issue 31.7.1: the first frames of a movie (a Samsung Motion Photo's HEVC movie in particular) must have the
/// colours ffmpeg gives them, whatever YUV matrix, range and pixel format the stream uses. A solid colour makes a
/// matrix or range error obvious in the mean; each movie is decoded plain, from a Samsung SEF trailer, and the way
/// the viewer's motion hint opens it (seeked, shown small: loop filter skipped).
final class MovieColourTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-movie-colour")
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// One colour set-up: the tag written into the stream, the matrix ffmpeg converts with, the range, the format.
    private struct Case {
        var colorspace: String, matrix: String, range: String, pixelFormat: String
        var size = "1280x720"
        var name: String { "\(colorspace)-\(range)-\(pixelFormat)-\(size)" }
    }

    private static let cases: [Case] = [
        Case(colorspace: "bt709", matrix: "bt709", range: "tv", pixelFormat: "yuv420p"),
        Case(colorspace: "smpte170m", matrix: "bt601", range: "tv", pixelFormat: "yuv420p"),
        Case(colorspace: "smpte170m", matrix: "bt601", range: "tv", pixelFormat: "yuv420p", size: "640x480"),
        Case(colorspace: "bt709", matrix: "bt709", range: "pc", pixelFormat: "yuvj420p"),
        Case(colorspace: "smpte170m", matrix: "bt601", range: "pc", pixelFormat: "yuvj420p"),
        Case(colorspace: "bt709", matrix: "bt709", range: "pc", pixelFormat: "yuv420p"),
        Case(colorspace: "bt709", matrix: "bt709", range: "tv", pixelFormat: "yuv420p10le"),
        Case(colorspace: "bt709", matrix: "bt709", range: "pc", pixelFormat: "yuv420p10le"),
        Case(colorspace: "bt2020nc", matrix: "bt2020", range: "tv", pixelFormat: "yuv420p10le"),
    ]

    /// 0xC08040, the colour every test movie shows.
    private static let truth: [Double] = [192, 128, 64]

    private func makeMovie(_ c: Case, container: String) throws -> String {
        try LibavTestMedia.generate("\(c.name).\(container)", in: directory, arguments: [
            "-f", "lavfi", "-i", "color=c=0xC08040:s=\(c.size):r=30:d=0.6",
            "-vf", "scale=out_color_matrix=\(c.matrix):out_range=\(c.range),format=\(c.pixelFormat)",
            "-c:v", "libx265", "-x265-params", "log-level=error:keyint=8",
            "-colorspace", c.colorspace, "-color_range", c.range])
    }

    /// ffmpeg's own decode of the first frame to RGB, averaged.
    private func ffmpegMean(_ path: String) throws -> [Double] {
        guard let ffmpeg = LibavTestMedia.ffmpegPath else { throw MissingRequirement.tool("ffmpeg is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        var sums = [0.0, 0.0, 0.0]
        for (index, byte) in data.enumerated() { sums[index % 3] += Double(byte) }
        let pixels = Double(max(1, data.count / 3))
        return sums.map { $0 / pixels }
    }

    private func mean(_ frame: PixelFrame) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        for index in stride(from: 0, to: frame.rgba.count - 3, by: 4) {
            for channel in 0..<3 { sums[channel] += Double(frame.rgba[index + channel]) }
        }
        let pixels = Double(max(1, frame.width * frame.height))
        return sums.map { $0 / pixels }
    }

    private func assertClose(_ got: [Double], _ expected: [Double], tolerance: Double, _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        let worst = zip(got, expected).map { abs($0 - $1) }.max() ?? .infinity
        XCTAssertLessThanOrEqual(worst, tolerance, "\(what): got RGB \(got.map { Int($0.rounded()) }), expected \(expected.map { Int($0.rounded()) })",
                                 file: file, line: line)
    }

    /// A Samsung SEF trailer holding `movie` as MotionPhoto_Data, after `still` (the layout SamsungTrailer reads).
    private func samsungMotionPhoto(still: [UInt8], movie: [UInt8]) -> [UInt8] {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let name = Array(SamsungTrailer.motionPhotoName.utf8)
        let block = [0, 0, 0x30, 0x0A] + le32(name.count) + name + movie
        var file = still + block
        let directoryStart = file.count
        var directory = Array("SEFH".utf8) + le32(107) + le32(1)
        directory += [0, 0, 0x30, 0x0A] + le32(directoryStart - still.count) + le32(block.count)
        file += directory + le32(directory.count) + Array("SEFT".utf8)
        return file
    }

    func testFirstMovieFramesHaveFFmpegsColoursForEveryMatrixRangeAndFormat() throws {
        let still = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg"))))
        var failures: [String] = []
        for c in Self.cases {
            for container in ["mov", "mp4"] {
                let path = try makeMovie(c, container: container)
                let reference = try ffmpegMean(path)
                // The generated movie itself must be right, or the comparison says nothing.
                assertClose(reference, Self.truth, tolerance: 8, "ffmpeg's decode of \(c.name).\(container)")

                let plain = try MovieDecoder(path: path)
                for index in 0..<3 {
                    let frame = try XCTUnwrap(plain.nextFrame(fitting: PixelSize(width: 64, height: 64)))
                    let got = mean(frame.pixels)
                    if zip(got, reference).contains(where: { abs($0 - $1) > 6 }) {
                        failures.append("\(c.name).\(container) frame \(index): \(got.map { Int($0) }) vs ffmpeg \(reference.map { Int($0) })")
                    }
                }

                guard container == "mp4" else { continue }
                let movie = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                let source = MemoryByteSource(samsungMotionPhoto(still: still, movie: movie))
                var problems: [ParseProblem] = []
                let entries = try SamsungTrailer.read(source, limits: .default, problems: &problems)
                let entry = try XCTUnwrap(entries.first { $0.marker == SamsungTrailer.motionPhotoMarker }, "\(problems)")
                let slice = SliceByteSource(base: source, range: entry.payload)
                // As the viewer's hint opens it: shown small (no loop filter), seeked into the movie.
                let hint = try MovieDecoder(source: slice, threadCount: 2, shownAtMost: PixelSize(width: 80, height: 45))
                try hint.seek(to: 0.2)
                for index in 0..<3 {
                    let frame = try XCTUnwrap(hint.nextFrame(fitting: PixelSize(width: 80, height: 45)))
                    let got = mean(frame.pixels)
                    if zip(got, reference).contains(where: { abs($0 - $1) > 6 }) {
                        failures.append("\(c.name) Samsung trailer hint frame \(index): \(got.map { Int($0) }) vs ffmpeg \(reference.map { Int($0) })")
                    }
                }
                let poster = try MovieDecoder.posterFrame(source: slice, at: 0, fitting: PixelSize(width: 64, height: 64))
                let got = mean(poster)
                if zip(got, reference).contains(where: { abs($0 - $1) > 6 }) {
                    failures.append("\(c.name) Samsung trailer poster: \(got.map { Int($0) }) vs ffmpeg \(reference.map { Int($0) })")
                }
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// A movie whose key frames are not listed (no `stss`: every sample counts as a sync sample, as some camera
    /// writers leave it): a seek lands on a frame that needs references the decoder never saw. Such frames
    /// must not be shown (they are grey/garbage: the blue frames of issue 31.7.1's Samsung movie).
    func testSeekIntoAMovieWithoutKeyFrameTableShowsNoFrameDecodedWithoutItsReferences() throws {
        let c = Self.cases[0]
        let path = try makeMovie(c, container: "mp4")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let stss = Array("stss".utf8)
        let at = try XCTUnwrap((0..<(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == stss }, "x265's MP4 lists its key frames")
        bytes.replaceSubrange(at..<at + 4, with: Array("free".utf8))
        let source = MemoryByteSource(bytes)
        let reference = try ffmpegMean(path)
        let decoder = try MovieDecoder(source: source, threadCount: 2, shownAtMost: PixelSize(width: 80, height: 45))
        try decoder.seek(to: 0.3)
        var failures: [String] = []
        var count = 0
        while let frame = try decoder.nextFrame(fitting: PixelSize(width: 80, height: 45)) {
            let got = mean(frame.pixels)
            if zip(got, reference).contains(where: { abs($0 - $1) > 6 }) {
                failures.append(String(format: "frame at %.3f s: ", frame.pts) + "\(got.map { Int($0) }) vs ffmpeg \(reference.map { Int($0) })")
            }
            if count == 0 {
                XCTAssertEqual(frame.pts, 0.3, accuracy: 0.02, "the frame shown at the target, decoded from the start")
            }
            count += 1
        }
        XCTAssertGreaterThan(count, 0, "frames after the seek are shown")
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
        let poster = try MovieDecoder.posterFrame(source: source, at: 0.3, fitting: PixelSize(width: 64, height: 64))
        let got = mean(poster)
        XCTAssertFalse(zip(got, reference).contains { abs($0 - $1) > 6 }, "poster \(got) vs \(reference)")
    }
}
