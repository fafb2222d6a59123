import Foundation
@testable import Imaging
import MediaFormats
import TestSupport
import XCTest

/// Found by the decode fuzzer (issue 32.8): a 358-byte JPEG whose frame header claims 59552x47xx pixels kept
/// TurboJPEG drawing 44 million grey pixels for 11 s. A header claiming far more pixels than its bytes can
/// hold is damaged, said at once; a real file cut short is still drawn as far as it decodes.
final class ForgedSizeJPEGTests: XCTestCase {
    /// `jpeg` with the SOF0 frame header's height and width replaced.
    private func withFrameSize(_ jpeg: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        var bytes = jpeg
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = UInt8(height >> 8); bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8); bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }

    func testAHeaderClaimingGigapixelsInAFewBytesIsDamagedWithoutADecode() throws {
        let small = try GeneratedJPEG.encode(PixelFrame(width: 16, height: 16, rgba: [UInt8](repeating: 200, count: 16 * 16 * 4)))
        let forged = try withFrameSize(small, width: 59552, height: 47000)
        let source = MemoryByteSource(forged)
        XCTAssertThrowsError(try ImageDecoder.decode(source: source, info: MediaProbe.probe(source),
                                                     fitting: PixelSize(width: 48, height: 32))) { error in
            let description = (error as? ImagingError)?.description ?? "\(error)"
            XCTAssertTrue(description.contains("damaged JPEG"), description)
        }
        XCTAssertGreaterThan(UInt64(59552 * 47000), UInt64(forged.count) * JPEGDecoder.maxPixelsPerByte, "the bound is what refuses it")
    }

    func testARealPhotoCutShortIsStillDrawn() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed("train.jpg"))))
        for fraction in [0.05, 0.25] {
            let cut = MemoryByteSource(Array(bytes.prefix(Int(Double(bytes.count) * fraction))))
            let decoded = try ImageDecoder.decode(source: cut, info: MediaProbe.probe(cut), fitting: PixelSize(width: 48, height: 48),
                                                  options: DecodeOptions(useEmbeddedThumbnails: false))
            XCTAssertEqual(decoded.frame.width, 48, "cut at \(fraction)")
            XCTAssertNotNil(decoded.damage, "cut at \(fraction) is drawn and marked damaged")
        }
    }
}
