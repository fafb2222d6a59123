import Foundation
import Imaging
import MediaFormats
import TestSupport
import XCTest

/// Issue 32.9: JPEGs with stray bytes between SOI and the first marker (15 in a public corpus) were "not a
/// format livegrid knows"; libjpeg and ImageMagick read them with a warning, and so does livegrid now.
final class JunkAfterSOITests: XCTestCase {
    func testAJPEGWithStrayBytesAfterSOIIsProbedAndShownWithAWarning() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg"))))
        for junk in [[UInt8](repeating: 0, count: 1), [UInt8](repeating: 0, count: 7) + Array("junk".utf8)] {
            let bytes = Array(original[0..<2]) + junk + Array(original[2...])
            let source = MemoryByteSource(bytes)
            XCTAssertEqual(MediaProbe.sniff(Array(bytes.prefix(16))), .jpeg)
            let info = MediaProbe.probe(source)
            XCTAssertEqual(info.format, .jpeg)
            XCTAssertEqual(info.pixelWidth, 4032, "the segments after the junk are read")
            XCTAssertNotNil(info.contentIdentifier, "the Apple MakerNote after the junk is read")
            XCTAssertTrue(info.problems.contains { $0.message.contains("stray byte") }, "\(info.problems)")
            // The walk reached the image data: the stray bytes are a note, so `scan` and the grid do not call a
            // whole picture damaged (the decoder drops them as libjpeg does).
            XCTAssertFalse(info.problems.contains { $0.severity >= .warning }, "\(info.problems)")
            let decoded = try ImageDecoder.decode(source: source, info: info, fitting: PixelSize(width: 160, height: 120))
            XCTAssertEqual(decoded.frame.width, 160)
            // The picture itself (not its Exif thumbnail) is whole: libjpeg's "extraneous bytes" warning used to
            // mark it damaged, "the rest grey".
            let noThumbnail = DecodeOptions(useEmbeddedThumbnails: false)
            let whole = try ImageDecoder.decode(source: source, info: info, fitting: PixelSize(width: 160, height: 120), options: noThumbnail)
            XCTAssertNil(whole.damage, "\(String(describing: whole.damage))")
            let clean = try ImageDecoder.decode(source: MemoryByteSource(original), info: MediaProbe.probe(MemoryByteSource(original)),
                                                fitting: PixelSize(width: 160, height: 120), options: noThumbnail)
            XCTAssertEqual(whole.frame.rgba, clean.frame.rgba, "the same pixels as without the junk")
            // Junk in the header does not hide damage after it: the same file cut at 60 % is still damaged.
            let cut = Array(bytes.prefix(bytes.count * 6 / 10))
            let damaged = try ImageDecoder.decode(source: MemoryByteSource(cut), info: MediaProbe.probe(MemoryByteSource(cut)),
                                                  fitting: PixelSize(width: 160, height: 120), options: noThumbnail)
            XCTAssertNotNil(damaged.damage, "a cut file with junk after SOI is still damaged")
        }
        XCTAssertEqual(MediaProbe.sniff([0xFF, 0xD8]), .unknown, "two bytes are not a picture")
        // Stray bytes that never lead to the image data stay a warning: the header is cut after them.
        let headerOnly = Array(original[0..<2]) + [0, 0, 0] + Array(original[2..<4_000])
        let cutInfo = MediaProbe.probe(MemoryByteSource(headerOnly))
        XCTAssertTrue(cutInfo.problems.contains { $0.message.contains("stray byte") && $0.severity == .warning }, "\(cutInfo.problems)")
    }
}
