import Foundation
import XCTest
import TestSupport
@testable import MediaFormats

/// Truncated and bit-flipped JPEGs through `MediaProbe.probe`: no crash, no hang, a value every time.
final class JPEGRobustnessTests: XCTestCase {
    static let fixtureNames = ["train.jpg", "apple-no-identifier.jpg", "samsung-still.jpeg", "limitpoint/keyPhoto.jpg",
                               "motion-photo-v1.jpeg", "microvideo-v1.jpeg"]

    /// The parsed part of a file: its first 256 KiB plus its last 64 KiB (trailers), so offsets near both
    /// ends stay meaningful while each probe stays cheap.
    static func compact(_ path: String) throws -> [UInt8] {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let head = 256 << 10, tail = 64 << 10
        guard data.count > head + tail else { return data }
        return Array(data[..<head]) + Array(data[(data.count - tail)...])
    }

    func inputs() throws -> [(String, [UInt8])] {
        var result: [(String, [UInt8])] = [
            ("committed train.jpg", try Self.compact(Fixtures.committed("train.jpg"))),
            ("committed motion-photo-v1.jpeg", try Self.compact(Fixtures.committed("motion-photo-v1.jpeg"))),
            ("generated", JPEGBuilder.jpeg(segments: [JPEGBuilder.exif(ExifReaderTests.littleEndianTIFFWithBigEndianMakerNote()),
                                                      JPEGBuilder.xmp(JPEGBuilder.motionPhotoXMP(length: 40))])
                + MotionPhotoLocatorTests.samsungTrailer(movie: JPEGBuilder.fakeMP4)),
        ]
        if Fixtures.sharedDirectory != nil {
            for name in Self.fixtureNames {
                result.append((name, try Self.compact(try Fixtures.shared(name))))
            }
        }
        return result
    }

    func testTruncatedAtManyOffsets() throws {
        for (name, bytes) in try inputs() {
            var cuts = Set(0..<min(64, bytes.count))
            for i in 0..<200 { cuts.insert(bytes.count * i / 200) }
            for cut in cuts.sorted() {
                let info = MediaProbe.probe(MemoryByteSource(Array(bytes[..<cut])))
                if cut >= 3 { XCTAssertEqual(info.format, .jpeg, "\(name) cut at \(cut)") }
            }
        }
    }

    func testSeededRandomByteFlips() throws {
        var rng = SplitMix64(seed: 0x11FE_6E1D)
        for (name, bytes) in try inputs() {
            // Flips land in the header (where parsing happens) and in the last KiB (trailers).
            let headerSpan = min(bytes.count, 64 << 10)
            for variant in 0..<60 {
                var mutated = bytes
                for _ in 0..<(1 + Int(rng.next() % 8)) {
                    let nearEnd = rng.next() % 4 == 0
                    let index = nearEnd ? max(0, bytes.count - 1 - Int(rng.next() % 1024)) : Int(rng.next() % UInt64(headerSpan))
                    mutated[index] = rng.next() % 2 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : 0xFF
                }
                let info = MediaProbe.probe(MemoryByteSource(mutated))
                XCTAssertNotEqual(info.format, .heif, "\(name) variant \(variant)")
            }
        }
    }
}
