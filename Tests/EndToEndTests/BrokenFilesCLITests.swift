import Foundation
import TestSupport
import XCTest

/// Issue 15.5 and 15.6 through the CLI, as a user meets them: `show`, `thumbnail` and `scan` over a
/// generated set of broken files (cut JPEG/PNG/GIF/WebP/HEIC/MOV, wrong magic, text named .jpg, zero bytes,
/// absurd dimensions). Every message is one plain sentence with a category, never library jargon;
/// `--verbose` adds the library's detail; and every file ImageMagick's `convert` reads gets a picture.
final class BrokenFilesCLITests: XCTestCase {
    private var directory: URL!
    private var broken: URL!

    /// Words that belong to libraries, not to users (issue 15.5's list).
    static let jargon = ["png_pipe", "webp_pipe", "AVERROR", "Invalid data found", "libav", "Cannot allocate memory",
                         "avformat", "avcodec", "isobmff", "tjDecompress"]
    /// The categories a plain message starts with.
    static let categories = ["damaged ", "not a picture: ", "unsupported ", "too large: ", "unreadable: ",
                             "has no video", "a movie, not a still picture"]

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-broken-\(UUID().uuidString)")
        broken = directory.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try makeBrokenSet()
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A tool the test cannot do without: a skip on a developer's machine, a failure under CI=true.
    private func requireTool(_ name: String) throws -> String {
        try MissingRequirement.path(of: name, for: "cannot generate broken media")
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let result = try ExternalTool.runProgram(tool, arguments)
        guard result.status == 0 else { throw XCTSkip("\(tool) \(arguments.joined(separator: " ")) failed: \(result.err)") }
    }

    private func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    private func put(_ name: String, _ content: [UInt8]) throws {
        try Data(content).write(to: broken.appendingPathComponent(name))
    }

