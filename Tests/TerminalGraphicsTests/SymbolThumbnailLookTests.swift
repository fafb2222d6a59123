import Foundation
import Imaging
import MediaFormats
import TerminalGraphics
import TestSupport
import XCTest

/// An embedded thumbnail that `CellPictureResolution` lets stand in for the full picture must look the same
/// in symbols: every cell's shown colour (its two colours mixed by the symbol's ink coverage) from the
/// thumbnail is compared with the same cell rendered (same chafa settings) from the full, DCT-scaled decode.
///
/// Tolerance, as the Euclidean distance of 8-bit sRGB colours over the cells: mean ≤ 10, 95th percentile ≤ 32.
/// Most of it is the thumbnail itself, not its resolution: the camera encodes it again as a small 4:2:0 JPEG
/// (chroma at 80x60 for 160x120), so even the full picture shrunk to the thumbnail's very size differs from
/// the thumbnail by a mean of 4-7 and a 95th percentile of up to 34 on saturated synthetic edges (testsrc2);
/// the rule's 4 px per column adds 1-4 to the mean. On camera photos the figures are about half the bounds
/// (train.jpg: mean ≤ 6.2, p95 ≤ 15). Two controls fail them: a picture moved by one cell, and testsrc2 at
/// half the rule's resolution (2 px per column).
final class SymbolThumbnailLookTests: XCTestCase {
    static let meanTolerance = 10.0
    static let percentile95Tolerance = 32.0

    func testFixtureThumbnailsLookLikeTheFullDecodeInSymbols() throws {
        for name in ["train.jpg", "microvideo-v1.jpeg", "motion-photo-v1.jpeg", "iphone-se-still.heic"] {
            try assertLooksTheSame(path: Fixtures.shared(name))
        }
    }

    func testGeneratedCameraJPEGThumbnailLooksLikeTheFullDecodeInSymbols() throws {
        let directory = try Fixtures.makeTemporaryDirectory("symbol-look")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.makeCameraJPEG(in: directory, source: "testsrc2=size=4000x3000:rate=1")
        try assertLooksTheSame(path: path)
        let mandelbrot = try Self.makeCameraJPEG(in: directory, source: "mandelbrot=size=1600x1200:rate=1", name: "m")
        try assertLooksTheSame(path: mandelbrot)
    }

    /// Half the rule's resolution (2 px per column) is outside the tolerance on testsrc2's hard edges: the
    /// rule is not looser than the look.
    func testHalfTheRulesResolutionIsOutsideTheTolerance() throws {
        let directory = try Fixtures.makeTemporaryDirectory("symbol-look")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.makeCameraJPEG(in: directory, source: "testsrc2=size=4000x3000:rate=1")
        let renderer = ChafaRenderer(mode: .symbols, colorDepth: .truecolor)
        let (columns, rows) = (24, 9)
        let full = try ImageDecoder.decode(path: path, fitting: CellGeometry.symbolPixelBox(columns: columns, rows: rows),
                                           options: DecodeOptions(useEmbeddedThumbnails: false)).frame
        let reference = try renderer.render(full, maxColumns: columns, maxRows: rows)
        let half = full.resized(to: PixelSize(width: columns * CellPictureResolution.symbolSamplesPerColumn / 2,
                                              height: columns * CellPictureResolution.symbolSamplesPerColumn / 2 * 3 / 4))
        let stats = Self.distances(reference, try renderer.render(half, maxColumns: columns, maxRows: rows))
        XCTAssertGreaterThan(stats.percentile95, Self.percentile95Tolerance)
    }

    func testAPictureMovedByOneCellIsOutsideTheTolerance() throws {
        let path = try Fixtures.shared("train.jpg")
        let renderer = ChafaRenderer(mode: .symbols, colorDepth: .truecolor)
        let info = try MediaProbe.probe(path: path)
        let (columns, rows) = (24, 9)
        let box = CellGeometry.symbolPixelBox(columns: columns, rows: rows)
        let full = try ImageDecoder.decode(path: path, info: info, fitting: box, options: DecodeOptions(useEmbeddedThumbnails: false))
        let reference = try renderer.render(full.frame, maxColumns: columns, maxRows: rows)
        let shifted = try renderer.render(full.frame.shiftedLeft(by: full.frame.width / columns), maxColumns: columns, maxRows: rows)
        let stats = Self.distances(reference, shifted)
        XCTAssertGreaterThan(stats.percentile95, Self.percentile95Tolerance, "a picture shifted by one cell must fail the comparison")
    }

    // MARK: helpers

