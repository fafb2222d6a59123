import XCTest
import TestSupport
@testable import MediaFormats

final class QuickTimeProbeTests: XCTestCase {
    private func probe(_ path: String) throws -> MediaInfo {
        try MediaProbe.probe(path: path)
    }

    private func assertTrainMov(_ info: MediaInfo, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(info.format, .quickTime, file: file, line: line)
        XCTAssertEqual(info.contentIdentifier, "E905E6C6-C747-4805-942F-9904A0281F02", file: file, line: line)
        XCTAssertEqual(info.contentIdentifierSource, "quicktime-mdta", file: file, line: line)
        XCTAssertEqual(info.pixelWidth, 1440, file: file, line: line)
        XCTAssertEqual(info.pixelHeight, 1080, file: file, line: line)
        XCTAssertEqual(info.videoCodec, "h264", file: file, line: line)
        XCTAssertEqual(info.frameCount, 22, file: file, line: line)
        XCTAssertEqual(info.frameRate ?? 0, 10.65, accuracy: 0.01, file: file, line: line)
        XCTAssertEqual(info.duration ?? 0, 1.233, accuracy: 0.001, file: file, line: line)
        XCTAssertEqual(info.stillImageTime ?? -1, 0.48, accuracy: 0.0001, file: file, line: line)
        XCTAssertEqual(info.audioCodec, "pcm", file: file, line: line)
        XCTAssertEqual(info.cameraMake, "Apple", file: file, line: line)
        XCTAssertEqual(info.cameraModel, "iPhone 6s", file: file, line: line)
        XCTAssertEqual(info.captureDate, "2021-04-10T11:43:59+0100", file: file, line: line)
        XCTAssertTrue(info.hasGPS, file: file, line: line)
        XCTAssertEqual(info.problems, [], file: file, line: line)
    }

    func testCommittedTrainMov() throws {
        assertTrainMov(try probe(Fixtures.committed("train.mov")))
    }

    func testSharedTrainMov() throws {
        assertTrainMov(try probe(try Fixtures.shared("train.mov")))
    }

    func testReadsOnlyHeadersAndMoov() throws {
        let counter = ReadCounter()
        let info = try MediaProbe.probe(path: Fixtures.committed("train.mov"), counter: counter)
        XCTAssertNotNil(info.contentIdentifier)
        // 1.5 MB file, 6 KB moov at the end: the prefetched head (ftyp, mdat header), then one read of the end
        // of the file from the moov's header on, which serves the moov too.
        XCTAssertEqual(counter.reads, 2, "\(counter.reads) reads, \(counter.bytes) bytes")
        XCTAssertLessThan(counter.bytes, UInt64(ParseLimits.default.headerProbeBytes) + (8 << 10))
        print("train.mov probe: \(counter.reads) reads, \(counter.bytes) bytes")
    }

    func testTrainMovStillImageSampleBytes() throws {
        let source = try FileByteSource(path: Fixtures.committed("train.mov"))
        let movie = try loadMovie(source)
        let track = try XCTUnwrap(movie.stillImageTimeTrack)
        XCTAssertEqual(track.editList?.entries.count, 2)
        XCTAssertEqual(track.editList?.entries.first?.mediaTime, -1)
        let range = try XCTUnwrap(track.sampleTable).location(ofSample: 0)
        let bytes = try source.readExactly(at: range.offset, count: Int(range.length))
        XCTAssertEqual(bytes, [0, 0, 0, 9, 0, 0, 0, 1, 0xFF])
        XCTAssertEqual(movie.metadata.keys.count, 7)
    }

    func testPairedVideo() throws {
        let path = try Fixtures.shared("limitpoint/pairedVideo.mov")
        let info = try probe(path)
        XCTAssertEqual(info.contentIdentifier, "7A7D4193-1D91-4907-98F8-3B7E41D991D7")
        XCTAssertEqual(info.pixelWidth, 720)
        XCTAssertEqual(info.pixelHeight, 960)
        XCTAssertEqual(info.frameCount, 108)
        // Average rate: 108 frames over 2158/600 s (the first frame lasts 18 ticks, the others 20).
        XCTAssertEqual(info.frameRate ?? 0, 30, accuracy: 0.05)
        XCTAssertEqual(info.duration ?? 0, 3.597, accuracy: 0.001)
        XCTAssertEqual(info.stillImageTime, 0)
        XCTAssertNil(info.audioCodec)
        XCTAssertEqual(info.videoCodec, "h264")
        // The still-image-time sample's value byte is 0x00 here (0xFF in camera files).
        let source = try FileByteSource(path: path)
        let movie = try loadMovie(source)
        let range = try XCTUnwrap(movie.stillImageTimeTrack?.sampleTable).location(ofSample: 0)
        let bytes = try source.readExactly(at: range.offset, count: Int(range.length))
        XCTAssertEqual(bytes.last, 0x00)
        XCTAssertNil(movie.stillImageTimeTrack?.box.child("tref"))
    }

    func testMotionPhotoJPEGEmbeddedMP4() throws {
        let source = try FileByteSource(path: Fixtures.committed("motion-photo-v1.jpeg"))
        let slice = SliceByteSource(base: source, range: ByteRange(offset: 30821, length: 122562))
        let info = MediaProbe.probe(slice)
        XCTAssertEqual(info.format, .mp4)
        XCTAssertEqual(info.pixelWidth, 1024)
        XCTAssertEqual(info.pixelHeight, 768)
        XCTAssertEqual(info.videoCodec, "h264")
        XCTAssertEqual(info.frameRate ?? 0, 60, accuracy: 0.5)
        XCTAssertEqual(info.audioCodec, "aac")
        XCTAssertNil(info.contentIdentifier)
        XCTAssertEqual(info.problems.filter { $0.severity == .error }, [])
    }

    private func loadMovie(_ source: any ByteSource) throws -> QuickTimeMovie {
        let top = ISOBMFFTopLevel.scan(source, limits: .default)
        var problems: [ParseProblem] = []
        let moov = try ISOBMFFTopLevel.load(try XCTUnwrap(top.first("moov")), from: source, limits: .default, problems: &problems)
        return QuickTimeMovie.parse(moov, limits: .default)
    }
}
