import Foundation
import TestSupport
import XCTest

/// `livegrid export <remote item>` stages the files in a temporary folder first; when that folder cannot be made
/// the command says why in the system's words. FileManager's error used to print as
/// "Error Domain=NSCocoaErrorDomain Code=512 …" (issue 27.6). Nothing is fetched: the folder comes first.
final class RemoteExportStagingFailureTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("livegrid-staging-failure")
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }   // try?: a leftover is only temporary space
    }

    func testAStagingFolderThatCannotBeMadeIsSaidPlainly() throws {
        let binary = try MissingRequirement.livegridBinary()
        let notAFolder = root.appendingPathComponent("not-a-folder")
        XCTAssertTrue(FileManager.default.createFile(atPath: notAFolder.path, contents: Data("x".utf8)))
        let home = root.appendingPathComponent("home").path
        let result = try ExternalTool.runProgram("/usr/bin/env", [
            "TMPDIR=\(notAFolder.path)", "HOME=\(home)", "XDG_CACHE_HOME=\(home)/cache", "XDG_CONFIG_HOME=\(home)/config",
            binary, "export", "--to", root.appendingPathComponent("out").path, "http://127.0.0.1:9/photos/IMG_0001.JPG",
        ])
        XCTAssertNotEqual(result.status, 0, "the export fails")
        XCTAssertTrue(result.err.contains("cannot make the folder for the downloaded copies \(notAFolder.path)"), result.err)
        XCTAssertTrue(result.err.contains("Not a directory"), result.err)
        XCTAssertFalse(result.err.contains("Domain="), result.err)
    }
}
