import Foundation
import Imaging
import MediaFormats
import TestSupport
import XCTest

final class ImageDecoderTests: XCTestCase {
    typealias Corner = GeneratedJPEG.Corner

    /// Where the upright picture's red (top-left) and green (top-right) markers lie in the stored pixels,
    /// per the Exif/TIFF definition of each orientation.
    static let storedMarkers: [Int: (red: Corner, green: Corner)] = [
        1: (.topLeft, .topRight), 2: (.topRight, .topLeft), 3: (.bottomRight, .bottomLeft), 4: (.bottomLeft, .bottomRight),
        5: (.topLeft, .bottomLeft), 6: (.bottomLeft, .topLeft), 7: (.bottomRight, .topRight), 8: (.topRight, .bottomRight),
    ]

    func testEveryExifOrientationDecodesUpright() throws {
        let upright = PixelSize(width: 64, height: 32)
        for orientation in 1...8 {
            let markers = Self.storedMarkers[orientation]!
            let stored = orientation >= 5 ? upright.transposed : upright
            let pixels = GeneratedJPEG.frame(width: stored.width, height: stored.height,
                                             markers: [(markers.red, GeneratedJPEG.red), (markers.green, GeneratedJPEG.green)])
            let jpeg = GeneratedJPEG.withExifOrientation(try GeneratedJPEG.encode(pixels), orientation: orientation)
            var info = MediaInfo(format: .jpeg)
            info.orientation = orientation
            let decoded = try ImageDecoder.decode(source: MemoryByteSource(jpeg), info: info, fitting: PixelSize(square: 256))
            XCTAssertEqual(decoded.frame.size, upright, "orientation \(orientation)")
            XCTAssertEqual(decoded.fullSize, upright, "orientation \(orientation)")
            XCTAssertTrue(GeneratedJPEG.isColor(GeneratedJPEG.sample(decoded.frame, .topLeft), GeneratedJPEG.red),
                          "orientation \(orientation): top-left is \(GeneratedJPEG.sample(decoded.frame, .topLeft))")
            XCTAssertTrue(GeneratedJPEG.isColor(GeneratedJPEG.sample(decoded.frame, .topRight), GeneratedJPEG.green),
                          "orientation \(orientation): top-right is \(GeneratedJPEG.sample(decoded.frame, .topRight))")

            // When the JPEG parser is merged, the probe must find the same orientation.
            let probed = MediaProbe.probe(MemoryByteSource(jpeg))
            if let found = probed.orientation {
                XCTAssertEqual(found, orientation)
                let viaProbe = try ImageDecoder.decode(source: MemoryByteSource(jpeg), info: probed, fitting: PixelSize(square: 256))
                XCTAssertEqual(viaProbe.frame.size, upright)
            }
        }
    }

    func testSmallTargetUsesDCTScalingAndFitsTheBox() throws {
        let pixels = GeneratedJPEG.frame(width: 1024, height: 768, markers: [(.topLeft, GeneratedJPEG.red)])
        let jpeg = try GeneratedJPEG.encode(pixels)
        let decoded = try ImageDecoder.decode(source: MemoryByteSource(jpeg), info: MediaInfo(format: .jpeg),
                                              fitting: PixelSize(square: 128))
        XCTAssertEqual(decoded.path, .jpegScaled)
        XCTAssertEqual(decoded.frame.size, PixelSize(width: 128, height: 96))
        let full = try ImageDecoder.decode(source: MemoryByteSource(jpeg), info: MediaInfo(format: .jpeg),
                                           fitting: PixelSize(square: 128), options: .fullDecode)
        XCTAssertEqual(full.path, .jpegFull)
        XCTAssertEqual(full.frame.size, PixelSize(width: 128, height: 96))
    }

    func testSmallImagesAreNeverEnlarged() throws {
        let jpeg = try GeneratedJPEG.encode(PixelFrame(width: 16, height: 8, fill: (10, 20, 30, 255)))
        let decoded = try ImageDecoder.decode(source: MemoryByteSource(jpeg), info: MediaInfo(format: .jpeg),
                                              fitting: PixelSize(square: 512))
        XCTAssertEqual(decoded.frame.size, PixelSize(width: 16, height: 8))
    }

    // MARK: real-world fixtures

    func assertDecodes(_ name: String, fullSize expected: PixelSize, box: Int = 256,
                       file: StaticString = #filePath, line: UInt = #line) throws -> DecodedImage {
        let path = try Fixtures.shared(name)
        let decoded = try ImageDecoder.decode(path: path, fitting: PixelSize(square: box))
        XCTAssertEqual(decoded.fullSize, expected, "\(name) full size", file: file, line: line)
        XCTAssertEqual(decoded.frame.size, expected.fittedDown(in: PixelSize(square: box)), "\(name) fitted", file: file, line: line)
        return decoded
    }

