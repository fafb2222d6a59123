import Foundation
import TestSupport
import XCTest

/// Issue 31.3's check: with sixels, the viewer's 1:1 zoom sends the crop at full resolution. The sixel written
/// for the crop is read back from the tty recording, decoded, and compared with the same region of the
/// original decoded by ffmpeg (independent of livegrid's decoders).
final class ViewerZoomSixelEndToEndTests: XCTestCase {
    func testTheZoomedSixelIsTheOriginalsPixelsOneToOne() throws {
        let ffmpeg = try MissingRequirement.path(of: "ffmpeg", for: "the original's pixels for the 1:1 comparison")
        let fixture = try BrowserFixture.make()
        defer { fixture.remove() }
        let work = fixture.directory.deletingLastPathComponent()
        let recording = work.appendingPathComponent("tty.bin")
        let browser = fixture.command("--graphics sixel --no-motion").replacingOccurrences(of: "TERM=tmux-256color",
                                                                                           with: "TERM=xterm-256color")
        let session = try TmuxSession(command: "sh -c \"sleep 1; exec env -u TMUX \(browser)\"", columns: 120, rows: 24)
        try session.run(["pipe-pane", "-O", "-t", session.name, "cat > '\(recording.path)'"], capture: false)
        let count = fixture.names.count
        try session.waitFor("the grid") { screen in
            screen.first?.contains("\(count) items") == true && screen.contains { $0.contains("sixels") }
        }
        try session.send("/", "t", "r", "a", "i", "n", "Enter")
        try session.waitFor("the filtered grid") { $0.first?.contains("1 item") == true }
        try session.send("Enter")
        try session.waitFor("the viewer") { $0.contains { $0.contains("z 100 %") } }
        let beforeZoom = try settledImages(in: recording).count
        try session.send("z")
        let screen = try session.waitFor("100 % in the status bar") { $0.contains { $0.contains("· 100 % · ") } }
        let images = try settledImages(in: recording, atLeast: beforeZoom + 1)
        let crop = try XCTUnwrap(Self.crop(statusBar: screen.joined(separator: "\n")), "the status bar names the crop")
        let sixel = try XCTUnwrap(images.last.flatMap(SixelImage.init), "the zoomed picture decodes as a sixel")
        XCTAssertEqual(sixel.width, crop.width, "one image pixel per terminal pixel across")
        XCTAssertEqual(sixel.height, crop.height, "one image pixel per terminal pixel down")

        // The original's pixels of that region, by ffmpeg; and the region 40 px to the right as a control.
        func original(x: Int) throws -> [UInt8] {
            let out = work.appendingPathComponent("crop-\(x).rgb")
            _ = try ExternalTool.runProgram(ffmpeg, ["-v", "error", "-y", "-i", Fixtures.committed("train.jpg"),
                                                     "-vf", "crop=\(crop.width):\(crop.height):\(x):\(crop.y)",
                                                     "-f", "rawvideo", "-pix_fmt", "rgb24", out.path])
            return [UInt8](try Data(contentsOf: out))
        }
        let same = try original(x: crop.x), shifted = try original(x: crop.x + 40)
        XCTAssertEqual(same.count, crop.width * crop.height * 3)
        let error = sixel.meanAbsoluteDifference(rgb: same), control = sixel.meanAbsoluteDifference(rgb: shifted)
        // A 256-colour sixel palette costs a few levels per channel; a picture off by 40 px costs far more.
        XCTAssertLessThan(error, 8, "the crop's pixels match the original's (mean error \(error), 40 px off: \(control))")
        XCTAssertLessThan(error * 2, control, "the crop is the original's region, not a neighbour's")
        try session.send("z")
        try session.waitFor("fitted again") { !$0.contains { $0.contains("· 100 % · ") } }
    }

