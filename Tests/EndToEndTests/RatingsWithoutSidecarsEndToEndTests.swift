import Foundation
import Library
import LibraryCore
import TestSupport
import XCTest

/// Issue 31.4-5 in the real browser (tmux): where the folder cannot be written (a read-only folder, an http
/// library served by nginx) a rating goes to livegrid's index: the status bar says so once, no file appears
/// in the folder, the rating shows again after a restart, `scan --json` reports it, and `export` writes it
/// as an XMP sidecar beside the copy. Auto-advance moves the cursor on after a rating.
final class RatingsWithoutSidecarsEndToEndTests: RemoteServerTestCase {
    private var home: URL { root.appendingPathComponent("home") }

    /// Extra variables for every run of livegrid (sftp: the test server's HOME and ssh configuration).
    private var extraEnvironment: [String] = []

    private func environment() -> [String] {
        ["XDG_CONFIG_HOME=\(home.path)/config", "XDG_CACHE_HOME=\(home.path)/cache", "NETRC=/dev/null"] + extraEnvironment
    }

    private func open(_ target: String, extra: String = "") throws -> TmuxSession {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let command = "env -u SSH_AUTH_SOCK " + environment().map { "'\($0)'" }.joined(separator: " ")
            + " TERM=tmux-256color '\(binary)' \(extra) '\(target)'"
        return try TmuxSession(command: command, columns: 140, rows: 40)
    }

    /// `livegrid ARGS` with the test's private cache (the same index as the browser's).
    private func livegrid(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try ExternalTool.runProgram("/usr/bin/env", environment() + [try MissingRequirement.livegridBinary()] + arguments)
    }

    private func show(_ name: String, in session: TmuxSession) throws {
        try session.send("/")
        try session.run(["send-keys", "-t", session.name, "-l", name], capture: false)
        try session.send("Enter")
        try session.waitFor("only \(name) shown") { $0.first?.contains("1 item") == true }
    }

