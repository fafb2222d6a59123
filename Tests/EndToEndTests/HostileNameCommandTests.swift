import Foundation
import MediaFormats
import TestSupport
import XCTest

/// Issue 15.1 and 15.4 through the built binary: file names that are escape sequences, hold a C1 byte or a
/// line break, or are not UTF-8 at all. No byte that could drive a terminal may reach stdout or stderr of
/// any human-readable output, `scan --json` keeps every name exact, and every file can still be read.
final class HostileNameCommandTests: XCTestCase {
    private var dir: URL!

    /// ESC ] 2 ; sets the window title, ESC [ 2 J clears the screen, 0x9B alone is a C1 CSI, and a line break.
    private let hostileStems: [[UInt8]] = [
        Array("a\u{1B}]2;title\u{1B}\\".utf8),
        Array("\u{1B}[2J".utf8),
        [0x78, 0x9B, 0x33, 0x31, 0x6D],
        Array("two\nlines\u{7}".utf8),
        Array("evil\u{202E}gpj".utf8),
        Array("c1\u{9B}31m".utf8),
    ]

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory("livegrid-hostile")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func path(_ name: [UInt8]) -> [UInt8] { Array(dir.path.utf8) + [0x2F] + name }

    /// Copies a committed fixture to a path given as raw bytes (open(2) on the bytes, as any program could).
    private func place(_ fixture: String, at rawPath: [UInt8]) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.committed(fixture)))
        let fd = PathBytes.open(PathBytes.string(from: rawPath), O_WRONLY | O_CREAT | O_EXCL, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0, "cannot create \(rawPath)")
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    private func makeDirectory(_ name: String) throws -> [UInt8] {
        let target = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        return Array(target.path.utf8)
    }

    private func assertSafe(_ result: RawCommand.Result, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(RawCommand.terminalControls(in: result.out), [], "\(what) stdout: \(result.outText)", file: file, line: line)
        XCTAssertEqual(RawCommand.terminalControls(in: result.err), [], "\(what) stderr: \(result.errText)", file: file, line: line)
    }

    /// Raw names in a directory, read with readdir (never through a String).
    private func rawNames(in directory: [UInt8]) throws -> Set<[UInt8]> {
        Set(try PathBytes.entries(of: PathBytes.string(from: directory)).map { PathBytes.bytes(of: $0.name) })
    }

    func testScanTableIsSafeAndJSONKeepsEveryNameExact() throws {
        for stem in hostileStems { try place("train.jpg", at: path(stem + Array(".jpg".utf8))) }
        let table = try RawCommand.run([Array("scan".utf8), Array(dir.path.utf8)])
        XCTAssertEqual(table.status, 0, table.errText)
        assertSafe(table, "scan")
        for shown in ["a\\e]2;title\\e\\.jpg", "\\e[2J.jpg", "x\u{FFFD}31m.jpg", "two\\nlines\\x07.jpg", "evil\\u202Egpj.jpg",
                      "c1\\u009B31m.jpg"] {
            XCTAssertTrue(table.outText.contains(shown), "\(shown) not in:\n\(table.outText)")
        }
        XCTAssertTrue(table.outText.contains("6 items"), table.outText)

        let json = try RawCommand.run([Array("scan".utf8), Array("--json".utf8), Array(dir.path.utf8)])
        XCTAssertEqual(json.status, 0, json.errText)
        assertSafe(json, "scan --json")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.out)) as? [String: Any])
        let items = try XCTUnwrap(object["items"] as? [[String: Any]])
        var paths = Set<[UInt8]>()
        for item in items {
            for file in item["files"] as? [[String: Any]] ?? [] {
                if let base64 = file["pathBase64"] as? String, let data = Data(base64Encoded: base64) {
                    paths.insert([UInt8](data))
                } else if let path = file["path"] as? String {
                    paths.insert(Array(path.utf8))
                }
            }
        }
        XCTAssertEqual(paths, Set(hostileStems.map { path($0 + Array(".jpg".utf8)) }), "JSON round-trips every exact name")
    }

    func testExportMakeLiveConvertAndExtractPrintNamesSafelyAndWriteExactNames() throws {
        let out = try makeDirectory("out")
        let title = hostileStems[0], clear = hostileStems[1], c1 = hostileStems[2], newline = hostileStems[3]
        try place("train.jpg", at: path(title + Array(".jpg".utf8)))
        try place("train.mov", at: path(title + Array(".mov".utf8)))
        try place("train.jpg", at: path(clear + Array(".jpg".utf8)))
        try place("train.mov", at: path(c1 + Array(".mov".utf8)))
        try place("motion-photo-v1.jpeg", at: path(newline + Array(".jpeg".utf8)))

        let export = try RawCommand.run([Array("export".utf8), path(title + Array(".jpg".utf8)), Array("--to".utf8), out])
        XCTAssertEqual(export.status, 0, export.errText)
        assertSafe(export, "export")
        XCTAssertTrue(export.outText.contains("a\\e]2;title\\e\\.jpg"), export.outText)
        XCTAssertTrue(try rawNames(in: out).isSuperset(of: [title + Array(".jpg".utf8), title + Array(".mov".utf8)]))

        let makeLive = try RawCommand.run([Array("make-live".utf8), path(clear + Array(".jpg".utf8)),
                                           path(c1 + Array(".mov".utf8)), Array("-o".utf8), out])
        XCTAssertEqual(makeLive.status, 0, makeLive.errText)
        assertSafe(makeLive, "make-live")
        XCTAssertTrue(makeLive.outText.contains("\\e[2J-live.JPG"), makeLive.outText)
        XCTAssertTrue(try rawNames(in: out).contains(clear + Array("-live.MOV".utf8)))

        let convert = try RawCommand.run([Array("convert".utf8), path(newline + Array(".jpeg".utf8)),
                                          Array("--to".utf8), Array("live".utf8), Array("-o".utf8), out])
        XCTAssertEqual(convert.status, 0, convert.errText)
        assertSafe(convert, "convert")
        XCTAssertTrue(convert.outText.contains("two\\nlines\\x07-live.JPG"), convert.outText)

        let extract = try RawCommand.run([Array("extract".utf8), path(newline + Array(".jpeg".utf8)), Array("-o".utf8), out])
        XCTAssertEqual(extract.status, 0, extract.errText)
        assertSafe(extract, "extract")
        XCTAssertTrue(try rawNames(in: out).contains(newline + Array(".mp4".utf8)))
    }

    func testErrorMessagesQuoteHostileArgumentsSafely() throws {
        let missing = path(hostileStems[0] + Array(".jpg".utf8))
        let runs: [[[UInt8]]] = [
            [Array("scan".utf8), missing],
            [Array("show".utf8), Array("--size".utf8), Array("10x5".utf8), missing],
            [Array("thumbnail".utf8), missing, Array("-o".utf8), path(Array("t.png".utf8))],
            [Array("export".utf8), missing, Array("--to".utf8), Array(dir.path.utf8)],
            [Array("make-live".utf8), missing, missing],
            [Array("extract".utf8), missing, Array("-o".utf8), Array(dir.path.utf8)],
            [missing],
            [Array("scan".utf8), Array("--bogus\u{1B}[2J".utf8)],
            [Array("scan".utf8), path(hostileStems[2])],
        ]
        for arguments in runs {
            let result = try RawCommand.run(arguments)
            let what = arguments.map { VisibleText.escaped(PathBytes.string(from: $0)) }.joined(separator: " ")
            XCTAssertNotEqual(result.status, 0, what)
            XCTAssertFalse(result.err.isEmpty, "\(what) says why")
            assertSafe(result, what)
        }
    }

    func testANameThatIsNotUTF8CanBeScannedThumbnailedAndExported() throws {
        let raw: [UInt8] = Array("c".utf8) + [0xFF] + Array(".jpg".utf8)
        try place("train.jpg", at: path(raw))
        let scan = try RawCommand.run([Array("scan".utf8), Array(dir.path.utf8)])
        XCTAssertEqual(scan.status, 0)
        assertSafe(scan, "scan")
        XCTAssertTrue(scan.outText.contains("c\u{FFFD}.jpg"), scan.outText)
        XCTAssertTrue(scan.outText.contains("4032x3024"), "probed, not 'No such file': \(scan.outText)")
        XCTAssertFalse(scan.outText.contains("No such file"), scan.outText)

        let png = dir.appendingPathComponent("thumb.png").path
        let thumbnail = try RawCommand.run([Array("thumbnail".utf8), path(raw), Array("-o".utf8), Array(png.utf8)])
        XCTAssertEqual(thumbnail.status, 0, thumbnail.errText)
        XCTAssertEqual(Array((try Data(contentsOf: URL(fileURLWithPath: png))).prefix(4)), [0x89, 0x50, 0x4E, 0x47])

        let out = try makeDirectory("out")
        let export = try RawCommand.run([Array("export".utf8), path(raw), Array("--to".utf8), out])
        XCTAssertEqual(export.status, 0, export.errText)
        assertSafe(export, "export")
        XCTAssertEqual(try rawNames(in: out), [raw])

        // make-live twice: the second pair must find the first one's raw names taken and pick "-live-2".
        try place("train.mov", at: path(Array("c".utf8) + [0xFF] + Array(".mov".utf8)))
        for _ in 0..<2 {
            let made = try RawCommand.run([Array("make-live".utf8), path(raw), path(Array("c".utf8) + [0xFF] + Array(".mov".utf8)),
                                           Array("-o".utf8), out])
            XCTAssertEqual(made.status, 0, made.errText)
            assertSafe(made, "make-live")
        }
        let stem = Array("c".utf8) + [0xFF]
        XCTAssertEqual(try rawNames(in: out), [raw, stem + Array("-live.JPG".utf8), stem + Array("-live.MOV".utf8),
                                               stem + Array("-live-2.JPG".utf8), stem + Array("-live-2.MOV".utf8)])
    }

    /// Issue 32.9: a Latin-1 name ("Café Zürich" written by an old camera tool or a Windows share) is not UTF-8.
    /// `scan --json` shows it with U+FFFD in `name`, as the table does, and `nameBase64` has its exact bytes;
    /// a UTF-8 name has no `nameBase64`.
    func testScanJSONGivesALatin1NameItsExactBytes() throws {
        let stem: [UInt8] = Array("Caf".utf8) + [0xE9] + Array(" Z".utf8) + [0xFC] + Array("rich".utf8)
        try place("train.jpg", at: path(stem + Array(".jpg".utf8)))
        try place("train.mov", at: path(stem + Array(".mov".utf8)))
        try place("train.jpg", at: path(Array("plain.jpg".utf8)))

        let json = try RawCommand.run([Array("scan".utf8), Array("--json".utf8), Array(dir.path.utf8)])
        XCTAssertEqual(json.status, 0, json.errText)
        assertSafe(json, "scan --json")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.out)) as? [String: Any])
        let items = try XCTUnwrap(object["items"] as? [[String: Any]])
        let live = try XCTUnwrap(items.first { ($0["kind"] as? String) == "live" }, json.outText)
        XCTAssertEqual(live["name"] as? String, "Caf\u{FFFD} Z\u{FFFD}rich.jpg")
        let nameBase64 = try XCTUnwrap(live["nameBase64"] as? String, "no exact form of the name: \(json.outText)")
        XCTAssertEqual(Data(base64Encoded: nameBase64).map { [UInt8]($0) }, stem + Array(".jpg".utf8))
        let files = try XCTUnwrap(live["files"] as? [[String: Any]])
        XCTAssertEqual(Set(files.compactMap { ($0["pathBase64"] as? String).flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } }),
                       [path(stem + Array(".jpg".utf8)), path(stem + Array(".mov".utf8))])
        let plain = try XCTUnwrap(items.first { ($0["name"] as? String) == "plain.jpg" }, json.outText)
        XCTAssertNil(plain["nameBase64"], "a UTF-8 name is exact as it is")

        let table = try RawCommand.run([Array("scan".utf8), Array(dir.path.utf8)])
        XCTAssertEqual(table.status, 0, table.errText)
        assertSafe(table, "scan")
        XCTAssertTrue(table.outText.contains("Caf\u{FFFD} Z\u{FFFD}rich.jpg"), table.outText)
        XCTAssertNotNil(String(bytes: table.out, encoding: .utf8), "the table is UTF-8 text: no raw Latin-1 byte reaches the terminal")
    }
}
