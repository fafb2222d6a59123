import Foundation
import XCTest
@testable import Library
import LibrarySources
import MediaFormats
import TestSupport

/// The Exif thumbnail's place, read from a file known in pieces (remote previews, issue 30).
final class ExifThumbnailLocatorTests: XCTestCase {
    private func sparse(_ data: Data, known: Int) -> SparseByteSource {
        let bytes = SparseByteSource(size: UInt64(data.count))
        bytes.add(Array(data.prefix(known)), at: 0)
        return bytes
    }

    func testTrainJPEGsThumbnailFromItsHeadAndWhatFollowsItsExifSegment() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg")))
        let expected = ExifThumbnailLocator.Location(thumbnail: ByteRange(offset: 2340, length: 8612), orientation: 1,
                                                     exifEnd: 12290, xmpBefore: false)
        XCTAssertEqual(ExifThumbnailLocator.locate(sparse(data, known: 5120)), .found(expected))
        // IFD1 is at 2246: a head that stops before it asks for exactly the bytes the walk needs next.
        guard case .missing(let wanted) = ExifThumbnailLocator.locate(sparse(data, known: 2200)) else {
            return XCTFail("a short head asks for more")
        }
        XCTAssertEqual(wanted.offset, 2246)
        let bytes = sparse(data, known: 12290)
        XCTAssertEqual(ExifThumbnailLocator.xmpFollows(bytes, from: 12290), .missing(ByteRange(offset: 12290, length: 4)))
        bytes.add(Array(data[12290..<12354]), at: 12290)
        XCTAssertEqual(ExifThumbnailLocator.xmpFollows(bytes, from: 12290), .xmp(false), "a DQT follows: no XMP")
        let motion = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("motion-photo-v1.jpeg")))
        let motionBytes = sparse(motion, known: 5120)
        guard case .found(let location) = ExifThumbnailLocator.locate(motionBytes) else { return XCTFail("JFIF then Exif") }
        XCTAssertEqual(location.thumbnail, ByteRange(offset: 340, length: 4258))
        XCTAssertEqual(ExifThumbnailLocator.xmpFollows(motionBytes, from: location.exifEnd), .xmp(true), "a Motion Photo's XMP follows")
    }

    /// Damaged heads (random bytes changed in train.jpg's first 12 KB) never crash the walk, and a thumbnail
    /// it reports always lies inside the file and inside the Exif segment's bytes.
    func testDamagedHeadsAreAnsweredWithoutACrash() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg")))
        var random = SplitMix64(seed: 30)
        var found = 0
        for _ in 0..<3000 {
            var head = Array(original.prefix(12400))
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                // Mostly the structure (markers, lengths, IFD counts and offsets) in the first 2.4 KB.
                let index = Int.random(in: 0..<(Bool.random(using: &random) ? 2400 : head.count), using: &random)
                head[index] = UInt8.random(in: 0...255, using: &random)
            }
            let bytes = SparseByteSource(size: UInt64(original.count))
            bytes.add(head, at: 0)
            switch ExifThumbnailLocator.locate(bytes) {
            case .found(let location):
                found += 1
                XCTAssertLessThanOrEqual(location.thumbnail.offset + location.thumbnail.length, location.exifEnd)
                XCTAssertLessThanOrEqual(location.exifEnd, UInt64(original.count))
                _ = ExifThumbnailLocator.xmpFollows(bytes, from: location.exifEnd)
            case .missing(let range):
                XCTAssertLessThanOrEqual(range.offset + range.length, UInt64(original.count))
            case .none:
                break
            }
        }
        XCTAssertGreaterThan(found, 100, "most changes leave the thumbnail findable")
    }
}