    /// At every cell size where the rule accepts the thumbnail (up to the full-screen viewer), the symbol
    /// output from the thumbnail matches the full decode's.
    private func assertLooksTheSame(path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let info = try MediaProbe.probe(path: path)
        let renderer = ChafaRenderer(mode: .symbols, colorDepth: .truecolor)
        var compared = 0
        for (maxColumns, maxRows) in [(16, 8), (24, 12), (30, 15), (40, 20), (60, 30)] {
            guard let shown = info.displaySize else { return XCTFail("no size for \(path)", file: file, line: line) }
            let (columns, rows) = CellGeometry.fit(pictureWidth: shown.width, pictureHeight: shown.height,
                                                   maxColumns: maxColumns, maxRows: maxRows, cell: nil)
            let box = CellPictureResolution.decodeBox(mode: .symbols, columns: columns, rows: rows, cell: nil)
            let options = CellPictureResolution.decodeOptions(mode: .symbols, columns: columns, rows: rows)
            let fromThumbnail = try ImageDecoder.decode(path: path, info: info, fitting: box, options: options)
            guard fromThumbnail.path.isEmbeddedThumbnail else { continue }   // the rule said no: nothing to prove
            let fromFull = try ImageDecoder.decode(path: path, info: info, fitting: box,
                                                   options: DecodeOptions(useEmbeddedThumbnails: false))
            // At the cells the grid gives the picture (each frame's own fit may round a row differently).
            let a = try renderer.render(fromFull.frame, maxColumns: columns, maxRows: rows)
            let b = try renderer.render(fromThumbnail.frame, maxColumns: columns, maxRows: rows)
            XCTAssertEqual(a.columns, b.columns, file: file, line: line)
            XCTAssertEqual(a.rows, b.rows, file: file, line: line)
            let stats = Self.distances(a, b)
            let label = "\((path as NSString).lastPathComponent) at \(columns)x\(rows) cells from a \(fromThumbnail.frame.width)x\(fromThumbnail.frame.height) thumbnail"
            print("symbol look: \(label): mean \(String(format: "%.2f", stats.mean)), p95 \(String(format: "%.2f", stats.percentile95)), max \(String(format: "%.1f", stats.maximum))")
            XCTAssertLessThanOrEqual(stats.mean, Self.meanTolerance, label, file: file, line: line)
            XCTAssertLessThanOrEqual(stats.percentile95, Self.percentile95Tolerance, label, file: file, line: line)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 0, "the thumbnail of \(path) served no cell size", file: file, line: line)
    }

    static func distances(_ a: RenderedImage, _ b: RenderedImage) -> (mean: Double, percentile95: Double, maximum: Double) {
        var values: [Double] = []
        for (x, y) in zip(a.cells, b.cells) {
            let p = shownColor(x), q = shownColor(y)
            values.append(((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot())
        }
        guard !values.isEmpty else { return (0, 0, 0) }
        values.sort()
        let mean = values.reduce(0, +) / Double(values.count)
        return (mean, values[min(values.count - 1, Int(Double(values.count) * 0.95))], values.last ?? 0)
    }

    /// A cell's colour as the eye averages it: foreground and background mixed by the symbol's ink.
    static func shownColor(_ cell: TerminalCell) -> (Double, Double, Double) {
        let ink = inkCoverage(cell.character)
        func mix(_ f: UInt8, _ b: UInt8) -> Double { Double(f) * ink + Double(b) * (1 - ink) }
        return (mix(cell.foreground.r, cell.background.r), mix(cell.foreground.g, cell.background.g),
                mix(cell.foreground.b, cell.background.b))
    }

    /// The share of the cell a symbol inks: exact for block elements, an estimate for box-drawing lines.
    static func inkCoverage(_ symbol: Unicode.Scalar) -> Double {
        let v = symbol.value
        switch v {
        case 0x20: return 0
        case 0x2580: return 0.5
        case 0x2581...0x2588: return Double(v - 0x2580) / 8           // lower n eighths
        case 0x2589...0x258F: return Double(0x2590 - v) / 8           // left n eighths
        case 0x2590: return 0.5
        case 0x2591: return 0.25
        case 0x2592: return 0.5
        case 0x2593: return 0.75
        case 0x2594, 0x2595: return 0.125
        case 0x2596, 0x2597, 0x2598, 0x259D: return 0.25              // one quadrant
        case 0x259A, 0x259E: return 0.5                               // two diagonal quadrants
        case 0x2599, 0x259B, 0x259C, 0x259F: return 0.75              // three quadrants
        case 0x2500...0x257F: return 0.2                              // lines: a stroke or two
        default: return 0.5
        }
    }

    /// A JPEG like a phone's: 12 MP, an Exif block with a 160x120 thumbnail (exiftool, as cameras lay it out).
    static func makeCameraJPEG(in directory: URL, source: String, name: String = "camera") throws -> String {
        guard let ffmpeg = ExternalTool.path("ffmpeg"), let exiftool = ExternalTool.path("exiftool") else {
            throw MissingRequirement.tool("ffmpeg and exiftool are needed to make a camera-like JPEG (apt install ffmpeg libimage-exiftool-perl)")
        }
        let photo = directory.appendingPathComponent("\(name).jpg").path
        let thumbnail = directory.appendingPathComponent("\(name)-thumb.jpg").path
        for (output, filter) in [(photo, "null"), (thumbnail, "scale=160:120:flags=area")] {
            let run = try ExternalTool.runProgram(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-frames:v", "1",
                                                          "-vf", filter, "-q:v", "3", output])
            XCTAssertEqual(run.status, 0, run.err)
        }
        let tagged = try ExternalTool.runProgram(exiftool, ["-q", "-overwrite_original", "-Make=Generated", "-Orientation=1", "-n",
                                                            "-ThumbnailImage<=\(thumbnail)", photo])
        XCTAssertEqual(tagged.status, 0, tagged.err)
        return photo
    }
}

private extension PixelFrame {
    /// The picture moved left by `pixels` (the right edge repeats): a control that must not pass as "the same".
    func shiftedLeft(by pixels: Int) -> PixelFrame {
        var out = rgba
        for y in 0..<height {
            for x in 0..<width {
                let from = (y * width + min(width - 1, x + pixels)) * 4, to = (y * width + x) * 4
                for c in 0..<4 { out[to + c] = rgba[from + c] }
            }
        }
        return PixelFrame(width: width, height: height, rgba: out)
    }
}
