import Foundation
@testable import MediaFormats
import TestSupport
import XCTest

final class JPEGExifWriterTests: XCTestCase {
    let identifier = "11112222-3333-4444-8555-666677778888"

    func write(_ bytes: [UInt8]) -> MemoryByteSource { MemoryByteSource(bytes) }

    func rewritten(_ source: any ByteSource, _ body: (any ByteSource) throws -> ByteAssembly) throws -> [UInt8] {
        try body(source).materialize(from: source)
    }

    /// Bytes from SOS to the end: the picture, which the writers must never touch.
    func scanData(_ bytes: [UInt8]) throws -> ArraySlice<UInt8> {
        let list = try JPEGSegmentList(MemoryByteSource(bytes))
        return bytes[Int(list.scanStart)...]
    }

    // MARK: generated inputs (a fresh clone)

    func testJPEGWithoutExifGetsAPP1AfterJFIF() throws {
        let jfif = JPEGBuilder.segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        let input = JPEGBuilder.jpeg(segments: [jfif])
        let output = try rewritten(write(input)) { try MediaWriting.setContentIdentifier(still: $0, identifier: identifier) }
        let info = MediaProbe.probe(MemoryByteSource(output))
        XCTAssertEqual(info.contentIdentifier, identifier)
        XCTAssertEqual(Array(output[2..<4]), [0xFF, 0xE0], "JFIF stays first")
        XCTAssertEqual(try scanData(output), try scanData(input))
    }

    func testExistingIdentifierIsReplacedAndOtherEntriesKept() throws {
        let input = JPEGBuilder.jpeg(segments: [])
        let first = try rewritten(write(input)) { try MediaWriting.setContentIdentifier(still: $0, identifier: identifier) }
        let other = "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE"
        let second = try rewritten(write(first)) { try MediaWriting.setContentIdentifier(still: $0, identifier: other) }
        XCTAssertEqual(MediaProbe.probe(MemoryByteSource(second)).contentIdentifier, other)
    }

    func testOrientationComposesAndIsAddedWhenAbsent() throws {
        var bytes = JPEGBuilder.jpeg(segments: [])
        let turns: [(OrientationChange, Int)] = [(.rotateClockwise, 6), (.rotateClockwise, 3), (.flipHorizontal, 4),
                                                 (.rotateCounterclockwise, 7), (.flipVertical, 6), (.rotateCounterclockwise, 1)]
        for (change, expected) in turns {
            bytes = try rewritten(write(bytes)) { try MediaWriting.rotateJPEG($0, by: change) }
            XCTAssertEqual(MediaProbe.probe(MemoryByteSource(bytes)).orientation, expected, "\(change)")
        }
    }

    func testOrientationAlgebra() {
        for o in 1...8 {
            var x = o
            for _ in 0..<4 { x = OrientationChange.rotateClockwise.applied(toExifOrientation: x) }
            XCTAssertEqual(x, o)
            XCTAssertEqual(OrientationChange.flipHorizontal.applied(toExifOrientation:
                OrientationChange.flipHorizontal.applied(toExifOrientation: o)), o)
            XCTAssertEqual(OrientationChange.rotateCounterclockwise.applied(toExifOrientation:
                OrientationChange.rotateClockwise.applied(toExifOrientation: o)), o)
            XCTAssertEqual(OrientationChange.rotate180.applied(toExifOrientation: o),
                           OrientationChange.flipVertical.applied(toExifOrientation: OrientationChange.flipHorizontal.applied(toExifOrientation: o)))
        }
        XCTAssertEqual(OrientationChange.rotateClockwise.applied(toExifOrientation: 1), 6)
        XCTAssertEqual(OrientationChange.rotateCounterclockwise.applied(toExifOrientation: 1), 8)
        XCTAssertEqual(OrientationChange.flipHorizontal.applied(toExifOrientation: 1), 2)
        XCTAssertEqual(OrientationChange.flipVertical.applied(toExifOrientation: 1), 4)
        XCTAssertEqual(OrientationChange.rotateClockwise.applied(toExifOrientation: 2), 7)
    }

    func testNotAJPEGIsRefused() {
        XCTAssertThrowsError(try MediaWriting.setContentIdentifier(still: MemoryByteSource([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 16)), identifier: identifier))
        XCTAssertThrowsError(try MediaWriting.setContentIdentifier(still: MemoryByteSource([0xFF, 0xD8, 0xFF, 0xE1, 0x40]), identifier: identifier))
    }

    // MARK: real files, checked by exiftool

    func exiftoolTags(_ path: String) throws -> [String] {
        try WriterTools.run("exiftool", ["-a", "-G1", "-s", "-x", "System:all", "-x", "ExifTool:all", path])
            .split(separator: "\n").map(String.init)
    }

    /// Writes the identifier into a copy of `fixture` and checks: exiftool reads it (MediaGroupUUID in
    /// exiftool 12.57, ContentIdentifier in newer ones), every other tag is unchanged, the scan is unchanged.
    func checkIdentifierWritten(_ fixture: String) throws {
        let input = try Fixtures.shared(fixture)
        let dir = try Fixtures.makeTemporaryDirectory("writer-jpeg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try FileByteSource(path: input)
        let output = dir.appendingPathComponent("out.jpg").path
        try WriterTools.write(try MediaWriting.setContentIdentifier(still: source, identifier: identifier), from: source, to: output)
        XCTAssertEqual(try MediaProbe.probe(path: output).contentIdentifier, identifier)
        let before = try exiftoolTags(input), after = try exiftoolTags(output)
        let isIdentifier: (String) -> Bool = { $0.contains("MediaGroupUUID") || $0.contains("ContentIdentifier") }
        XCTAssertTrue(after.contains { isIdentifier($0) && $0.contains(identifier) }, after.joined(separator: "\n"))
        XCTAssertEqual(before.filter { !isIdentifier($0) }, after.filter { !isIdentifier($0) })
        let inBytes = try source.readExactly(at: 0, count: Int(source.size))
        let outBytes = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
        XCTAssertEqual(try scanData(outBytes), try scanData(inBytes))
        if before.contains(where: { $0.contains("ThumbnailImage") }) {
            let thumbIn = try WriterTools.run("exiftool", ["-b", "-ThumbnailImage", input])
            let thumbOut = try WriterTools.run("exiftool", ["-b", "-ThumbnailImage", output])
            XCTAssertEqual(thumbIn, thumbOut, "IFD1 thumbnail still found and identical")
        }
    }

    func testKeyPhotoWithoutMakerNote() throws { try checkIdentifierWritten("limitpoint/keyPhoto.jpg") }
    func testSamsungStill() throws { try checkIdentifierWritten("samsung-still.jpeg") }
    func testAppleMakerNoteWithoutIdentifier() throws { try checkIdentifierWritten("apple-no-identifier.jpg") }
    func testCameraLivePhotoStillGetsNewIdentifier() throws { try checkIdentifierWritten("train.jpg") }

    func testRotationReadByExiftool() throws {
        let input = try Fixtures.shared("limitpoint/keyPhoto.jpg")
        let dir = try Fixtures.makeTemporaryDirectory("writer-jpeg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try FileByteSource(path: input)
        let output = dir.appendingPathComponent("rotated.jpg").path
        try WriterTools.write(try MediaWriting.rotate(source, by: .rotateClockwise), from: source, to: output)
        let text = try WriterTools.run("exiftool", ["-n", "-s", "-Orientation", output])
        XCTAssertTrue(text.contains(": 6"), text)
    }
}
