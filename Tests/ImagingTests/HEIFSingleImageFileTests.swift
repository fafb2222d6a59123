import Foundation
import MediaFormats
import TestSupport
import XCTest
@testable import Imaging

/// Issue 28.1: a HEIC's thumbnail item as a HEIF file of its own (what a remote HEIC's head becomes), decoded by
/// both HEIF paths like the thumbnail inside the real file.
final class HEIFSingleImageFileTests: XCTestCase {
    func testAnIPhoneThumbnailItemBecomesAFileThatDecodesLikeTheThumbnailInside() throws {
        let original = try FileByteSource(path: try Fixtures.shared("iphone-se-still.heic"))
        let meta = try HEIFMeta.load(from: original, limits: .default)
        let primary = try XCTUnwrap(meta.primaryItemID)
        let thumbnail = try XCTUnwrap(meta.items(referring: "thmb", to: primary).first)
        let size = try XCTUnwrap(meta.spatialExtent(of: thumbnail))

        let bytes = try HEIFSingleImageFile.make(itemID: thumbnail, of: meta, source: original)
        XCTAssertLessThan(bytes.count, 40_000, "the thumbnail's bytes and a small meta, not the 1.8 MB photo")
        let directory = try Fixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }   // try?: a leftover temporary is harmless
        let path = directory.appendingPathComponent("preview.heic").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let info = try MediaProbe.probe(path: path)
        XCTAssertEqual(info.format, .heif)
        XCTAssertEqual(info.pixelWidth, size.width)
        XCTAssertEqual(info.pixelHeight, size.height)
        // The same picture the real file's thumbnail gives, through the libav path and through libheif.
        let box = PixelSize(width: size.width, height: size.height)
        let inside = try HEIFDecoder.decodeWithLibav(source: original, box: box, options: .default)
        XCTAssertEqual(inside.path, .heifThumbnail)
        let source = try FileByteSource(path: path)
        for decoded in [try HEIFDecoder.decodeWithLibav(source: source, box: box, options: .default),
                        try HEIFDecoder.decodeWithLibheif(source: source, box: box, options: .default)] {
            XCTAssertEqual(decoded.frame.size, inside.frame.size)
            let difference = HEIFDecoderHEVCTests.meanDifference(decoded.frame, inside.frame)
            XCTAssertTrue(difference.allSatisfy { $0 < 2 }, "\(difference)")
        }
        let viaProbe = try ImageDecoder.decode(path: path, fitting: PixelSize(width: 120, height: 120))
        XCTAssertEqual(viaProbe.frame.width, 120, "fitted like any still")
    }

    func testAGridIsRefusedAndAMissingByteThrows() throws {
        let original = try FileByteSource(path: try Fixtures.shared("iphone-se-still.heic"))
        let meta = try HEIFMeta.load(from: original, limits: .default)
        let primary = try XCTUnwrap(meta.primaryItemID)
        XCTAssertThrowsError(try HEIFSingleImageFile.make(itemID: primary, of: meta, source: original), "a grid is not one item")
        // The head only (the meta, not the thumbnail's bytes 6,442-33,131): the read of the data fails.
        let head = PrefixByteSource(original, length: 8_000)
        let thumbnail = try XCTUnwrap(meta.items(referring: "thmb", to: primary).first)
        XCTAssertThrowsError(try HEIFSingleImageFile.make(itemID: thumbnail, of: meta, source: head))
    }
}

/// The first `length` bytes of a source, claiming the whole size (a head range with the rest unknown).
private struct PrefixByteSource: ByteSource {
    let inner: any ByteSource
    let length: UInt64
    init(_ inner: any ByteSource, length: UInt64) { self.inner = inner; self.length = length }
    var size: UInt64 { inner.size }
    func read(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
        guard offset + UInt64(count) <= length else { throw MediaError.truncated(at: length, needed: count) }
        return try inner.read(at: offset, count: count)
    }
}
