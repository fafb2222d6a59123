import Foundation
import Imaging
import MediaFormats
import TestSupport
import XCTest

final class LibavImageDecoderTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try Fixtures.makeTemporaryDirectory("livegrid-libav-image")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A 96x64 test pattern in `format` made by the ffmpeg CLI.
    private func generated(_ name: String, extra: [String] = []) throws -> String {
        try LibavTestMedia.generate(name, in: directory,
                                    arguments: ["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10:duration=0.3"] + extra)
    }

    private func assertDecodes(_ name: String, extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try generated(name, extra: extra)
        let full = try LibavImageDecoder.decodeFirstFrame(path: path)
        XCTAssertEqual(full.width, 96, name, file: file, line: line)
        XCTAssertEqual(full.height, 64, name, file: file, line: line)
        // The test pattern is colourful: not a blank frame.
        XCTAssertGreaterThan(Set(full.rgba).count, 8, name, file: file, line: line)
        let small = try LibavImageDecoder.decodeFirstFrame(path: path, maxSize: PixelSize(width: 48, height: 48))
        XCTAssertEqual(small.width, 48, name, file: file, line: line)
        XCTAssertEqual(small.height, 32, name, file: file, line: line)
        // Never enlarged.
        let big = try LibavImageDecoder.decodeFirstFrame(path: path, maxSize: PixelSize(width: 1000, height: 1000))
        XCTAssertEqual(big.width, 96, name, file: file, line: line)
    }

    func testPNG() throws { try assertDecodes("pattern.png", extra: ["-frames:v", "1"]) }
    func testGIFFirstFrame() throws { try assertDecodes("pattern.gif") }
    func testWebP() throws { try assertDecodes("pattern.webp", extra: ["-frames:v", "1"]) }
    func testBMP() throws { try assertDecodes("pattern.bmp", extra: ["-frames:v", "1"]) }
    func testTIFF() throws { try assertDecodes("pattern.tiff", extra: ["-frames:v", "1"]) }

    func testDecodesFromMemoryWithoutAFileName() throws {
        let path = try generated("memory.png", extra: ["-frames:v", "1"])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let frame = try LibavImageDecoder.decodeFirstFrame(source: MemoryByteSource(bytes))
        XCTAssertEqual(frame.width, 96)
    }

    func testGarbageAndTruncatedDataGiveErrors() throws {
        XCTAssertThrowsError(try LibavImageDecoder.decodeFirstFrame(source: MemoryByteSource(Array(repeating: 0x5A, count: 4096)))) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot decode"), "\(error)")
        }
        XCTAssertThrowsError(try LibavImageDecoder.decodeFirstFrame(source: MemoryByteSource([])))
        let path = try generated("truncated.png", extra: ["-frames:v", "1"])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // A PNG cut after its header: an error (or at worst a partial picture), never a crash.
        do {
            let frame = try LibavImageDecoder.decodeFirstFrame(source: MemoryByteSource(Array(bytes.prefix(60))))
            XCTAssertEqual(frame.width, 96)
        } catch {
            XCTAssertFalse(error.description.isEmpty, "the cut PNG's error says something")
        }
    }

    /// A PNG whose header claims 60000x60000 pixels (14 GB as RGBA) must be refused, not allocated.
    func testAbsurdDimensionsAreRefused() {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let ihdr = bigEndian(60000) + bigEndian(60000) + [8, 6, 0, 0, 0]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
        XCTAssertThrowsError(try LibavImageDecoder.decodeFirstFrame(source: MemoryByteSource(png))) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot decode"), "\(error)")
        }
    }

    private func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
