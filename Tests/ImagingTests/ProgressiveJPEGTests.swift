import CJPEGScans
import CTurboJPEG
import Foundation
import Imaging
import MediaFormats
import TestSupport
import XCTest

/// Progressive JPEGs at 1/8 scale read only the scans that carry the DC coefficients.
final class ProgressiveJPEGTests: XCTestCase {
    /// train.jpg (a real 12 MP iPhone photo) made progressive without loss by TurboJPEG's transformer, as
    /// jpegtran -progressive does (libjpeg's standard script: DC first, its last bit in scan 7 of 10).
    static func progressiveTrain() throws -> [UInt8] {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.shared("train.jpg"))))
        guard let handle = tjInitTransform() else { throw XCTSkip("TurboJPEG transformer unavailable") }
        defer { tjDestroy(handle) }
        var transform = tjtransform()
        transform.op = Int32(TJXOP_NONE.rawValue)
        transform.options = Int32(TJXOPT_PROGRESSIVE) | Int32(TJXOPT_COPYNONE)
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let rc = original.withUnsafeBufferPointer { source in
            tjTransform(handle, source.baseAddress, UInt(source.count), 1, &output, &size, &transform, 0)
        }
        XCTAssertEqual(rc, 0, String(cString: tjGetErrorStr2(handle)))
        guard let output else { throw XCTSkip("no transform output") }
        defer { tjFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    func testAProgressiveJPEGAtOneEighthStopsAfterTheDCScansAndLooksLikeTheFullDecode() throws {
        let progressive = try Self.progressiveTrain()
        let directory = try Fixtures.makeTemporaryDirectory("progressive")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("progressive.jpg").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(progressive))

        // 4032x3024 at 1/8 is 504x378: a 480x360 box needs it; no Exif thumbnail is left (COPYNONE).
        let box = PixelSize(width: 480, height: 360)
        let early = try ImageDecoder.decode(path: path, fitting: box)
        XCTAssertEqual(early.path, .jpegFirstScans)
        XCTAssertNil(early.damage)
        XCTAssertEqual(early.frame.size, PixelSize(width: 480, height: 360))

        // The reference: the baseline original through TurboJPEG at 1/8 (all coefficients), same resample.
        let reference = try ImageDecoder.decode(path: Fixtures.shared("train.jpg"), fitting: box,
                                                options: DecodeOptions(useEmbeddedThumbnails: false))
        XCTAssertEqual(reference.path, .jpegScaled)
        // The DC's last bit is missing (Q_dc / 8 per pixel: 0.25 for train.jpg's table of 2); chroma upsampling
        // spreads it at a few saturated edges. Measured: mean 0.32, 99.98 % of the channels within 8 levels.
        var total = 0, over8 = 0
        for (a, b) in zip(early.frame.rgba, reference.frame.rgba) {
            let difference = abs(Int(a) - Int(b))
            total += difference
            if difference > 8 { over8 += 1 }
        }
        XCTAssertLessThan(Double(total) / Double(early.frame.rgba.count), 0.5, "mean channel difference")
        XCTAssertLessThan(Double(over8) / Double(early.frame.rgba.count), 0.001, "channels more than 8 levels off")
    }

    func testTheDecoderReadsFewerScansThanTheFileHas() throws {
        let progressive = try Self.progressiveTrain()
        var outcome = lg_jpeg_outcome()
        var rgba = [UInt8](repeating: 0, count: 504 * 378 * 4)
        let status = progressive.withUnsafeBufferPointer { source in
            rgba.withUnsafeMutableBufferPointer { lg_jpeg_decode_progressive_eighth(source.baseAddress, source.count, $0.baseAddress, 504, 378, &outcome) }
        }
        XCTAssertEqual(status, Int32(LG_JPEG_DECODED))
        XCTAssertEqual(outcome.stopped_early, 1)
        // libjpeg's script sends every component's DC (all but its last bit) in scan 1 of 10; the decoder has
        // read the next scan's header when it stops.
        XCTAssertLessThanOrEqual(outcome.scans_read, 2)
        XCTAssertEqual(outcome.warnings, 0)
    }

    func testABaselineJPEGIsNotForThisPath() throws {
        let baseline = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.shared("train.jpg"))))
        var outcome = lg_jpeg_outcome()
        var rgba = [UInt8](repeating: 0, count: 504 * 378 * 4)
        let status = baseline.withUnsafeBufferPointer { source in
            rgba.withUnsafeMutableBufferPointer { lg_jpeg_decode_progressive_eighth(source.baseAddress, source.count, $0.baseAddress, 504, 378, &outcome) }
        }
        XCTAssertEqual(status, Int32(LG_JPEG_NOT_APPLICABLE))
    }

    func testAProgressiveJPEGCutShortIsStillReportedDamaged() throws {
        let progressive = try Self.progressiveTrain()
        let directory = try Fixtures.makeTemporaryDirectory("progressive")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cut.jpg").path
        // Cut at 40 %: the DC scan is whole, the file is not.
        _ = FileManager.default.createFile(atPath: path, contents: Data(progressive.prefix(progressive.count * 4 / 10)))
        let decoded = try ImageDecoder.decode(path: path, fitting: PixelSize(width: 480, height: 360))
        XCTAssertNotEqual(decoded.path, .jpegFirstScans)
        XCTAssertNotNil(decoded.damage, "a file cut short must be marked damaged")
    }

    func testGarbageAfterTheHeaderFailsWithoutACrash() throws {
        var progressive = try Self.progressiveTrain()
        // Overwrite the entropy-coded data after the first SOS with noise.
        var random = SplitMix64(seed: 18)
        let start = progressive.count / 20
        for index in start..<(start + 20_000) { progressive[index] = UInt8(truncatingIfNeeded: random.next()) }
        var outcome = lg_jpeg_outcome()
        var rgba = [UInt8](repeating: 0, count: 504 * 378 * 4)
        let status = progressive.withUnsafeBufferPointer { source in
            rgba.withUnsafeMutableBufferPointer { lg_jpeg_decode_progressive_eighth(source.baseAddress, source.count, $0.baseAddress, 504, 378, &outcome) }
        }
        XCTAssertNotEqual(status, Int32(LG_JPEG_DECODED), "corrupt data must not pass as a clean decode")
    }
}
