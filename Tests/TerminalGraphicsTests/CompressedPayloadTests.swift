import Foundation
import Imaging
import TerminalGraphics
import TerminalProtocol
import TestSupport
import XCTest

/// kitty and iTerm2 payloads made by livegrid (issue 28.3): a PNG or JPEG of exactly the cells' pixels.
final class CompressedPayloadTests: XCTestCase {
    private static let cell = PixelSizeInCells(width: 10, height: 20)

    private func photo(_ name: String = "train.jpg", columns: Int = 23, rows: Int = 9) throws -> PixelFrame {
        let frame = try ImageDecoder.decode(path: Fixtures.committed(name), fitting: PixelSize(width: 460, height: 360)).frame
        return frame.resized(to: CellGeometry.pixelBox(columns: columns, rows: rows, cell: Self.cell))
    }

    /// The base64 payloads of a protocol's commands, joined and decoded.
    private func file(in bytes: [UInt8], after marker: String) throws -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        var data = ""
        for piece in text.components(separatedBy: marker).dropFirst() {
            let body = piece.split(separator: ":", maxSplits: 1).last.map(String.init) ?? piece
            let payload = body.split(separator: ";", maxSplits: 1).last.map(String.init) ?? body
            data += payload.prefix { $0 != "\u{1B}" && $0 != "\u{07}" }
        }
        return try XCTUnwrap(Data(base64Encoded: data).map { Array($0) }, "payload is not base64")
    }

    func testKittyGetsAPNGOfTheCellsPixelsInChunks() throws {
        let frame = try photo()
        let renderer = ChafaRenderer(mode: .kitty, colorDepth: .truecolor, cellPixelSize: Self.cell)
        let image = try renderer.render(frame, columns: 23, rows: 9)
        let text = String(decoding: image.bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}_Ga=T,f=100,s=230,v=180,c=23,r=9,m=1;"), String(text.prefix(60)))
        XCTAssertTrue(text.hasSuffix("m=0;" + (text.components(separatedBy: "m=0;").last ?? "")), "the last chunk says m=0")
        let png = try file(in: image.bytes, after: "\u{1B}_G")
        let decoded = try PNGCodec.decode(png)
        XCTAssertEqual(decoded.size, frame.size)
        XCTAssertEqual(decoded.rgba, frame.rgba, "PNG is lossless")
        XCTAssertEqual(image.pixelSize, PixelSize(width: 230, height: 180))
        XCTAssertLessThan(image.bytes.count, frame.rgba.count * 4 / 3 * 3 / 4, "compressed below chafa's raw RGBA in base64")
    }

    func testITermGetsAJPEGForAPhotoAndAPNGForFlatColour() throws {
        let renderer = ChafaRenderer(mode: .iterm, colorDepth: .truecolor, cellPixelSize: Self.cell)
        let photo = try renderer.render(try photo(), columns: 23, rows: 9)
        let header = "\u{1B}]1337;File=inline=1;size="
        XCTAssertTrue(String(decoding: photo.bytes, as: UTF8.self).hasPrefix(header))
        XCTAssertTrue(String(decoding: photo.bytes, as: UTF8.self).contains(";width=23;height=9;preserveAspectRatio=0:"))
        XCTAssertEqual(photo.bytes.last, 0x07)
        let jpeg = try file(in: photo.bytes, after: "preserveAspectRatio=0")
        XCTAssertEqual(Array(jpeg.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG")
        XCTAssertLessThan(jpeg.count, 30_000, "a 230x180 photo as JPEG")

        var flat = PixelFrame(width: 230, height: 180, fill: (200, 30, 30, 255))
        for x in 0..<230 { flat.rgba[(90 * 230 + x) * 4 + 1] = 255 }
        let drawing = try renderer.render(flat, columns: 23, rows: 9)
        let png = try file(in: drawing.bytes, after: "preserveAspectRatio=0")
        XCTAssertEqual(try PNGCodec.decode(png).rgba, flat.rgba, "few colours: an exact PNG")
    }

    func testSixelStaysChafas() throws {
        let image = try ChafaRenderer(mode: .sixels, colorDepth: .truecolor, cellPixelSize: Self.cell)
            .render(try photo(), columns: 23, rows: 9)
        XCTAssertEqual(Array(image.bytes.prefix(2)), [0x1B, UInt8(ascii: "P")])
    }

    /// Measures PNG fast (no filters, level 3) against libpng's adaptive filters for the kitty payload on the
    /// real photos: bytes and encode time (printed, not asserted).
    func testMeasureKittyPNGFastAgainstFiltered() throws {
        var paths = [Fixtures.committed("train.jpg")]
        if let shared = Fixtures.sharedDirectory {
            paths += ["limitpoint/keyPhoto.jpg", "samsung-still.jpeg", "IMG_2927.HEIC", "iphone-se-still.heic",
                      "motion-photo.heic", "microvideo-v1.jpeg"].map { shared.appendingPathComponent($0).path }
        }
        var fastBytes = 0, filteredBytes = 0, jpegBytes = 0
        var fastTime = 0.0, filteredTime = 0.0, jpegTime = 0.0
        for path in paths where FileManager.default.fileExists(atPath: path) {
            let frame = try ImageDecoder.decode(path: path, fitting: PixelSize(width: 230, height: 180)).frame
            var start = Date()
            for _ in 0..<5 { fastBytes += try PNGCodec.encodePixels(frame, opaque: true, fast: true).count }
            fastTime += Date().timeIntervalSince(start)
            start = Date()
            for _ in 0..<5 { filteredBytes += try PNGCodec.encodePixels(frame, opaque: true, fast: false).count }
            filteredTime += Date().timeIntervalSince(start)
            start = Date()
            for _ in 0..<5 { jpegBytes += try JPEGEncoder.encode(frame, quality: 85).count }
            jpegTime += Date().timeIntervalSince(start)
        }
        let runs = Double(paths.count * 5)
        print(String(format: "kitty PNG fast: %d bytes/picture, %.1f ms; filtered: %d bytes, %.1f ms; JPEG q85: %d bytes, %.1f ms",
                     fastBytes / Int(runs), fastTime / runs * 1000, filteredBytes / Int(runs), filteredTime / runs * 1000,
                     jpegBytes / Int(runs), jpegTime / runs * 1000))
        XCTAssertLessThan(filteredBytes, fastBytes)
    }

    /// chafa 1.12's sixel encoding of a grid thumbnail (23x9 cells, 230x180 px) and of a full-screen movie
    /// frame (80x22 cells, 800x440 px), per picture on this machine (printed, not asserted): the yardstick
    /// for a faster quantiser (issue 28.3's third bullet).
    func testMeasureChafaSixelEncoding() throws {
        let renderer = ChafaRenderer(mode: .sixels, colorDepth: .truecolor, cellPixelSize: Self.cell)
        for (columns, rows) in [(23, 9), (80, 22)] {
            var total = 0.0, runs = 0, bytes = 0
            for name in ["train.jpg", "motion-photo-v1.jpeg"] {
                let frame = try photo(name, columns: columns, rows: rows)
                _ = try renderer.render(frame, columns: columns, rows: rows)   // the canvas is built once per size
                let start = Date()
                for _ in 0..<5 { bytes += try renderer.render(frame, columns: columns, rows: rows).bytes.count }
                total += Date().timeIntervalSince(start)
                runs += 5
            }
            print(String(format: "chafa sixel %dx%d cells: %.1f ms and %d bytes per picture", columns, rows,
                         total / Double(runs) * 1000, bytes / runs))
            XCTAssertGreaterThan(bytes, 0)
        }
    }
}
