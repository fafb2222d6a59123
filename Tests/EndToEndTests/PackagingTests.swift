import Foundation
import TestSupport
import XCTest

/// What `make install` / `make deb` ship besides the binary, checked without building a package (that is
/// `make deb-test`: a fresh Debian root, minutes).
final class PackagingTests: XCTestCase {
    private var desktopEntry: String { Fixtures.packageRoot.appendingPathComponent("packaging/livegrid.desktop").path }

    func testTheDesktopEntryOpensPicturesInATerminal() throws {
        let text = try String(contentsOfFile: desktopEntry, encoding: .utf8)
        let lines = Set(text.components(separatedBy: "\n"))
        XCTAssertTrue(lines.contains("Terminal=true"), "livegrid needs a terminal")
        XCTAssertTrue(lines.contains("Exec=livegrid %f"), "one file, which livegrid opens in its folder")
        let mimeLine = try XCTUnwrap(lines.first { $0.hasPrefix("MimeType=") })
        let types = Set(mimeLine.dropFirst("MimeType=".count).split(separator: ";").map(String.init))
        for type in ["image/jpeg", "image/heic", "image/heif", "image/png", "video/quicktime", "video/mp4"] {
            XCTAssertTrue(types.contains(type), "the desktop entry offers livegrid for \(type)")
        }
        let validator = try MissingRequirement.path(of: "desktop-file-validate", for: "the desktop entry cannot be validated")
        let result = try ExternalTool.runProgram(validator, [desktopEntry])
        XCTAssertEqual(result.status, 0, result.out + result.err)
        XCTAssertEqual(result.out + result.err, "", "no warnings from desktop-file-validate")
    }

    func testCompletionScriptsKnowEverySubcommand() throws {
        let subcommands = ["browse", "scan", "show", "thumbnail", "export", "make-live", "convert", "extract", "play", "keys", "version"]
        for shell in ["bash", "zsh", "fish"] {
            let result = try LivegridCommand.run(["--generate-completion-script", shell])
            XCTAssertEqual(result.status, 0, result.err)
            for subcommand in subcommands {
                XCTAssertTrue(result.out.contains(subcommand), "\(shell) completion offers \(subcommand)")
            }
        }
    }

    func testTheLicenceIsInTheRepository() throws {
        let licence = try String(contentsOfFile: Fixtures.packageRoot.appendingPathComponent("LICENSE").path, encoding: .utf8)
        XCTAssertTrue(licence.hasPrefix("MIT License"))
        let copyright = try String(contentsOfFile: Fixtures.packageRoot.appendingPathComponent("packaging/copyright").path,
                                   encoding: .utf8)
        XCTAssertTrue(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"))
    }
}
