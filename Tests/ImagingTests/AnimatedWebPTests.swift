import Foundation
import Imaging
import MediaFormats
import TestSupport
import XCTest

/// Issue 32.9: an animated WebP shows its first frame (libav 5.1 alone called it damaged), lossy with an alpha
/// plane and lossless alike; a damaged one is still called damaged and never crashes.
final class AnimatedWebPTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws { dir = try Fixtures.makeTemporaryDirectory("livegrid-anim-webp") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// Five frames of 64x48: the first one solid red, then solid blue (so the first frame is told apart).
    private func animation(_ name: String, codecOptions: [String]) throws -> String {
        try LibavTestMedia.generate(name, in: dir, arguments: [
            "-f", "lavfi", "-i", "color=c=red:size=64x48:rate=5:duration=0.2",
            "-f", "lavfi", "-i", "color=c=blue:size=64x48:rate=5:duration=0.8",
            "-filter_complex", "[0][1]concat=n=2:v=1", "-loop", "0"] + codecOptions)
    }

    private func meanColour(_ frame: PixelFrame) -> (r: Int, g: Int, b: Int) {
        var sums = (0, 0, 0)
        for pixel in stride(from: 0, to: frame.rgba.count, by: 4) {
            sums.0 += Int(frame.rgba[pixel]); sums.1 += Int(frame.rgba[pixel + 1]); sums.2 += Int(frame.rgba[pixel + 2])
        }
        let count = max(frame.width * frame.height, 1)
        return (sums.0 / count, sums.1 / count, sums.2 / count)
    }

    func testTheFirstFrameOfAnAnimatedWebPIsShownNotCalledDamaged() throws {
        let variants = [("lossy.webp", ["-c:v", "libwebp_anim", "-pix_fmt", "yuv420p"]),
                        ("alpha.webp", ["-c:v", "libwebp_anim", "-pix_fmt", "yuva420p"]),
                        ("lossless.webp", ["-c:v", "libwebp_anim", "-lossless", "1"])]
        for (name, options) in variants {
            let path = try animation(name, codecOptions: options)
            let source = try FileByteSource(path: path)
            XCTAssertTrue(WebPAnimation.isAnimated(source), name)
            let still = try XCTUnwrap(WebPAnimation.firstFrameStill(source), name)
            XCTAssertEqual(Array(still[0..<4]), Array("RIFF".utf8), name)
            XCTAssertEqual(Int(still[4]) | Int(still[5]) << 8 | Int(still[6]) << 16 | Int(still[7]) << 24, still.count - 8,
                           "\(name): the RIFF size is the file's")
            let decoded = try ImageDecoder.decode(path: path, fitting: PixelSize(width: 64, height: 48))
            XCTAssertNil(decoded.damage, "\(name): \(String(describing: decoded.damage))")
            XCTAssertEqual(decoded.frame.width, 64, name)
            XCTAssertEqual(decoded.frame.height, 48, name)
            let colour = meanColour(decoded.frame)
            XCTAssertGreaterThan(colour.r, 200, "\(name): the first frame is red: \(colour)")
            XCTAssertLessThan(colour.b, 60, "\(name): not the later blue frames: \(colour)")
        }
    }

    func testAStillWebPIsNotTakenForAnAnimation() throws {
        let path = try LibavTestMedia.generate("still.webp", in: dir, arguments: ["-f", "lavfi", "-i", "color=c=red:size=64x48", "-frames:v", "1"])
        let source = try FileByteSource(path: path)
        XCTAssertFalse(WebPAnimation.isAnimated(source))
        XCTAssertNil(WebPAnimation.firstFrameStill(source))
    }

    /// Every cut and a few hundred byte flips of the chunk headers: a still file or nil, never a crash or a
    /// read past the end; the decoder then says damaged or shows what it could.
    func testCutAndFlippedAnimationsNeverCrash() throws {
        let path = try animation("cut.webp", codecOptions: ["-c:v", "libwebp_anim", "-pix_fmt", "yuva420p"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var rng = SplitMix64(seed: 32)
        var variants: [[UInt8]] = (0..<bytes.count).map { Array(bytes[0..<$0]) }
        for _ in 0..<300 {
            var flipped = bytes
            let position = Int.random(in: 0..<min(bytes.count, 96), using: &rng)
            flipped[position] = [0x00, 0xFF, UInt8.random(in: 0...255, using: &rng)][Int.random(in: 0..<3, using: &rng)]
            variants.append(flipped)
        }
        for variant in variants {
            let source = MemoryByteSource(variant)
            if let still = WebPAnimation.firstFrameStill(source) {
                XCTAssertEqual(Array(still[8..<12]), Array("WEBP".utf8))
            }
            _ = try? ImageDecoder.decode(source: source, info: MediaProbe.probe(source), fitting: PixelSize(width: 32, height: 24))   // try?: damage is expected, a crash is not
        }
    }
}
