import Foundation
import TestSupport
import XCTest

/// Issue 32.9 against a real sshd on 127.0.0.1: a symbolic link that leads nowhere or loops is named as such by
/// `scan`, `export` and the browser (it used to be a "damaged file"), and `scan` of a folder of 2,000 files
/// finishes with every file in order.
final class SFTPLinkAndLargeScanTests: RemoteServerTestCase {
    private var sshd: SSHTestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
    }

    override func tearDown() {
        sshd?.stop()
        sshd = nil
        super.tearDown()
    }

    /// train.jpg and six links: one to it, one to a path that does not exist, two that point at each other
    /// (`ln -s a b; ln -s b a`), one out of the folder to nothing, and one that comes back through another folder.
    private func linkFolder() throws -> String {
        let folder = root.appendingPathComponent("links").path
        let files = FileManager.default
        try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try files.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: folder + "/train.jpg")
        try files.createSymbolicLink(atPath: folder + "/good.jpg", withDestinationPath: "train.jpg")
        try files.createSymbolicLink(atPath: folder + "/IMG_1.JPG", withDestinationPath: "/nonexistent/IMG_9.JPG")
        try files.createSymbolicLink(atPath: folder + "/IMG_2.JPG", withDestinationPath: "IMG_3.JPG")
        try files.createSymbolicLink(atPath: folder + "/IMG_3.JPG", withDestinationPath: "IMG_2.JPG")
        try files.createSymbolicLink(atPath: folder + "/IMG_4.JPG", withDestinationPath: "../elsewhere/gone.jpg")
        let other = root.appendingPathComponent("other").path
        try files.createDirectory(atPath: other, withIntermediateDirectories: true)
        try files.createSymbolicLink(atPath: other + "/back.jpg", withDestinationPath: folder + "/IMG_5.JPG")
        try files.createSymbolicLink(atPath: folder + "/IMG_5.JPG", withDestinationPath: "../other/back.jpg")
        return folder
    }

    /// The binary without a controlling terminal (no prompt can wait) and with a time limit (a loop must not hang).
    private func livegrid(_ arguments: [String], extraEnvironment: [String] = []) throws -> (status: Int32, out: String, err: String) {
        let binary = try MissingRequirement.livegridBinary()
        let environment = ["XDG_CACHE_HOME=\(root.path)/cache", "NETRC=/dev/null", "HOME=\(sshd.home)",
                           "LIVEGRID_SSH_CONFIG=\(try sshd.clientConfig())"] + extraEnvironment
        return try ExternalTool.runProgram("/usr/bin/setsid", ["-w", "/usr/bin/timeout", "-s", "KILL", "120",
                                                               "/usr/bin/env", "-u", "SSH_AUTH_SOCK"] + environment + [binary] + arguments)
    }

    func testScanNamesBrokenLinksNotDamagedFiles() throws {
        let folder = try linkFolder()
        let scan = try livegrid(["scan", sshd.url(folder)])
        XCTAssertEqual(scan.status, 0, scan.err)
        XCTAssertTrue(scan.out.contains("IMG_1.JPG: a link to a file that does not exist on the server"), scan.out)
        XCTAssertTrue(scan.out.contains("IMG_2.JPG: a link that loops"), scan.out)
        XCTAssertTrue(scan.out.contains("IMG_3.JPG: a link that loops"), scan.out)
        XCTAssertTrue(scan.out.contains("IMG_4.JPG: a link to a file that does not exist on the server"), scan.out)
        XCTAssertTrue(scan.out.contains("IMG_5.JPG: a link that loops"), scan.out)
        XCTAssertFalse(scan.out.contains("damaged"), scan.out)
        XCTAssertTrue(scan.out.split(separator: "\n").contains {
            $0.hasPrefix("still") && $0.contains("good.jpg") && $0.contains("4032x3024")
        }, "a link to a file reads as the file:\n\(scan.out)")

        let json = try livegrid(["scan", "--json", sshd.url(folder)])
        XCTAssertEqual(json.status, 0, json.err)
        XCTAssertTrue(json.out.contains("a link that loops"), json.out)
    }

    func testExportOfABrokenLinkSaysWhy() throws {
        let folder = try linkFolder()
        let destination = root.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        for (name, sentence) in [("IMG_1.JPG", "IMG_1.JPG is a link to a file that does not exist on the server"),
                                 ("IMG_2.JPG", "IMG_2.JPG is a link that loops")] {
            let export = try livegrid(["export", sshd.url(folder) + name, "--to", destination])
            XCTAssertNotEqual(export.status, 0)
            XCTAssertTrue(export.err.contains(sentence), export.err)
            XCTAssertFalse(export.err.contains("damaged") || export.err.contains("no such file"), export.err)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: destination), [])
    }

    func testBrowserStatusLineNamesTheBrokenLink() throws {
        try TmuxSession.requireTmux()
        let folder = try linkFolder()
        let binary = try MissingRequirement.livegridBinary()
        let command = "env -u SSH_AUTH_SOCK XDG_CONFIG_HOME='\(root.path)/config' XDG_CACHE_HOME='\(root.path)/cache' "
            + "NETRC=/dev/null HOME='\(sshd.home)' LIVEGRID_SSH_CONFIG='\(try sshd.clientConfig())' TERM=tmux-256color "
            + "'\(binary)' '\(sshd.url(folder))'"
        let session = try TmuxSession(command: command, columns: 120, rows: 40)
        func statusLine(_ screen: [String]) -> String { screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "" }
        try session.waitFor("good.jpg selected", timeout: 40) { statusLine($0).contains("good.jpg") }
        try session.send("l")
        try session.waitFor("the dangling link's reason in the status bar", timeout: 40) {
            statusLine($0).contains("IMG_1.JPG is a link to a file that does not exist on the server")
        }
        try session.send("l")
        let loop = try session.waitFor("the loop's reason in the status bar", timeout: 40) {
            statusLine($0).contains("IMG_2.JPG is a link that loops")
        }
        XCTAssertFalse(loop.joined(separator: "\n").contains("damaged"), loop.joined(separator: "\n"))
        try session.send("q")
        try session.waitForExit()
    }

    /// A 64x48 grey JPEG of 172 bytes (ImageMagick's `convert -size 64x48 xc:gray`).
    private static let tinyJPEG = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/wAALCAAwAEABAREA/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAA/AJAAAAAAAAAAAAAAAA//2Q=="

    /// 2,000 stills (hard links of one tiny JPEG: the server reads them as 2,000 files, one header request
    /// each): the scan ends with every file, the items in natural order, and `--max-entries` still cuts with
    /// its message.
    func testScanOfTwoThousandFilesFinishesInOrder() throws {
        let folder = root.appendingPathComponent("many").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let original = root.appendingPathComponent("tiny.jpg").path
        try XCTUnwrap(Data(base64Encoded: Self.tinyJPEG)).write(to: URL(fileURLWithPath: original))
        for i in 0..<2000 {
            XCTAssertEqual(link(original, String(format: "%@/IMG_%d.jpg", folder, i)), 0)
        }
        let tracePath = root.appendingPathComponent("trace.log").path
        let scan = try livegrid(["scan", "--json", sshd.url(folder)], extraEnvironment: ["LIVEGRID_TRACE=\(tracePath)"])
        XCTAssertEqual(scan.status, 0, scan.err)
        // Header probes began while the listing still arrived (a listing of 2,000 names comes in many pieces).
        let trace = (try? String(contentsOfFile: tracePath, encoding: .utf8)) ?? ""   // no file: the assert below says so
        let overlapped = trace.split(separator: "\n").compactMap { line -> Int? in
            guard let field = line.split(separator: " ").first(where: { $0.hasPrefix("probes-while-listing=") }) else { return nil }
            return Int(field.dropFirst("probes-while-listing=".count))
        }
        XCTAssertEqual(overlapped.count, 1, trace)
        XCTAssertGreaterThan(overlapped.first ?? 0, 0, "probing starts before the listing ends: \(trace)")
        struct Report: Decodable {
            struct Item: Decodable { var kind: String; var name: String; var width: Int?; var height: Int? }
            var counts: [String: Int]
            var items: [Item]
        }
        let report = try JSONDecoder().decode(Report.self, from: Data(scan.out.utf8))
        XCTAssertEqual(report.items.count, 2000)
        XCTAssertEqual(report.items.filter { $0.kind == "still" && $0.width == 64 && $0.height == 48 }.count, 2000,
                       "every file probed")
        XCTAssertEqual(report.items.map(\.name), (0..<2000).map { "IMG_\($0).jpg" }, "natural order, as for a local folder")

        let cut = try livegrid(["scan", "--max-entries", "700", sshd.url(folder)])
        XCTAssertEqual(cut.status, 0, cut.err)
        XCTAssertTrue(cut.out.contains("lists more than 700 entries: only the first 700 are shown"), cut.out)
        XCTAssertTrue(cut.out.contains("700 items"), cut.out)
    }
}
