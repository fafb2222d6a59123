import Foundation
import MediaFormats
import TestSupport
import XCTest

/// Issue 15.3 and 15.7 through the built binary: what a new user trying livegrid ran into.
final class SmallDefectCommandTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try Fixtures.makeTemporaryDirectory("livegrid-newuser")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.appendingPathComponent("locked").path)
        try? FileManager.default.removeItem(at: dir)
    }

    private func place(_ fixture: String, at relative: String) throws {
        let target = dir.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.committed(fixture), toPath: target.path)
    }

    /// Issue 32.9 and 31.9: a config error is one sentence without the usage text, and an argument's newline
    /// never becomes a second line of an error.
    func testConfigErrorsAndArgumentErrorsSayOneThing() throws {
        try place("train.jpg", at: "a.jpg")
        for (config, expected) in [(dir.path, "is a directory, not a config file"), ("/nonexistent/x.toml", "no such file")] {
            let result = try RawCommand.run("--config", config, dir.path)
            XCTAssertEqual(result.status, 64, result.errText)
            XCTAssertTrue(result.errText.contains("config: \(config): \(expected)"), result.errText)
            XCTAssertFalse(result.errText.contains("Usage:"), "not a usage mistake: \(result.errText)")
            XCTAssertFalse(result.errText.contains("NSCocoaErrorDomain"), result.errText)
        }
        let forged = try RawCommand.run("--sort", "x\nforged", dir.path)
        XCTAssertNotEqual(forged.status, 0)
        XCTAssertTrue(forged.errText.contains("'x\\nforged'"), "the newline shown escaped: \(forged.errText)")
        XCTAssertFalse(forged.errText.split(separator: "\n").contains { $0.hasPrefix("forged") }, forged.errText)
    }

    func testScanRecursiveDescendsIntoFoldersNamedLikeFiles() throws {
        try place("train.jpg", at: "trip.jpg/IMG_1.jpg")
        try place("train.mov", at: "trip.jpg/IMG_1.mov")
        try place("motion-photo-v1.jpeg", at: "heic/m.jpeg")
        let result = try RawCommand.run("scan", "-r", dir.path)
        XCTAssertEqual(result.status, 0, result.errText)
        XCTAssertTrue(result.outText.contains("IMG_1.jpg + IMG_1.mov"), result.outText)
        XCTAssertTrue(result.outText.contains("m.jpeg"), result.outText)
        XCTAssertTrue(result.outText.contains("2 items (1 live, 1 motion, 0 still, 0 video) from 3 files"), result.outText)
        // Issue 31.10: with -r, a FOLDER column says where each item lies below the root.
        let lines = result.outText.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("KIND   FOLDER ") == true, result.outText)
        XCTAssertTrue(lines.contains { $0.contains(" trip.jpg ") && $0.contains("IMG_1.jpg + IMG_1.mov") }, result.outText)
        XCTAssertTrue(lines.contains { $0.contains(" heic ") && $0.contains("m.jpeg") }, result.outText)
    }

    func testExtractNeverAdvisesAnArgumentItRejects() throws {
        try place("train.jpg", at: "alone.jpg")
        let result = try RawCommand.run("extract", dir.appendingPathComponent("alone.jpg").path, "-o", dir.path)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertFalse(result.errText.contains("second argument"), result.errText)
        XCTAssertTrue(result.errText.contains("no paired movie"), result.errText)
    }

    func testCopiesOfAStillWithoutAMovieAreLiveOffNotPairedElsewhere() throws {
        try place("train.jpg", at: "IMG_1.jpg")
        try place("train.jpg", at: "IMG_1 copy.jpg")
        let result = try RawCommand.run("scan", "--json", dir.path)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.out)) as? [String: Any])
        let items = try XCTUnwrap(object["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 2)
        for item in items {
            XCTAssertEqual(item["liveOffReason"] as? String, "its movie is missing", "\(item)")
            XCTAssertFalse("\(item["warnings"] ?? "")".contains("paired with another still"), "\(item)")
        }
    }

    func testTableNamesNeverRunIntoTheNextColumnAndOneIsSingular() throws {
        try place("train.jpg", at: "a-file-name-far-longer-than-the-name-column-of-the-table.jpg")
        let result = try RawCommand.run("scan", dir.path)
        XCTAssertTrue(result.outText.contains("… 4032x3024"), result.outText)
        XCTAssertTrue(result.outText.contains("1 item (0 live, 0 motion, 1 still, 0 video) from 1 file"), result.outText)
        XCTAssertFalse(result.outText.contains("1 items"), result.outText)
    }

    func testUnknownCommandMissingPathAndNotMediaAreToldApart() throws {
        let unknown = try RawCommand.run("frobnicate")
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.errText.contains("unknown command 'frobnicate'"), unknown.errText)
        XCTAssertTrue(unknown.errText.contains("scan"), "lists the commands: \(unknown.errText)")

        let missing = try RawCommand.run(dir.appendingPathComponent("Photos").path)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.errText.contains("Photos does not exist"), missing.errText)
        XCTAssertFalse(missing.errText.contains("not a directory"), missing.errText)

        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("notes.txt").path, contents: Data("x".utf8))
        let notMedia = try RawCommand.run(dir.appendingPathComponent("notes.txt").path)
        XCTAssertEqual(notMedia.status, 1)
        XCTAssertTrue(notMedia.errText.contains("notes.txt is not a folder, photo or video"), notMedia.errText)
    }

    /// Root reads any directory: the test drops the capabilities that let it (setpriv, util-linux).
    func testAnUnreadableDirectoryIsRefusedWithTheRealReason() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw MissingRequirement.tool("setpriv (util-linux) is not installed")
        }
        let locked = dir.appendingPathComponent("locked")
        try place("train.jpg", at: "locked/a.jpg")
        XCTAssertEqual(chmod(locked.path, 0), 0)
        let drop = ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search"]
        let browse = try RawCommand.run([Array(locked.path.utf8)], prefix: drop)
        XCTAssertEqual(browse.status, 1, browse.errText)
        XCTAssertTrue(browse.errText.contains("Permission denied"), browse.errText)
        XCTAssertFalse(browse.errText.contains("No photos"), browse.errText)
        let scan = try RawCommand.run([Array("scan".utf8), Array(locked.path.utf8)], prefix: drop)
        XCTAssertEqual(scan.status, 1)
        XCTAssertTrue(scan.errText.contains("Permission denied"), scan.errText)
    }

    /// Issue 31.9 and 32.9: `export --to` a folder that does not exist says so (not "not a directory"); an
    /// item that cannot be exported is reported on standard error, the copies on standard output; `edit -o` a
    /// folder it cannot write names the folder, never the studio's hidden temporary.
    func testExportAndEditSayWhatIsWrongWithTheDestinationAndFailuresGoToStandardError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw MissingRequirement.tool("setpriv (util-linux) is not installed")
        }
        try place("train.jpg", at: "lib/a.jpg")
        try place("train.jpg", at: "lib/b.jpg")
        try place("train.jpg", at: "lib/live.jpg")
        try place("train.mov", at: "lib/live.mov")
        let missing = dir.appendingPathComponent("no-such-folder").path
        let toMissing = try RawCommand.run("export", dir.appendingPathComponent("lib/a.jpg").path, "--to", missing)
        XCTAssertEqual(toMissing.status, 1)
        XCTAssertTrue(toMissing.errText.contains("\(missing) does not exist"), toMissing.errText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "never created unasked")

        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let unreadable = dir.appendingPathComponent("lib/b.jpg").path
        XCTAssertEqual(chmod(unreadable, 0), 0)
        let drop = ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search"]
        let partly = try RawCommand.run(["export", dir.appendingPathComponent("lib/a.jpg").path, unreadable, "--to", out.path]
                                            .map { Array($0.utf8) }, prefix: drop)
        XCTAssertEqual(partly.status, 1, partly.errText)
        XCTAssertTrue(partly.errText.contains("failed  b.jpg"), "the failure on standard error: \(partly.errText)")
        XCTAssertFalse(partly.outText.split(separator: "\n").contains { $0.hasPrefix("failed") },
                       "standard output lists what was written: \(partly.outText)")
        XCTAssertTrue(partly.outText.contains("a.jpg"), partly.outText)

        let readOnly = dir.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(readOnly.path, 0o555), 0)
        defer { chmod(readOnly.path, 0o755) }
        let edit = try RawCommand.run(["edit", dir.appendingPathComponent("lib/live.jpg").path, "-o", readOnly.path, "--mute"]
                                          .map { Array($0.utf8) }, prefix: drop)
        XCTAssertEqual(edit.status, 1, edit.errText)
        XCTAssertTrue(edit.errText.contains("\(readOnly.path): destination is not writable"), edit.errText)
        XCTAssertFalse(edit.errText.contains(".livegrid-edit"), "no temporary's name: \(edit.errText)")
    }

    func testThumbnailRefusesToOverwriteWithoutForce() throws {
        try place("train.jpg", at: "a.jpg")
        let output = dir.appendingPathComponent("existing.png").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try RawCommand.run("thumbnail", dir.appendingPathComponent("a.jpg").path, "-o", output)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.errText.contains("already exists") && refused.errText.contains("--force"), refused.errText)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)), Data("precious".utf8))
        let forced = try RawCommand.run("thumbnail", dir.appendingPathComponent("a.jpg").path, "-o", output, "--force")
        XCTAssertEqual(forced.status, 0, forced.errText)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: output)).prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }
}