    private func settledImages(in file: URL, atLeast minimum: Int = 1) throws -> [[UInt8]] {
        var last = -1
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let images = SixelImage.bodies(in: (try? Data(contentsOf: file)).map { [UInt8]($0) } ?? [])   // try?: not written yet
            if images.count >= minimum, images.count == last { return images }
            last = images.count
            Thread.sleep(forTimeInterval: 0.5)
        }
        XCTFail("fewer than \(minimum) sixel images within 60 s")
        return []
    }

    static func crop(statusBar: String) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let range = statusBar.range(of: #"100 % · (\d+),(\d+) (\d+)×(\d+)"#, options: .regularExpression) else { return nil }
        let numbers = statusBar[range].dropFirst(7).split { !$0.isNumber }.compactMap { Int($0) }
        return numbers.count == 4 ? (numbers[0], numbers[1], numbers[2], numbers[3]) : nil
    }
}

/// A minimal sixel reader for the test (raster attributes, RGB palette, repeats, bands): enough for chafa's
/// output, which is what is checked.
struct SixelImage {
    var width: Int
    var height: Int
    var rgb: [UInt8]

    /// The bytes between each `ESC P … q` and its `ESC \`.
    static func bodies(in bytes: [UInt8]) -> [[UInt8]] {
        var bodies: [[UInt8]] = [], index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == 0x1B, bytes[index + 1] == 0x50 else { index += 1; continue }
            var start = index + 2
            while start < bytes.count, bytes[start] != 0x71 { start += 1 }
            var end = start
            while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == 0x5C) { end += 1 }
            guard end + 1 < bytes.count else { break }
            bodies.append(Array(bytes[(start + 1)..<end]))
            index = end + 2
        }
        return bodies
    }

    init?(_ body: [UInt8]) {
        var index = 0
        func number() -> Int? {
            var value: Int?
            while index < body.count, (0x30...0x39).contains(body[index]) {
                value = (value ?? 0) * 10 + Int(body[index] - 0x30)
                index += 1
            }
            return value
        }
        func numbers() -> [Int] {
            var values = [number() ?? 0]
            while index < body.count, body[index] == 0x3B { index += 1; values.append(number() ?? 0) }
            return values
        }
        guard body.first == 0x22 else { return nil }
        index = 1
        let raster = numbers()
        guard raster.count == 4, raster[2] > 0, raster[3] > 0 else { return nil }
        width = raster[2]
        height = raster[3]
        rgb = [UInt8](repeating: 0, count: width * height * 3)
        var palette: [Int: (UInt8, UInt8, UInt8)] = [:]
        var colour = (UInt8(0), UInt8(0), UInt8(0)), x = 0, band = 0
        while index < body.count {
            let byte = body[index]
            switch byte {
            case 0x23:   // # colour
                index += 1
                let values = numbers()
                if values.count == 5, values[1] == 2 {
                    func level(_ percent: Int) -> UInt8 { UInt8(min(255, (percent * 255 + 50) / 100)) }
                    palette[values[0]] = (level(values[2]), level(values[3]), level(values[4]))
                }
                colour = palette[values[0]] ?? colour
            case 0x24: x = 0; index += 1   // $
            case 0x2D: x = 0; band += 1; index += 1   // -
            case 0x21:   // ! repeat
                index += 1
                let repeats = number() ?? 1
                guard index < body.count else { return nil }
                paint(body[index], times: repeats, colour: colour, x: &x, band: band)
                index += 1
            case 0x3F...0x7E:
                paint(byte, times: 1, colour: colour, x: &x, band: band)
                index += 1
            default:
                index += 1
            }
        }
    }

    private mutating func paint(_ byte: UInt8, times: Int, colour: (UInt8, UInt8, UInt8), x: inout Int, band: Int) {
        let bits = Int(byte) - 0x3F
        for column in x..<(x + times) where column < width {
            for bit in 0..<6 where bits & (1 << bit) != 0 {
                let row = band * 6 + bit
                guard row < height else { continue }
                let i = (row * width + column) * 3
                rgb[i] = colour.0; rgb[i + 1] = colour.1; rgb[i + 2] = colour.2
            }
        }
        x += times
    }

    func meanAbsoluteDifference(rgb other: [UInt8]) -> Double {
        guard other.count == rgb.count, !rgb.isEmpty else { return .infinity }
        var total = 0
        for i in rgb.indices { total += abs(Int(rgb[i]) - Int(other[i])) }
        return Double(total) / Double(rgb.count)
    }
}
