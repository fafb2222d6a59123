import Foundation
import MediaFormats
import TestSupport
import XCTest
@testable import Imaging

/// The libavcodec path for HEVC-coded HEIF images against libheif (the old path) on the same files.
final class HEIFDecoderHEVCTests: XCTestCase {
    /// Mean absolute difference per channel (R, G, B) between two frames of the same size.
    static func meanDifference(_ a: PixelFrame, _ b: PixelFrame) -> [Double] {
        var sums = [0, 0, 0]
        for i in stride(from: 0, to: min(a.rgba.count, b.rgba.count), by: 4) {
            for c in 0..<3 { sums[c] += abs(Int(a.rgba[i + c]) - Int(b.rgba[i + c])) }
        }
        return sums.map { Double($0) / Double(max(1, a.width * a.height)) }
    }

    /// Decodes `source` both ways at `box`; they must agree on size and (within `tolerance` levels) pixels.
    @discardableResult
    private func assertMatchesLibheif(_ source: any ByteSource, box: Int, options: DecodeOptions = .default,
                                      expectedPath: DecodePath, tolerance: Double = 3, _ what: String,
                                      file: StaticString = #filePath, line: UInt = #line) throws -> DecodedImage {
        let new = try HEIFDecoder.decodeWithLibav(source: source, box: PixelSize(square: box), options: options)
        let old = try HEIFDecoder.decodeWithLibheif(source: source, box: PixelSize(square: box), options: options)
        XCTAssertEqual(new.path, expectedPath, what, file: file, line: line)
        XCTAssertEqual(new.path, old.path, what, file: file, line: line)
        XCTAssertEqual(new.fullSize, old.fullSize, what, file: file, line: line)
        XCTAssertEqual(new.frame.size, old.frame.size, what, file: file, line: line)
        XCTAssertTrue(new.frame.rgba.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }, "opaque: \(what)",
                      file: file, line: line)
        guard new.frame.size == old.frame.size else { return new }
        let difference = Self.meanDifference(new.frame, old.frame)
        print("HEVC vs libheif, \(what) at \(new.frame.size): mean |difference| per channel \(difference.map { String(format: "%.2f", $0) })")
        XCTAssertTrue(difference.allSatisfy { $0 < tolerance }, "\(what): \(difference)", file: file, line: line)
        return new
    }

    func testAppleGridMatchesLibheif() throws {
        let source = try FileByteSource(path: try Fixtures.shared("IMG_2927.HEIC"))
        let small = try assertMatchesLibheif(source, box: 128, expectedPath: .heifPrimary, "IMG_2927 (loop filter skipped)")
        XCTAssertEqual(small.frame.size, PixelSize(width: 96, height: 128))
        XCTAssertEqual(small.fullSize, PixelSize(width: 3024, height: 4032))
        try assertMatchesLibheif(source, box: 1000, expectedPath: .heifPrimary, "IMG_2927 at 1000")
        // Over half the size: the loop filter runs; also a size that is no multiple of the tile layout.
        try assertMatchesLibheif(source, box: 2500, expectedPath: .heifPrimary, "IMG_2927 at 2500 (loop filter on)")
    }

    func testThumbnailItemAndGridMatchLibheif() throws {
        let source = try FileByteSource(path: try Fixtures.shared("iphone-se-still.heic"))
        let thumbnail = try assertMatchesLibheif(source, box: 128, expectedPath: .heifThumbnail, "iphone-se thumbnail item")
        XCTAssertEqual(thumbnail.frame.size, PixelSize(width: 128, height: 96))
        try assertMatchesLibheif(source, box: 512, expectedPath: .heifPrimary, "iphone-se grid")
        try assertMatchesLibheif(source, box: 128, options: DecodeOptions(useEmbeddedThumbnails: false),
                                 expectedPath: .heifPrimary, "iphone-se grid without the thumbnail")
    }

    func testSingleCodedPictureMatchesLibheif() throws {
        let source = try FileByteSource(path: try Fixtures.shared("motion-photo.heic"))
        let small = try assertMatchesLibheif(source, box: 256, expectedPath: .heifPrimary, "motion-photo")
        XCTAssertEqual(small.frame.size, PixelSize(width: 192, height: 256))
    }

    /// libheif's own encoder writes an `nclx` colr box and an odd size (a conformance window); no shared fixtures needed.
    func testGeneratedHEICWithNCLXMatchesLibheif() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-hevc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = dir.appendingPathComponent("picture.png").path
        _ = try ExternalTool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=333x221:rate=1", "-frames:v", "1", "-y", picture])
        let path = dir.appendingPathComponent("generated.heic").path
        _ = try ExternalTool.run("heif-enc", ["-q", "90", picture, "-o", path])
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("heif-enc made no file") }
        let source = try FileByteSource(path: path)
        let meta = try HEIFMeta.load(from: source, limits: .default)
        let image = try meta.codedImage(try XCTUnwrap(meta.primaryItemID), source: source, limits: .default)
        print("heif-enc colour: \(image.colour.map { "\($0)" } ?? "none (VUI or default)")")
        let full = try assertMatchesLibheif(source, box: 1000, expectedPath: .heifPrimary, tolerance: 4, "heif-enc 333x221")
        XCTAssertEqual(full.frame.size, image.uprightSize)
        try assertMatchesLibheif(source, box: 100, expectedPath: .heifPrimary, tolerance: 4, "heif-enc 333x221 at 100")
    }

    func testTransformsApplyToTheSmallPicture() throws {
        let source = try FileByteSource(path: try Fixtures.shared("IMG_2927.HEIC"))
        let meta = try HEIFMeta.load(from: source, limits: .default)
        var image = try meta.codedImage(49, source: source, limits: .default)
        image.transforms = []
        let plain = try HEIFDecoder.render(image, source: source, upright: PixelSize(width: 96, height: 128), limits: .default).0
        image.transforms = [.rotation(counterClockwiseQuarterTurns: 1), .mirror(axis: 0)]
        let turned = try HEIFDecoder.render(image, source: source, upright: PixelSize(width: 128, height: 96), limits: .default).0
        XCTAssertEqual(turned.rgba, plain.rotated(clockwiseDegrees: -90).flippedHorizontally().rgba)
        // A centred clap keeping the middle half of each side.
        image.transforms = [.cleanAperture(HEIFCleanAperture(widthN: 1512, widthD: 1, heightN: 2016, heightD: 1,
                                                             horizontalOffsetN: 0, horizontalOffsetD: 1, verticalOffsetN: 0, verticalOffsetD: 1))]
        XCTAssertEqual(image.uprightSize, PixelSize(width: 1512, height: 2016))
        let cropped = try HEIFDecoder.render(image, source: source, upright: PixelSize(width: 48, height: 64), limits: .default).0
        XCTAssertEqual(cropped.size, PixelSize(width: 48, height: 64))
        let middle = plain.cropped(fromFullSize: PixelSize(width: 3024, height: 4032), rectangle: (756, 1008, 1512, 2016))
        XCTAssertEqual(middle.size, cropped.size)
        XCTAssertLessThan(Self.meanDifference(middle, cropped).max() ?? 99, 1)
    }

    func testTileSizeNotMatchingTheCodedPictureIsRefused() throws {
        let source = try FileByteSource(path: try Fixtures.shared("IMG_2927.HEIC"))
        let meta = try HEIFMeta.load(from: source, limits: .default)
        var image = try meta.codedImage(49, source: source, limits: .default)
        image.tileWidth = 256
        XCTAssertThrowsError(try HEIFDecoder.render(image, source: source, upright: PixelSize(width: 96, height: 128), limits: .default)) {
            XCTAssertTrue(($0 as? ImagingError)?.verboseDescription.contains("decoded to 512x512") ?? false, "\($0)")
        }
    }

    func testTileBoundariesLeaveNoGap() {
        XCTAssertEqual(HEVCTileGrid.boundaries(count: 6, tileSize: 512, fullSize: 3024, targetSize: 96), [0, 16, 33, 49, 65, 81, 96])
        XCTAssertEqual(HEVCTileGrid.boundaries(count: 1, tileSize: 100, fullSize: 100, targetSize: 7), [0, 7])
        // More tiles than output pixels: some tiles get none, the edges still reach the end.
        let tiny = HEVCTileGrid.boundaries(count: 8, tileSize: 512, fullSize: 4032, targetSize: 3)
        XCTAssertEqual(tiny.first, 0)
        XCTAssertEqual(tiny.last, 3)
        XCTAssertEqual(tiny, tiny.sorted())
        // The same on the real 6x8 grid, when ../shared is here (a fresh clone checks the arithmetic only).
        if let grid = try? Fixtures.shared("IMG_2927.HEIC") {
            let one = try? HEIFDecoder.decodeWithLibav(source: FileByteSource(path: grid), box: PixelSize(square: 3),
                                                       options: .default)
            XCTAssertEqual(one?.frame.size, PixelSize(width: 2, height: 3))
        }
    }

    // MARK: bad input

    func testCorruptAndTruncatedHEICsAreErrorsNotCrashes() throws {
        let path = try Fixtures.shared("IMG_2927.HEIC")   // skips (not fails) in a fresh clone
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path)).map { $0 }
        let box = PixelSize(square: 128)
        // Cut before any tile: nothing to show.
        XCTAssertThrowsError(try HEIFDecoder.decodeWithLibav(source: MemoryByteSource(Array(bytes.prefix(4000))), box: box,
                                                             options: .default), "cut at 4000")
        // Cut inside the mdat: the last tiles' extents lie outside the file; the others are drawn, the
        // missing ones grey, and the picture is marked (issue 15.6).
        for length in [bytes.count / 2, bytes.count - 1] {
            let decoded = try HEIFDecoder.decodeWithLibav(source: MemoryByteSource(Array(bytes.prefix(length))), box: box,
                                                          options: .fullDecode)
            XCTAssertEqual(decoded.frame.size, PixelSize(width: 96, height: 128), "cut at \(length)")
            XCTAssertEqual(decoded.damage?.description, "damaged HEIC: the file ends early", "cut at \(length)")
        }
        // Half the file: the top half of the grid decodes, the bottom rows are grey.
        let half = try HEIFDecoder.decodeWithLibav(source: MemoryByteSource(Array(bytes.prefix(bytes.count / 2))), box: box,
                                                   options: .fullDecode)
        let whole = try HEIFDecoder.decodeWithLibav(source: MemoryByteSource(bytes), box: box, options: .fullDecode)
        let lastRow = (127 * 96) * 4
        XCTAssertEqual(Array(half.frame.rgba[lastRow..<lastRow + 4]), [0x80, 0x80, 0x80, 0xFF], "missing tiles are opaque grey")
        XCTAssertEqual(Array(half.frame.rgba[0..<96 * 4 * 8]), Array(whole.frame.rgba[0..<96 * 4 * 8]), "the first tile rows are the picture")
        // Garbage over the coded tiles: decoded into something or refused, never a crash.
        var corrupt = bytes
        for i in stride(from: 4000, to: corrupt.count, by: 101) { corrupt[i] ^= 0x5A }
        do {
            let decoded = try HEIFDecoder.decodeWithLibav(source: MemoryByteSource(corrupt), box: box, options: .default)
            XCTAssertEqual(decoded.frame.size, PixelSize(width: 96, height: 128))
        } catch {
            XCTAssertTrue(error.problem.isDamage, error.verboseDescription)
        }
        // Zeroed tile data: the decoder finds no picture.
        var zeroed = bytes
        for i in 3400..<zeroed.count { zeroed[i] = 0 }
        XCTAssertThrowsError(try HEIFDecoder.decodeWithLibav(source: MemoryByteSource(zeroed), box: box, options: .default))
        // Through the public entry point (libheif fallback included), still an error value.
        XCTAssertThrowsError(try ImageDecoder.decode(source: MemoryByteSource(zeroed), info: MediaInfo(format: .heif), fitting: box))
    }

    /// Seeded byte flips in the meta box and the first tiles, decoded through libavcodec: an image or an error.
    func testFlippedBytesNeverCrash() throws {
        let path = try Fixtures.shared("IMG_2927.HEIC")   // skips (not fails) in a fresh clone
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path)).map { $0 }
        var generator = SplitMix64(seed: 7)
        for variant in 0..<30 {
            var flipped = bytes
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                // The meta box is bytes 32..<3303; the first tiles follow it.
                let offset = Int.random(in: 32..<12_000, using: &generator)
                flipped[offset] = Bool.random(using: &generator) ? UInt8.random(in: 0...255, using: &generator) : 0xFF
            }
            do {
                let decoded = try HEIFDecoder.decodeWithLibav(source: MemoryByteSource(flipped), box: PixelSize(square: 32), options: .default)
                XCTAssertFalse(decoded.frame.size.isEmpty, "variant \(variant)")
            } catch {
                XCTAssertFalse(error.description.isEmpty, "variant \(variant)")
            }
        }
    }
}
