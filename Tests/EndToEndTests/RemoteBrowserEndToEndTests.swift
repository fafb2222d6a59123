import Foundation
import TestSupport
import XCTest

/// `livegrid http://…/` in a real terminal (tmux) against real servers on 127.0.0.1: nginx with `limit_rate`
/// so downloads take a few seconds, Python's fault server for a file that 404s, and a port nobody listens on.
final class RemoteBrowserEndToEndTests: RemoteServerTestCase {

    private func open(_ url: String, environment: String = "") throws -> TmuxSession {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let home = root.appendingPathComponent("home").path
        // A private cache: every run downloads afresh. No agent: the tests say which key logs in.
        let command = "env -u SSH_AUTH_SOCK XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' NETRC=/dev/null "
            + "\(environment) TERM=tmux-256color '\(binary)' '\(url)'"
        return try TmuxSession(command: command, columns: 120, rows: 40)
    }

    /// A run of chafa's block symbols in the grid: a thumbnail (placeholders are corner marks and labels;
    /// progress bars use full blocks and shades, which are left out).
    private func showsThumbnail(_ screen: [String]) -> Bool {
        screen.dropFirst().dropLast().contains { line in
            line.range(of: "[\u{2580}-\u{2587}\u{2589}-\u{2590}\u{2594}-\u{259F}]{6,}", options: .regularExpression) != nil
        }
    }