    private func makeBrokenSet() throws {
        let ffmpeg = try requireTool("ffmpeg")
        let whole = directory.appendingPathComponent("whole")
        try FileManager.default.createDirectory(at: whole, withIntermediateDirectories: true)
        let source = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10"]
        for (name, extra) in [("w.jpg", ["-frames:v", "1"]), ("w.png", ["-frames:v", "1"]), ("w.gif", ["-frames:v", "1"]),
                              ("w.webp", ["-frames:v", "1"]), ("w.mov", ["-frames:v", "10", "-pix_fmt", "yuv420p"])] {
            try run(ffmpeg, source + extra + [whole.appendingPathComponent(name).path])
        }
        if let heifEnc = ExternalTool.path("heif-enc") {
            try run(heifEnc, ["-q", "50", whole.appendingPathComponent("w.png").path, "-o", whole.appendingPathComponent("w.heic").path])
        } else {
            _ = try requireTool("heif-enc")
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: whole.path) {
            let content = try bytes(whole.appendingPathComponent(file))
            for percent in [5, 60, 95] { try put("cut\(percent)-\(file)", Array(content.prefix(content.count * percent / 100))) }
        }
        let jpeg = try bytes(whole.appendingPathComponent("w.jpg"))
        let png = try bytes(whole.appendingPathComponent("w.png"))
        try put("wrong-magic.jpg", [0, 0, 0, 0] + jpeg.dropFirst(4))
        try put("png-inside.jpg", [0xFF, 0xD8, 0xFF] + png.dropFirst(3))
        try put("notes.jpg", Array("Dear diary,\nthe photos are in the other folder.\n".utf8))
        try put("page.png", Array("<!DOCTYPE html>\n<html><head><title>Not Found</title></head><body>404</body></html>\n".utf8))
        try put("empty.heic", [])
        try put("zeros.mov", [UInt8](repeating: 0, count: 4096))
        // Headers announcing 100000 x 100000 pixels (40 GB of RGBA).
        var hugePNG: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        hugePNG += [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        try put("huge.png", hugePNG + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
        try put("huge.gif", Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0] + [0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 2, 2, 0x4C, 1, 0, 0x3B])
    }

    private var brokenFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: broken.path)) ?? []).sorted().map { broken.appendingPathComponent($0).path }
    }

    private func livegrid(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try LivegridCommand.run(arguments, environment: ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path])
    }

    private func assertPlain(_ message: String, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        for word in Self.jargon {
            XCTAssertFalse(message.localizedCaseInsensitiveContains(word), "\(context): jargon '\(word)' in: \(message)", file: file, line: line)
        }
        XCTAssertNil(message.range(of: #"-\d{2,}"#, options: .regularExpression), "\(context): raw code in: \(message)", file: file, line: line)
        XCTAssertTrue(Self.categories.contains { message.contains($0) }, "\(context): no plain category in: \(message)", file: file, line: line)
    }

    func testShowAndThumbnailSayWhatIsWrongInPlainWordsAndVerboseAddsTheDetail() throws {
        for path in brokenFiles {
            let name = (path as NSString).lastPathComponent
            let shown = try livegrid(["show", "--size", "20x6", "--format", "symbols", "--no-cache", path])
            let thumbnail = try livegrid(["thumbnail", path, "--force", "-o", directory.appendingPathComponent("t.png").path])
            for (verb, result) in [("show", shown), ("thumbnail", thumbnail)] {
                let lines = result.err.split(separator: "\n").map(String.init)
                if result.status != 0 {
                    XCTAssertEqual(lines.count, 1, "\(verb) \(name): one line per failed file: \(result.err)")
                }
                for line in lines {
                    XCTAssertTrue(line.hasPrefix("livegrid: \(path): "), "\(verb) \(name): names the file: \(line)")
                    assertPlain(String(line.dropFirst("livegrid: \(path): ".count)), "\(verb) \(name)")
                    XCTAssertFalse(line.contains("["), "\(verb) \(name): detail only with --verbose: \(line)")
                }
            }
            if shown.status != 0, !name.hasPrefix("huge") {
                let verbose = try livegrid(["show", "--verbose", "--size", "20x6", "--format", "symbols", "--no-cache", path])
                XCTAssertEqual(verbose.status, shown.status)
                XCTAssertTrue(verbose.err.hasPrefix(shown.err.trimmingCharacters(in: .newlines)) || verbose.err.contains(" ["),
                              "\(name): --verbose keeps the sentence: \(verbose.err)")
                if shown.err.contains("damaged") {
                    XCTAssertTrue(verbose.err.contains(" ["), "\(name): --verbose adds the library's detail: \(verbose.err)")
                }
            }
        }
        // Spot checks of the sentences themselves.
        let expectations = [
            "notes.jpg": "not a picture: looks like text", "page.png": "not a picture: looks like a web page (HTML)",
            "empty.heic": "not a picture: the file is empty", "zeros.mov": "not a picture: the file holds only zero bytes",
            "cut60-w.png": "damaged PNG: the file ends early", "cut60-w.mov": "damaged MOV movie: the file ends early",
            "cut60-w.heic": "damaged HEIC: the file ends early", "huge.png": "too large: 100000×100000 pixels",
        ]
        for (name, sentence) in expectations {
            let result = try livegrid(["show", "--size", "20x6", "--format", "symbols", broken.appendingPathComponent(name).path])
            XCTAssertTrue(result.err.contains(sentence), "\(name): expected '\(sentence)', got: \(result.err)")
        }
    }

    func testACutJPEGIsShownWithTheDamagedMark() throws {
        let path = broken.appendingPathComponent("cut60-w.jpg").path
        let result = try livegrid(["show", "--size", "20x6", "--format", "symbols", "--colors", "full", path])
        XCTAssertEqual(result.status, 0, "the picture is shown: \(result.err)")
        XCTAssertGreaterThanOrEqual(result.out.split(separator: "\n").count, 3, "rows of picture")
        XCTAssertEqual(result.err, "livegrid: \(path): damaged JPEG: the file ends early (shown as far as it decodes, the rest grey)\n")
        let verbose = try livegrid(["show", "--verbose", "--size", "20x6", "--format", "symbols", path])
        XCTAssertTrue(verbose.err.contains("[libjpeg-turbo: Premature end of JPEG file]"), verbose.err)
        let thumbnail = directory.appendingPathComponent("cut.png").path
        XCTAssertEqual(try livegrid(["thumbnail", path, "-o", thumbnail]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: thumbnail))
    }

    func testScanWarningsArePlainAndVerboseShowsTheParsersWords() throws {
        let plain = try livegrid(["scan", broken.path])
        XCTAssertEqual(plain.status, 0)
        let warnings = plain.out.split(separator: "\n").filter { $0.hasPrefix("       ! ") }
        XCTAssertGreaterThan(warnings.count, 5, plain.out)
        for warning in warnings where !warning.contains("paired by file name") {
            assertPlain(String(warning.drop { $0 != ":" }), "scan")
        }
        XCTAssertTrue(plain.out.contains("cut5-w.mov: damaged MOV movie: the file ends early"), plain.out)
        XCTAssertTrue(plain.out.contains("notes.jpg: not a picture: looks like text"), plain.out)
        XCTAssertFalse(plain.out.contains("["), "no parser detail without --verbose")
        let verbose = try livegrid(["scan", "--verbose", broken.path])
        XCTAssertTrue(verbose.out.contains("[cut5-w.mov: isobmff: invalid data: box 'mdat'"), verbose.out)
    }

    /// Issue 15.6's goal: every file ImageMagick's `convert` reads gets a picture from livegrid.
    func testEveryFileImageMagickReadsGetsAPicture() throws {
        let convert = try requireTool("convert-im6.q16")
        var readByImageMagick = 0
        for path in brokenFiles where !path.hasSuffix(".mov") {
            // "[0]": the first frame, as livegrid shows (several frames would be written as im-0.png, im-1.png...).
            let magick = try ExternalTool.runProgram(convert, [path + "[0]", "png:" + directory.appendingPathComponent("im.png").path])
            guard magick.status == 0, FileManager.default.fileExists(atPath: directory.appendingPathComponent("im.png").path) else { continue }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent("im.png"))
            readByImageMagick += 1
            let shown = try livegrid(["show", "--size", "20x6", "--format", "symbols", "--no-cache", path])
            XCTAssertEqual(shown.status, 0, "ImageMagick reads \(path); livegrid said: \(shown.err)")
        }
        XCTAssertGreaterThanOrEqual(readByImageMagick, 3, "the three cut JPEGs at least")
    }
}