    /// The browser's export of train (filtered to it) into a new folder under the test root: the pair and a
    /// sidecar holding `state` arrive there.
    private func exportTrainInBrowser(_ session: TmuxSession, to name: String, expecting state: TriageState) throws {
        let exported = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: exported, withIntermediateDirectories: true)
        try show("train", in: session)
        try session.send("e")
        try session.waitFor("the export dialog") { $0.contains { $0.contains("Export 1 item") } }
        try session.send("Enter")
        try session.waitFor("the destination prompt") { $0.contains { $0.contains("Export to:") } }
        try session.send("C-u")
        try session.run(["send-keys", "-t", session.name, "-l", exported.path], capture: false)
        try session.send("Enter")
        try session.waitFor("the export done", timeout: 30) { $0.contains { $0.contains("1 of 1 item exported") } }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: exported.path).sorted(),
                       ["train.jpg", "train.jpg.xmp", "train.mov"])
        XCTAssertEqual(try SidecarTriageStore.read(sidecar: exported.appendingPathComponent("train.jpg.xmp").path), state)
    }

    private func quit(_ session: TmuxSession) throws {
        try session.send("q")
        try session.waitForExit()
    }

    /// The JSON item named `name` of `livegrid scan --json TARGET`.
    private func scannedItem(_ target: String, _ name: String) throws -> [String: Any] {
        let scan = try livegrid(["scan", "--json", target])
        XCTAssertEqual(scan.status, 0, scan.err)
        let object = try JSONSerialization.jsonObject(with: Data(scan.out.utf8)) as? [String: Any]
        let items = object?["items"] as? [[String: Any]] ?? []
        return try XCTUnwrap(items.first { $0["name"] as? String == name }, scan.out)
    }

    private func checkExportedSidecar(of target: String, rating: Int, flag: TriageFlag) throws {
        let out = root.appendingPathComponent("out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let export = try livegrid(["export", target, "--to", out.path])
        XCTAssertEqual(export.status, 0, export.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(),
                       ["train.jpg", "train.jpg.xmp", "train.mov"], export.out)
        XCTAssertEqual(try SidecarTriageStore.read(sidecar: out.appendingPathComponent("train.jpg.xmp").path),
                       TriageState(rating: rating, flag: flag))
    }

    func testAReadOnlyFolderKeepsRatingsInTheIndexAcrossARestartAndExportsThem() throws {
        let folder = try ReadOnlyFolder(at: root.appendingPathComponent("readonly")) { url in
            for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
                try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: url.appendingPathComponent(name).path)
            }
        }
        defer { folder.remove() }
        let before = folder.names
        var session = try open(folder.url.path)
        try session.waitFor("the grid") { $0.first?.contains("2 items") == true }
        try show("train", in: session)
        try session.send("4")
        try session.waitFor("where ratings go") { screen in
            screen.contains { $0.contains("ratings are kept in livegrid's index: this folder is read-only") }
        }
        try session.send("p")
        try session.waitFor("picked") { $0.contains { $0.contains("picked train.jpg") } }
        // Undo works on an indexed rating as on a sidecar's: ★★ then u puts ★★★★ back.
        try session.send("2")
        try session.waitFor("rated ★★") { $0.contains { $0.contains("rated train.jpg ★★") && !$0.contains("★★★") } }
        try session.send("u")
        try session.waitFor("undone") { $0.contains { $0.contains("undid: rated train.jpg ★★") } }
        try quit(session)
        XCTAssertEqual(folder.names, before, "nothing was written in the read-only folder")

        session = try open(folder.url.path)
        let screen = try session.waitFor("the rating after a restart", timeout: 30) { screen in
            screen.contains { $0.contains("train.jpg") && $0.contains("⚑ ★★★★") && !$0.contains("★★★★★") }
        }
        // Cells sit side by side: the Motion Photo's caption is the part of the line before train.jpg's.
        let captions = try XCTUnwrap(screen.first { $0.contains("motion-photo-v1.jpeg") && $0.contains("train.jpg") })
        XCTAssertFalse(captions.components(separatedBy: "train.jpg")[0].contains("★"), screen.joined(separator: "\n"))
        // The browser's export writes the rating beside the copy too.
        try exportTrainInBrowser(session, to: "exported", expecting: TriageState(rating: 4, flag: .pick))
        try quit(session)

        let item = try scannedItem(folder.url.path, "train.jpg")
        XCTAssertEqual(item["rating"] as? Int, 4)
        XCTAssertEqual(item["flag"] as? String, "pick")
        XCTAssertEqual(try scannedItem(folder.url.path, "motion-photo-v1.jpeg")["rating"] as? Int, 0)
        try checkExportedSidecar(of: folder.url.appendingPathComponent("train.jpg").path, rating: 4, flag: .pick)
        XCTAssertEqual(folder.names, before)
    }

    func testAnHTTPLibraryKeepsRatingsInTheIndexAndNothingAppearsOnTheServer() throws {
        let nginx = try RemoteTestHarness.startNginx(root: root)
        servers.append(nginx)
        let served = root.appendingPathComponent("www/photos")
        let before = try FileManager.default.contentsOfDirectory(atPath: served.path).sorted()
        let url = "http://127.0.0.1:\(nginx.port)/photos/"
        var session = try open(url)
        try session.waitFor("the listing") { $0.contains { $0.contains("train.jpg") } }
        try show("train", in: session)
        try session.send("x")
        try session.waitFor("where ratings go") { screen in
            screen.contains { $0.contains("ratings are kept in livegrid's index: livegrid never writes to a remote library") }
        }
        try session.send("3")
        try session.waitFor("rated") { $0.contains { $0.contains("rated train.jpg ★★★") } }
        try quit(session)

        session = try open(url)
        try session.waitFor("the rating after a restart", timeout: 30) { screen in
            screen.contains { $0.contains("train.jpg") && $0.contains(" ★★★") && !$0.contains("★★★★") }
        }
        // The browser's export of the remote pair carries the rating kept in the index, as the CLI's does.
        try exportTrainInBrowser(session, to: "exported-http", expecting: TriageState(rating: 3, flag: .none))
        try quit(session)

        let item = try scannedItem(url, "train.jpg")
        XCTAssertEqual(item["rating"] as? Int, 3)
        XCTAssertEqual(item["flag"] as? String, "none", "a rating lifts the reject")
        try checkExportedSidecar(of: url + "train.jpg", rating: 3, flag: .none)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: served.path).sorted(), before,
                       "no sidecar or temporary appeared in the served folder")
    }

    func testAnSFTPLibraryKeepsRatingsInTheIndexAndNothingAppearsOnTheServer() throws {
        let sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
        defer { sshd.stop() }
        extraEnvironment = ["HOME=\(sshd.home)", "LIVEGRID_SSH_CONFIG=\(try sshd.clientConfig())"]
        let served = root.appendingPathComponent("www/photos")
        let before = try FileManager.default.contentsOfDirectory(atPath: served.path).sorted()
        let url = sshd.url(served.path)
        var session = try open(url)
        try session.waitFor("the listing", timeout: 40) { $0.contains { $0.contains("train.jpg") } }
        try show("train", in: session)
        try session.send("p")
        try session.waitFor("where ratings go") { screen in
            screen.contains { $0.contains("ratings are kept in livegrid's index: livegrid never writes to a remote library") }
        }
        try quit(session)

        session = try open(url)
        try session.waitFor("the pick after a restart", timeout: 40) { screen in
            screen.contains { $0.contains("train.jpg") && $0.contains(" ⚑") }
        }
        try quit(session)
        let item = try scannedItem(url, "train.jpg")
        XCTAssertEqual(item["rating"] as? Int, 0)
        XCTAssertEqual(item["flag"] as? String, "pick")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: served.path).sorted(), before,
                       "no sidecar or temporary appeared in the served folder")
    }

    func testAutoAdvanceMovesTheCursorOnAfterARating() throws {
        let library = root.appendingPathComponent("www/photos")
        let session = try open(library.path, extra: "--auto-advance")
        try session.waitFor("the grid") { $0.first?.contains("items") == true }
        // The first cell is the folder `sub`: the first photo is the second cell.
        try session.send("g", "l")
        try session.waitFor("the first photo selected") { $0.contains { $0.contains("▸motion-photo") } }
        try session.send("5")
        try session.waitFor("the next item selected after the rating") { screen in
            screen.contains { $0.contains("▸train.jpg") && $0.contains("★★★★★") }
        }
        try quit(session)
        XCTAssertEqual(try SidecarTriageStore.read(sidecar: library.appendingPathComponent("motion-photo-v1.jpeg.xmp").path),
                       TriageState(rating: 5), "the rated photo is the one the cursor left")
        // A writable folder's sidecar ratings are in `scan --json` too.
        let item = try scannedItem(library.path, "motion-photo-v1.jpeg")
        XCTAssertEqual(item["rating"] as? Int, 5)
        XCTAssertEqual(item["flag"] as? String, "none")
        XCTAssertEqual(try scannedItem(library.path, "train.jpg")["rating"] as? Int, 0)
    }
}