    func testTrainJPEG() throws {
        let d = try assertDecodes("train.jpg", fullSize: PixelSize(width: 4032, height: 3024))
        XCTAssertNotEqual(d.path, .jpegFull, "a 256 box must not decode 12 MP at full size")
    }

    func testTrainJPEGUsesTheExifThumbnailWhenSmallEnough() throws {
        let path = try Fixtures.shared("train.jpg")
        let info = try MediaProbe.probe(path: path)
        XCTAssertNotNil(info.exifThumbnail, "train.jpg embeds an Exif thumbnail")
        let decoded = try ImageDecoder.decode(path: path, info: info, fitting: PixelSize(square: 128))
        XCTAssertEqual(decoded.path, .exifThumbnail)
        XCTAssertEqual(decoded.frame.size, PixelSize(width: 128, height: 96))
    }

    func testSymbolModeAcceptsAThumbnailSlightlyUnderTheTarget() throws {
        let path = try Fixtures.shared("train.jpg")
        let info = try MediaProbe.probe(path: path)
        XCTAssertNotNil(info.exifThumbnail, "train.jpg embeds an Exif thumbnail")
        let box = PixelSize(width: 168, height: 128)   // 21x8 cells at 8x16 px
        XCTAssertEqual(try ImageDecoder.decode(path: path, info: info, fitting: box).path, .jpegScaled)
        let relaxed = try ImageDecoder.decode(path: path, info: info, fitting: box,
                                              options: DecodeOptions(embeddedThumbnailMinimumCoverage: 0.9))
        XCTAssertEqual(relaxed.path, .exifThumbnail)
        XCTAssertEqual(relaxed.frame.size, PixelSize(width: 160, height: 120), "never enlarged")
    }

    func testAppleHEICGrid() throws {
        // This iPhone 11 Pro file has no thumbnail item (libheif lists none): the grid is decoded.
        let d = try assertDecodes("IMG_2927.HEIC", fullSize: PixelSize(width: 3024, height: 4032), box: 128)
        XCTAssertEqual(d.path, .heifPrimary)
    }

    func testHEICThumbnailItemIsUsedWhenItCoversTheBox() throws {
        // iphone-se-still.heic carries a 320x240 thumbnail item.
        let small = try assertDecodes("iphone-se-still.heic", fullSize: PixelSize(width: 4032, height: 3024), box: 128)
        XCTAssertEqual(small.path, .heifThumbnail)
        let large = try assertDecodes("iphone-se-still.heic", fullSize: PixelSize(width: 4032, height: 3024), box: 512)
        XCTAssertEqual(large.path, .heifPrimary)
    }

    func testAppleHEICGridFullDecodeWhenTheThumbnailIsTooSmall() throws {
        let path = try Fixtures.shared("IMG_2927.HEIC")
        let d = try ImageDecoder.decode(path: path, fitting: PixelSize(square: 1024))
        XCTAssertEqual(d.path, .heifPrimary)
        XCTAssertEqual(d.frame.size, PixelSize(width: 768, height: 1024))
    }

    func testOtherStills() throws {
        _ = try assertDecodes("iphone-se-still.heic", fullSize: PixelSize(width: 4032, height: 3024))
        _ = try assertDecodes("samsung-still.jpeg", fullSize: PixelSize(width: 4032, height: 3024))
        _ = try assertDecodes("apple-no-identifier.jpg", fullSize: PixelSize(width: 8, height: 8))
        _ = try assertDecodes("limitpoint/keyPhoto.jpg", fullSize: PixelSize(width: 1296, height: 1618))
    }

    func testMotionPhotoStills() throws {
        _ = try assertDecodes("motion-photo-v1.jpeg", fullSize: PixelSize(width: 1024, height: 768))
        _ = try assertDecodes("microvideo-v1.jpeg", fullSize: PixelSize(width: 4032, height: 3024))
        _ = try assertDecodes("motion-photo.heic", fullSize: PixelSize(width: 3024, height: 4032))
    }

