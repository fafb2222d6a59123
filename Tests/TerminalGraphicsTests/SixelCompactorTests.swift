import Foundation
import Imaging
import TerminalGraphics
import TerminalProtocol
import TestSupport
import XCTest

/// Issue 28 (bytes per picture): chafa's sixel written again with each on-screen colour defined once.
final class SixelCompactorTests: XCTestCase {
    /// What a terminal draws from a sixel image: the colour (its palette entry's percent triple) of every
    /// pixel, nil where nothing is drawn. Independent of the compactor: a plain reading of the format.
    static func draw(_ bytes: [UInt8]) -> (width: Int, height: Int, pixels: [[Int]?])? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let q = text.firstIndex(of: "q") else { return nil }
        let body = Array(text[text.index(after: q)...].utf8)
        var i = 0
        func number() -> Int {
            var n = 0
            while i < body.count, (48...57).contains(body[i]) { n = n * 10 + Int(body[i] - 48); i += 1 }
            return n
        }
        guard body.first == UInt8(ascii: "\"") else { return nil }
        i = 1
        _ = number(); i += 1; _ = number(); i += 1
        let width = number(); i += 1
        let height = number()
        var palette: [Int: [Int]] = [:]
        var pixels = [[Int]?](repeating: nil, count: width * (height + 6))
        var colour = 0, x = 0, band = 0
        while i < body.count, body[i] != 0x1B {
            let byte = body[i]
            if byte == UInt8(ascii: "#") {
                i += 1
                let n = number()
                if i < body.count, body[i] == UInt8(ascii: ";") {
                    var values: [Int] = []
                    while i < body.count, body[i] == UInt8(ascii: ";") { i += 1; values.append(number()) }
                    palette[n] = Array(values.dropFirst())
                } else {
                    colour = n
                }
                continue
            }
            var count = 1
            var character = byte
            if byte == UInt8(ascii: "!") { i += 1; count = number(); character = body[i] }
            switch character {
            case UInt8(ascii: "$"): x = 0
            case UInt8(ascii: "-"): x = 0; band += 1
            case 63...126:
                let bits = Int(character) - 63
                for k in 0..<6 where bits >> k & 1 == 1 {
                    for column in x..<(x + count) where column < width { pixels[(band * 6 + k) * width + column] = palette[colour] }
                }
                x += count
            default: return nil
            }
            i += 1
        }
        return (width, height, Array(pixels.prefix(width * height)))
    }

    func testDuplicateColoursAreMergedAndTheScreenIsTheSame() throws {
        // Entries 0 and 1 are the same colour: the band's two lines become one.
        let sixel = Array("\u{1B}P0;1;0q\"1;1;4;6#0;2;10;20;30#1;2;10;20;30#2;2;90;0;0#0~~$#1??~~$#2!4@\u{1B}\\".utf8)
        let compacted = SixelCompactor.compact(sixel)
        XCTAssertEqual(String(decoding: compacted, as: UTF8.self),
                       "\u{1B}P0;1;0q\"1;1;4;6#0;2;10;20;30#2;2;90;0;0#0!4~$#2!4@\u{1B}\\")
        XCTAssertEqual(try XCTUnwrap(Self.draw(compacted)).pixels, try XCTUnwrap(Self.draw(sixel)).pixels)
    }

    func testSomethingElseIsLeftAlone() {
        let hls = Array("\u{1B}P0;1;0q\"1;1;1;6#0;1;120;50;100#0~\u{1B}\\".utf8)
        XCTAssertEqual(SixelCompactor.compact(hls), hls, "an HLS colour")
        let odd = Array("\u{1B}P0;1;0q\"1;1;1;6#0;2;1;2;3#0~x\u{1B}\\".utf8)
        XCTAssertEqual(SixelCompactor.compact(odd), odd, "a byte sixel does not have")
        let wide = Array("\u{1B}P0;1;0q\"1;1;1;6#0;2;1;2;3#0~~\u{1B}\\".utf8)
        XCTAssertEqual(SixelCompactor.compact(wide), wide, "a line wider than the image")
    }

    /// Real photos through chafa: the same pixels on screen, in fewer bytes.
    func testRealPhotosDrawTheSameInFewerBytes() throws {
        let cell = PixelSizeInCells(width: 10, height: 20)
        var before = 0, after = 0
        for path in [Fixtures.committed("train.jpg"), Fixtures.committed("motion-photo-v1.jpeg"),
                     try Fixtures.shared("iphone-se-still.heic")] {
            let frame = try ImageDecoder.decode(path: path, fitting: PixelSize(width: 230, height: 180)).frame
            let renderer = ChafaRenderer(mode: .sixels, colorDepth: .truecolor, cellPixelSize: cell)
            let compacted = try renderer.render(frame, columns: 23, rows: 9).bytes
            let chafasOwn = try renderer.chafaPrintedBytes(frame, columns: 23, rows: 9)
            let chafas = try XCTUnwrap(Self.draw(chafasOwn)), ours = try XCTUnwrap(Self.draw(compacted))
            XCTAssertEqual(ours.width, chafas.width)
            XCTAssertEqual(ours.height, chafas.height)
            XCTAssertTrue(ours.pixels == chafas.pixels, "\(path): the same colour at every pixel")
            before += chafasOwn.count
            after += compacted.count
        }
        print("sixel bytes, 3 photos at 23x9 cells: chafa \(before), compacted \(after)")
        XCTAssertLessThan(after, before)
    }

    /// The cost on a movie frame's size (80x22 cells, 800x440 px): printed, not asserted (no wall-clock asserts).
    func testMeasureCompactingAFrame() throws {
        let frame = try ImageDecoder.decode(path: Fixtures.committed("train.jpg"), fitting: PixelSize(width: 800, height: 440)).frame
        let renderer = ChafaRenderer(mode: .sixels, colorDepth: .truecolor, cellPixelSize: PixelSizeInCells(width: 10, height: 20))
        let printed = try renderer.chafaPrintedBytes(frame, columns: 80, rows: 22)
        let start = DispatchTime.now().uptimeNanoseconds
        let compacted = SixelCompactor.compact(printed)
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        print("MEASURE sixel compaction of a \(frame.width)x\(frame.height) frame: \(printed.count) -> \(compacted.count) bytes in \(String(format: "%.1f", milliseconds)) ms")
        XCTAssertLessThanOrEqual(compacted.count, printed.count)
    }
}