    /// Issue 14.5: a still that has arrived is drawn at once, not when the other items of the screen are done.
    /// (The browser reads no headers for the folder as a whole since issue 17.5: items are completed from
    /// their own downloads, so the check is that other cells are still waiting when the first picture shows.)
    func testThumbnailAppearsBeforePairingOfTheWholeDirectoryEnds() throws {
        let many = root.appendingPathComponent("www/photos/many")
        try FileManager.default.createDirectory(at: many, withIntermediateDirectories: true)
        for i in 1...60 {
            try FileManager.default.linkItem(atPath: Fixtures.committed("motion-photo-v1.jpeg"),
                                             toPath: many.appendingPathComponent(String(format: "PXL_%03d.jpg", i)).path)
        }
        // 150 KB per file at 150 KB/s per connection, 6 header probes at a time: pairing takes ~10 s.
        let nginx = try RemoteTestHarness.startNginx(root: root, rate: "150k")
        servers.append(nginx)
        let session = try open("http://127.0.0.1:\(nginx.port)/slow/many/")
        let screen = try session.waitFor("a thumbnail", timeout: 30) { showsThumbnail($0) }
        let waiting = screen.dropFirst().dropLast().filter { $0.contains("┌") || $0.range(of: #"\d+%"#, options: .regularExpression) != nil }
        XCTAssertFalse(waiting.isEmpty,
                       "the first thumbnail came while other cells were still waiting:\n" + screen.joined(separator: "\n"))
        try quitAndCheckExit(session)
    }

    func testSFTPLibraryShowsTheLivePhotoDownloadsAndPlays() throws {
        let sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
        defer { sshd.stop() }
        let config = try sshd.clientConfig()
        let photos = root.appendingPathComponent("www/photos").path
        let session = try open(sshd.url(photos), environment: "HOME='\(sshd.home)' LIVEGRID_SSH_CONFIG='\(config)'")
        let done = try session.waitFor("train.jpg playable", timeout: 40) { screen in
            cellText(screen, "train.jpg")?.contains("✓ playable") == true
        }
        XCTAssertTrue(cellText(done, "train.jpg")?.contains("◎ LIVE") == true, done.joined(separator: "\n"))
        XCTAssertTrue(done.first?.contains("sftp://testhost") == true, "the header names the library: \(done.first ?? "")")
        try session.send("l", "l")
        try session.waitFor("train.jpg selected") { statusLine($0).contains("train.jpg") }
        let before = cellText(try session.screen(), "train.jpg") ?? ""
        var changed = false, status = ""
        let holdEnds = Date().addingTimeInterval(2)
        while Date() < holdEnds {
            try session.run(["send-keys", "-t", session.name, "Space"], capture: false)
            let screen = try session.screen()
            if cellText(screen, "train.jpg") != before { changed = true }
            if statusLine(screen).contains("hold:") { status = statusLine(screen) }
            Thread.sleep(forTimeInterval: 0.03)
        }
        XCTAssertTrue(changed, "the movie played in the cell")
        XCTAssertTrue(status.contains("hold:"), "status while playing: \(status)")
        try quitAndCheckExit(session)
    }

    func testSFTPUnknownHostKeyIsRefusedBeforeTheScreenIsTaken() throws {
        let sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
        defer { sshd.stop() }
        let empty = root.appendingPathComponent("empty_known_hosts").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let config = try sshd.clientConfig(named: "unknown", knownHosts: empty)
        let session = try open(sshd.url(root.path), environment: "HOME='\(sshd.home)' LIVEGRID_SSH_CONFIG='\(config)'")
        // The whole pane with its history, wrapped lines joined: the sentence is longer than one row.
        var text = ""
        let refusalDeadline = Date().addingTimeInterval(10)
        while Date() < refusalDeadline {
            text = try session.run(["capture-pane", "-p", "-J", "-S", "-", "-t", session.name])
            if text.contains("is unknown") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertTrue(text.contains("is unknown"), text)
        XCTAssertTrue(text.contains("SHA256:"), text)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, try session.display("#{pane_dead}") != "1" { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertEqual(try session.display("#{pane_dead}"), "1", "livegrid exits")
    }

    private static let names = ["motion-photo-v1.jpeg", "train.jpg"]

    private func statusLine(_ screen: [String]) -> String {
        screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    }

    /// The picture rows of a cell (between the header and the status bar).
    private func cellText(_ screen: [String], _ name: String) -> String? {
        let grid = ScreenGrid(lines: Array(screen.dropLast()), names: Self.names + ["sub"])
        guard let cell = grid.cell(name) else { return nil }
        return (cell.pictureTop..<cell.captionRow).compactMap { row -> String? in
            guard row < grid.lines.count else { return nil }
            let line = grid.lines[row]
            guard cell.x < line.count else { return "" }
            return String(line[cell.x..<min(line.count, cell.x + cell.width)])
        }.joined(separator: "\n")
    }

    private func quitAndCheckExit(_ session: TmuxSession) throws {
        try session.send("q")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, try session.display("#{pane_dead}") != "1" { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertEqual(try session.display("#{pane_dead}"), "1", "q quits even while the network is slow or broken")
    }

    /// The first screen where a cell's download line and its LIVE badge disagree: "✓ playable" under the outlined
    /// "◌" (not playable yet), or the normal "◎" over a progress bar or "queued". The two change in the same paint.
    private func mixedBadgeAndLine(_ screen: [String]) -> String? {
        for name in Self.names {
            guard let text = cellText(screen, name) else { continue }
            let downloading = text.range(of: #"[█░]+ \d+%"#, options: .regularExpression) != nil || text.contains("queued")
            if text.contains("✓ playable") && text.contains("◌") || text.contains("◎") && downloading {
                return "\(name):\n" + screen.joined(separator: "\n")
            }
        }
        return nil
    }

    func testThrottledServerShowsPlaceholdersProgressPlayableAndAnActivityLineThatGoesAway() throws {
        let nginx = try RemoteTestHarness.startNginx(root: root, rate: "400k")
        servers.append(nginx)
        let session = try open("http://127.0.0.1:\(nginx.port)/slow/")
        // Every screen polled through the whole download is checked (the race showed for one paint at a time).
        var mixed: String?
        let watched = { (condition: @escaping ([String]) -> Bool) in { (screen: [String]) -> Bool in
            if mixed == nil { mixed = self.mixedBadgeAndLine(screen) }
            return condition(screen)
        } }

        // Names first, long before the files: train.jpg alone takes ~4 s at 400 KB/s. Its cell is a placeholder,
        // or already the EXIF thumbnail read from the head of the file (a few KB), but never the finished item.
        let first = try session.waitFor("the listed names", watched { screen in
            Self.names.allSatisfy { name in screen.contains { $0.contains(name) } }
        })
        let firstTrain = cellText(first, "train.jpg") ?? ""
        let placeholder = firstTrain.contains("┌") || firstTrain.contains("jpg") || firstTrain.contains("queued")
        let headPreviewStillDownloading = firstTrain.range(of: #"[█░]+ \d+%"#, options: .regularExpression) != nil
        XCTAssertTrue(placeholder || headPreviewStillDownloading,
                      "train.jpg starts as a placeholder or a head preview with its download under way:\n" + first.joined(separator: "\n"))
        XCTAssertFalse(firstTrain.contains("✓ playable"), "nothing is whole yet:\n" + firstTrain)
        XCTAssertTrue(first.contains { $0.contains("sub") }, "the subdirectory is a folder entry")

        // A progress bar with a percentage inside the train.jpg cell, an outlined LIVE badge, the activity line.
        let downloading = try session.waitFor("a progress bar in the train.jpg cell", timeout: 30, watched { screen in
            guard let text = self.cellText(screen, "train.jpg") else { return false }
            return text.range(of: #"[█░]+ \d+%"#, options: .regularExpression) != nil
        })
        XCTAssertTrue(cellText(downloading, "train.jpg")?.contains("◌ LIVE") == true,
                      "the LIVE badge is outlined until the Live Photo is playable:\n" + downloading.joined(separator: "\n"))
        try session.waitFor("the activity line", timeout: 30, watched { screen in
            self.statusLine(screen).range(of: #"⇣ \d+ downloading"#, options: .regularExpression) != nil
        })

        // Space on the not-yet-playable Live Photo asks for it first and says how far it is.
        try session.send("l", "l")
        try session.waitFor("train.jpg selected", watched { self.statusLine($0).contains("train.jpg") })
        try session.send(" ")
        try session.waitFor("download-to-play progress", timeout: 30, watched { self.statusLine($0).contains("downloading to play") })

        // Everything arrives: both cells done, the Live Photo playable with its normal badge in the same corner.
        let done = try session.waitFor("train.jpg playable", timeout: 40, watched { screen in
            self.cellText(screen, "train.jpg")?.contains("✓ playable") == true
                && self.cellText(screen, "motion-photo-v1.jpeg")?.contains("✓ playable") == true
        })
        let doneTrain = cellText(done, "train.jpg") ?? ""
        XCTAssertTrue(doneTrain.contains("◎ LIVE"), "the normal badge once playable:\n" + doneTrain)
        XCTAssertFalse(doneTrain.contains("◌"), doneTrain)
        let badgeRow = { (text: String) in text.components(separatedBy: "\n").firstIndex { $0.contains("LIVE") } }
        XCTAssertEqual(badgeRow(doneTrain), badgeRow(cellText(downloading, "train.jpg") ?? ""), "the badge did not move")

        // The activity line lingers briefly after the last transfer, then goes away.
        try session.waitFor("the activity line to go away", timeout: 30, watched { !self.statusLine($0).contains("⇣") })
        XCTAssertNil(mixed, "a cell's download line and its LIVE badge changed in different paints")
        try quitAndCheckExit(session)
    }

    func testFolderEntryOpensAndBackspaceGoesUp() throws {
        let nginx = try RemoteTestHarness.startNginx(root: root)
        servers.append(nginx)
        let session = try open("http://127.0.0.1:\(nginx.port)/photos/")
        try session.waitFor("the folder entry selected") { statusLine($0).contains("sub/ · folder") }
        try session.send("Enter")
        try session.waitFor("the subdirectory") { screen in
            screen.first?.contains("/photos/sub/") == true && screen.contains { $0.contains("inner.jpeg") }
        }
        try session.send("BSpace")
        try session.waitFor("back in the parent, the folder selected again") { screen in
            screen.first?.contains("/photos/sub/") == false && statusLine(screen).contains("sub/ · folder")
                && screen.contains { $0.contains("train.jpg") }
        }
        try quitAndCheckExit(session)
    }

    func testFailedDownloadAndUnreachableServerAreShownAndQuitStillWorks() throws {
        let faults = try RemoteTestHarness.startFaultServer(root: root)
        servers.append(faults)
        // /hostile/ lists ok.jpg, which then answers 404.
        let failing = try open("http://127.0.0.1:\(faults.port)/hostile/")
        try failing.waitFor("the failed state in the cell") { screen in screen.contains { $0.contains("✗ failed") } }
        try failing.waitFor("the reason in the status bar") { screen in
            statusLine(screen).contains("404") && statusLine(screen).contains("R retries")
        }
        try failing.send("R")
        try failing.waitFor("the retry acknowledged or failed again") { screen in
            statusLine(screen).contains("retrying") || statusLine(screen).contains("404")
        }
        try quitAndCheckExit(failing)

        let port = try RemoteTestHarness.freePort()  // nobody listens there
        let unreachable = try open("http://127.0.0.1:\(port)/photos/")
        try unreachable.waitFor("the listing failure") { screen in screen.contains { $0.contains("Cannot list") } }
        try quitAndCheckExit(unreachable)
    }
}
