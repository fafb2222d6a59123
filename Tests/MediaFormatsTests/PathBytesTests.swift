import MediaFormats
import XCTest

/// Issue 15.4 (names that are not UTF-8) and 15.1 (names that are terminal escapes), below the CLI.
final class PathBytesTests: XCTestCase {
    private func roundTrip(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let text = PathBytes.string(from: bytes)
        XCTAssertEqual(PathBytes.bytes(of: text), bytes, "bytes \(bytes) did not survive", file: file, line: line)
        var cBytes: [UInt8] = []
        PathBytes.withCString(text) { pointer in
            var index = 0
            while pointer[index] != 0 { cBytes.append(UInt8(bitPattern: pointer[index])); index += 1 }
        }
        XCTAssertEqual(cBytes, bytes, file: file, line: line)
    }

    func testEveryKindOfByteSequenceSurvivesTheRoundTrip() {
        roundTrip(Array("IMG_0001.JPG".utf8))
        roundTrip(Array("Café été 東京 🎉.heic".utf8))
        roundTrip([0x61, 0xFF, 0x62, 0x2E, 0x6A, 0x70, 0x67])              // a\xFFb.jpg
        roundTrip([0xC3, 0x28])                                            // broken two-byte sequence
        roundTrip([0xC0, 0xAF, 0xE0, 0x80, 0xAF])                          // overlong "/"
        roundTrip([0xED, 0xA0, 0x80])                                      // an encoded surrogate
        roundTrip([0xF4, 0x90, 0x80, 0x80])                                // past U+10FFFF
        roundTrip([0xE2, 0x82])                                            // cut at the end
        roundTrip(Array("\u{EF80}\u{EFFF}x".utf8))                         // the escape range itself, genuine
        for byte in UInt8(0x80)...UInt8(0xFF) { roundTrip([0x78, byte, 0x79]) }
    }

    func testValidNamesAreUntouchedAndRawBytesAreRecognised() {
        XCTAssertEqual(PathBytes.string(from: Array("Café.jpg".utf8)), "Café.jpg")
        XCTAssertFalse(PathBytes.hasRawBytes("Café.jpg"))
        XCTAssertTrue(PathBytes.hasRawBytes(PathBytes.string(from: [0x63, 0xFF, 0x2E, 0x6A, 0x70, 0x67])))
    }

    func testAFileWithAByteFFCanBeListedOpenedStatedAndRenamed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pathbytes-\(UUID().uuidString)").path
        XCTAssertEqual(mkdir(dir, 0o755), 0)
        defer { _ = try? FileManager.default.removeItem(atPath: dir) }
        let rawName: [UInt8] = [0x63, 0xFF, 0x2E, 0x6A, 0x70, 0x67]      // "c\xFF.jpg"
        // Created with open(2) on the raw bytes, as another program would.
        var rawPath = Array(dir.utf8) + [0x2F] + rawName + [0]
        let fd = rawPath.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_WRONLY | O_CREAT, 0o644) }
        }
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(write(fd, "hello", 5), 5)
        close(fd)

        let entries = try PathBytes.entries(of: dir)
        XCTAssertEqual(entries.count, 1)
        let name = try XCTUnwrap(entries.first?.name)
        XCTAssertEqual(entries.first?.kind, .regular)
        XCTAssertEqual(PathBytes.bytes(of: name), rawName)
        XCTAssertEqual(VisibleText.escaped(name), "c\u{FFFD}.jpg")

        let path = dir + "/" + name
        let source = try FileByteSource(path: path)
        XCTAssertEqual(try source.readExactly(at: 0, count: 5), Array("hello".utf8))
        var st = StatBuffer()
        XCTAssertEqual(PathBytes.stat(path, &st), 0)
        XCTAssertEqual(st.st_size, 5)
        try AtomicFileWriter.write(Array("new".utf8), to: path + ".copy", replace: false)
        XCTAssertEqual(PathBytes.bytes(of: try PathBytes.entries(of: dir).map(\.name).sorted().last!), rawName + Array(".copy".utf8))
        XCTAssertEqual(PathBytes.unlink(path + ".copy"), 0)
        XCTAssertEqual(PathBytes.rename(path, dir + "/plain.jpg"), 0)
        XCTAssertEqual(try PathBytes.entries(of: dir).map(\.name), ["plain.jpg"])
    }

    func testEntriesAreTypedBeforeTheirNames() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pathbytes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/trip.jpg", withIntermediateDirectories: true)
        defer { _ = try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/loop.jpg", withDestinationPath: dir)
        XCTAssertEqual(mkfifo(dir + "/pipe.jpg", 0o644), 0)
        let kinds = Dictionary(uniqueKeysWithValues: try PathBytes.entries(of: dir).map { ($0.name, $0.kind) })
        XCTAssertEqual(kinds, ["trip.jpg": .directory, "loop.jpg": .symbolicLink, "pipe.jpg": .other])
        XCTAssertThrowsError(try PathBytes.entries(of: dir + "/missing")) { error in
            XCTAssertEqual((error as? DirectoryError)?.errno, ENOENT)
        }
    }
}

final class VisibleTextTests: XCTestCase {
    func testControlCharactersBidiAndRawBytesBecomeVisibleAndInert() {
        XCTAssertEqual(VisibleText.escaped("a\u{1B}]2;title\u{1B}\\.jpg"), "a\\e]2;title\\e\\.jpg")
        XCTAssertEqual(VisibleText.escaped("\u{1B}[2J.jpg"), "\\e[2J.jpg")
        XCTAssertEqual(VisibleText.escaped("x\u{9B}31m\u{7}\u{7F}"), "x\\u009B31m\\x07\\x7F")
        XCTAssertEqual(VisibleText.escaped("two\nlines\tand\r"), "two\\nlines\\tand\\r")
        XCTAssertEqual(VisibleText.escaped("evil\u{202E}gpj.exe"), "evil\\u202Egpj.exe")
        XCTAssertEqual(VisibleText.escaped("line\u{2028}sep"), "line\\u2028sep")
        XCTAssertEqual(VisibleText.escaped(PathBytes.string(from: [0x63, 0xFF])), "c\u{FFFD}")
        XCTAssertEqual(VisibleText.escaped("Café 東京 🎉 IMG_0001.HEIC"), "Café 東京 🎉 IMG_0001.HEIC")
        for hostile in ["\u{1B}[31m", "\u{9B}2J", "a\nb", "\u{202E}x"] {
            let once = VisibleText.escaped(hostile)
            XCTAssertEqual(VisibleText.escaped(once), once, "escaping is idempotent")
            XCTAssertFalse(once.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
    }

    func testColumnsNeverRunIntoTheNextOne() {
        XCTAssertEqual(VisibleText.column("short", width: 8), "short   ")
        XCTAssertEqual(VisibleText.column("a-very-long-name.jpg", width: 8), "a-very-…")
        XCTAssertEqual(VisibleText.column("東京東京東京.jpg", width: 8), "東京東… ")
        XCTAssertEqual(VisibleText.columns(VisibleText.column("東京東京東京.jpg", width: 8)), 8)
        XCTAssertEqual(VisibleText.column("\u{1B}[2J", width: 8), "\\e[2J   ")
    }

    func testPlurals() {
        XCTAssertEqual(Plural.count(1, "item"), "1 item")
        XCTAssertEqual(Plural.count(0, "item"), "0 items")
        XCTAssertEqual(Plural.count(2, "file"), "2 files")
        XCTAssertEqual(Plural.count(3, "entry", plural: "entries"), "3 entries")
    }
}