    /// HEICs rewritten by the writers (meta grown by a new Exif item; a Motion Photo with an mpvd box and
    /// a new XMP item) decode to the very same pixels through libheif.
    func testHEICsRewrittenByTheWritersDecodeTheSame() throws {
        let heic = try FileByteSource(path: try Fixtures.shared("motion-photo.heic"))
        let withExif = try MediaWriting.setContentIdentifier(still: heic, identifier: "0BADF00D-1111-4222-8333-444455556666").materialize(from: heic)
        let still = try FileByteSource(path: try Fixtures.shared("iphone-se-still.heic"))
        let movie = try FileByteSource(path: try Fixtures.shared("train.mov"))
        let motion = try MediaWriting.motionPhoto(still: try still.readExactly(at: 0, count: Int(still.size)), movie: movie,
                                                  presentationTimestampUs: 0).materialize(from: movie)
        // motion-photo.heic has no thumbnail item (128 decodes the primary); iphone-se-still.heic's covers 128.
        for (original, edited, boxes) in [(heic as any ByteSource, withExif, [128]), (still, motion, [128, 640])] {
            let output = MemoryByteSource(edited)
            for box in boxes {
                let before = try ImageDecoder.decode(source: original, info: MediaProbe.probe(original), fitting: PixelSize(square: box))
                let after = try ImageDecoder.decode(source: output, info: MediaProbe.probe(output), fitting: PixelSize(square: box))
                XCTAssertEqual(after.path, before.path)
                XCTAssertEqual(after.fullSize, before.fullSize)
                XCTAssertEqual(after.frame.rgba, before.frame.rgba, "box \(box)")
            }
        }
    }

    func testCommittedFixtureDecodesWithoutSharedDirectory() throws {
        let d = try ImageDecoder.decode(path: Fixtures.committed("train.jpg"), fitting: PixelSize(square: 64))
        XCTAssertEqual(d.frame.size, PixelSize(width: 64, height: 48))
    }

    // MARK: bad input

    func assertCannotDecode(_ bytes: [UInt8], format: ContainerFormat, _ what: String) {
        XCTAssertThrowsError(try ImageDecoder.decode(source: MemoryByteSource(bytes), info: MediaInfo(format: format),
                                                     fitting: PixelSize(square: 128)), what) { error in
            // Said in the user's terms (issue 15.5): damaged, or not a picture at all.
            let problem = (error as? ImagingError)?.problem
            XCTAssertTrue(problem?.isDamage == true || { if case .notAPicture = problem { return true }; return false }(),
                          "\(what): \(error)")
        }
    }

    /// A picture drawn from a damaged file (issue 15.6): marked, never an error.
    func assertDrawnDamaged(_ bytes: [UInt8], format: ContainerFormat, _ what: String) throws {
        let decoded = try ImageDecoder.decode(source: MemoryByteSource(bytes), info: MediaInfo(format: format),
                                              fitting: PixelSize(square: 128))
        XCTAssertEqual(decoded.frame.size, PixelSize(width: 128, height: 128), what)
        XCTAssertTrue(decoded.damage?.problem.isDamage ?? false, what)
    }

    func testTruncatedAndCorruptJPEGsAreErrors() throws {
        let jpeg = try GeneratedJPEG.encode(GeneratedJPEG.frame(width: 256, height: 256, markers: [(.topLeft, GeneratedJPEG.red)]))
        try assertDrawnDamaged(Array(jpeg.prefix(jpeg.count / 2)), format: .jpeg, "truncated JPEG")
        assertCannotDecode(Array(jpeg.prefix(20)), format: .jpeg, "JPEG cut in its header")
        assertCannotDecode([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x42, count: 500), format: .jpeg, "garbage after SOI")
        assertCannotDecode([], format: .jpeg, "empty")
        var corrupt = jpeg
        for i in stride(from: corrupt.count / 3, to: corrupt.count - 2, by: 7) { corrupt[i] = 0xFF }
        try assertDrawnDamaged(corrupt, format: .jpeg, "corrupt entropy data")
    }

    func testTruncatedHEICIsAnError() throws {
        let path = try Fixtures.shared("IMG_2927.HEIC")
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
        assertCannotDecode(Array(bytes.prefix(4000)), format: .heif, "HEIC without its mdat")
        assertCannotDecode(Array("....ftypheic".utf8) + [UInt8](repeating: 0, count: 64), format: .heif, "HEIC garbage")
    }

    func testMoviesAndUnknownFilesAreClearErrors() {
        XCTAssertThrowsError(try ImageDecoder.decode(source: MemoryByteSource([1, 2, 3]), info: MediaInfo(format: .unknown),
                                                     fitting: PixelSize(square: 64)))
        XCTAssertThrowsError(try ImageDecoder.decode(path: "/nonexistent/livegrid.jpg", fitting: PixelSize(square: 64))) {
            XCTAssertEqual("\($0)", "unreadable: no such file")
        }
    }
}
