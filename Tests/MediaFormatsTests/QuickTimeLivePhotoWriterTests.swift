import Foundation
import MediaFormats
import TestSupport
import XCTest

final class QuickTimeLivePhotoWriterTests: XCTestCase {
    let identifier = "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"

    func makeLive(_ input: String, stillTime: Double? = nil, in dir: URL) throws -> String {
        let source = try FileByteSource(path: input)
        let assembly = try MediaWriting.makeLivePhotoMovie(source, identifier: identifier, stillTime: stillTime)
        let output = dir.appendingPathComponent("out.mov").path
        try WriterTools.write(assembly, from: source, to: output)
        return output
    }

    func testGeneratedMovieBecomesLiveWithIdenticalPackets() throws {
        let dir = try Fixtures.makeTemporaryDirectory("writer-qt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try WriterTools.generatedMovie(in: dir, audio: true)
        let output = try makeLive(input, stillTime: 0.5, in: dir)

        let exif = try WriterTools.run("exiftool", ["-a", "-G1", "-s", "-ContentIdentifier", "-MajorBrand", output])
        XCTAssertTrue(exif.contains(identifier), exif)
        XCTAssertTrue(exif.contains("Apple QuickTime"), exif)
        let probe = try WriterTools.run("ffprobe", ["-v", "error", "-show_streams", "-show_data", output])
        XCTAssertTrue(probe.contains("codec_tag_string=mebx"), probe)
        XCTAssertEqual(try WriterTools.packetHash(output, stream: "v"), try WriterTools.packetHash(input, stream: "v"))
        XCTAssertEqual(try WriterTools.packetHash(output, stream: "a"), try WriterTools.packetHash(input, stream: "a"))
        // The still-image-time sample sits at 0.5 s.
        let packets = try WriterTools.run("ffprobe", ["-v", "error", "-select_streams", "d", "-show_packets", "-show_data", output])
        XCTAssertTrue(packets.contains("pts_time=0.5"), packets)
        XCTAssertTrue(packets.contains("0000 0009 0000 0001 ff"), packets)
    }

    func testCameraMovieKeepsPacketsAndGetsOneStillTrack() throws {
        let input = try Fixtures.shared("train.mov")
        let dir = try Fixtures.makeTemporaryDirectory("writer-qt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try makeLive(input, in: dir)
        XCTAssertEqual(try WriterTools.packetHash(output, stream: "v"), try WriterTools.packetHash(input, stream: "v"))
        XCTAssertEqual(try WriterTools.packetHash(output, stream: "a"), try WriterTools.packetHash(input, stream: "a"))
        let exif = try WriterTools.run("exiftool", ["-a", "-G1", "-s", "-ContentIdentifier", "-Make", output])
        XCTAssertTrue(exif.contains(identifier), exif)
        XCTAssertTrue(exif.contains("Apple"), "other keys kept: \(exif)")
        let streams = try WriterTools.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_tag_string", "-of", "csv", output])
        XCTAssertEqual(streams.components(separatedBy: "mebx").count - 1, 2, "live-photo-info kept, one still-image-time: \(streams)")
    }

    func testMovieWithoutVideoIsRefused() throws {
        let dir = try Fixtures.makeTemporaryDirectory("writer-qt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sound.m4a").path
        _ = try WriterTools.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", "-y", path])
        let source = try FileByteSource(path: path)
        XCTAssertThrowsError(try MediaWriting.makeLivePhotoMovie(source, identifier: identifier)) { error in
            XCTAssertTrue("\(error)".contains("no video track"), "\(error)")
        }
    }

    func testTruncatedMovieIsRefused() throws {
        let input = try Fixtures.shared("limitpoint/pairedVideo.mov")
        let bytes = try FileByteSource(path: input).readExactly(at: 0, count: 200_000)
        XCTAssertThrowsError(try MediaWriting.makeLivePhotoMovie(MemoryByteSource(bytes), identifier: identifier))
    }

    func testStillTimePastTheEndIsRefused() throws {
        let input = try Fixtures.shared("limitpoint/pairedVideo.mov")
        XCTAssertThrowsError(try MediaWriting.makeLivePhotoMovie(try FileByteSource(path: input), identifier: identifier, stillTime: 10))
    }

    func testProbeReadsBackIdentifierAndStillTime() throws {
        let dir = try Fixtures.makeTemporaryDirectory("writer-qt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try WriterTools.generatedMovie(in: dir)
        let output = try makeLive(input, stillTime: 1.25, in: dir)
        let info = try MediaProbe.probe(path: output)
        XCTAssertEqual(info.format, .quickTime)
        XCTAssertEqual(info.contentIdentifier, identifier)
        XCTAssertEqual(try XCTUnwrap(info.stillImageTime), 1.25, accuracy: 0.01)
        // Default still time: the middle.
        let middle = try makeLive(input, in: dir)
        XCTAssertEqual(try XCTUnwrap(try MediaProbe.probe(path: middle).stillImageTime), 1.0, accuracy: 0.05)
    }

    func testMovieRotationComposesTheDisplayMatrixAndKeepsPackets() throws {
        let dir = try Fixtures.makeTemporaryDirectory("writer-qt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try WriterTools.generatedMovie(in: dir)
        var path = input
        for (step, expected) in [(OrientationChange.rotateClockwise, 90), (.rotateClockwise, 180), (.rotateCounterclockwise, 90), (.rotateCounterclockwise, 0)] {
            let source = try FileByteSource(path: path)
            let next = dir.appendingPathComponent("rotated-\(expected)-\(UUID().uuidString.prefix(4)).mp4").path
            let assembly = try MediaWriting.rotateMovie(source, by: step)
            XCTAssertEqual(assembly.totalLength, source.size, "patched in place")
            try WriterTools.write(assembly, from: source, to: next)
            XCTAssertEqual(try MediaProbe.probe(path: next).rotation ?? 0, expected, "\(step)")
            path = next
        }
        XCTAssertEqual(try WriterTools.packetHash(path, stream: "v"), try WriterTools.packetHash(input, stream: "v"))
        let rotated = dir.appendingPathComponent("cw.mp4").path
        let source = try FileByteSource(path: input)
        try WriterTools.write(try MediaWriting.rotateMovie(source, by: .rotateClockwise), from: source, to: rotated)
        let probe = try WriterTools.run("ffprobe", ["-v", "error", "-show_streams", rotated])
        XCTAssertTrue(probe.contains("rotation=-90"), probe)
    }
}
