import Foundation
import TestSupport
import XCTest

/// Issue 17.5 in a real terminal against nginx on 127.0.0.1: a folder of 3,000 photos costs the listing, then
/// requests for the items on screen and the next screen only, counted from nginx's access log; a listing
/// longer than the cap is cut with a plain message.
final class RemoteLazyListingEndToEndTests: RemoteServerTestCase {
    private var sessions: [TmuxSession] = []

    override func tearDown() {
        sessions.removeAll()
        super.tearDown()
    }

    private func open(_ url: String, arguments: String = "") throws -> TmuxSession {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let home = root.appendingPathComponent("home").path
        let command = "env -u SSH_AUTH_SOCK XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' NETRC=/dev/null "
            + "TERM=tmux-256color '\(binary)' \(arguments) '\(url)'"
        let session = try TmuxSession(command: command, columns: 120, rows: 40)
        sessions.append(session)
        return session
    }

    private func makeFolder(count: Int) throws -> URL {
        let folder = root.appendingPathComponent("www/photos/many")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 1...count {
            try FileManager.default.linkItem(atPath: Fixtures.committed("motion-photo-v1.jpeg"),
                                             toPath: folder.appendingPathComponent(String(format: "PXL_%04d.jpg", i)).path)
        }
        return folder
    }

    /// nginx's log lines ("METHOD /uri STATUS range=…") so far.
    private func accessLog() -> [String] {
        ((try? String(contentsOf: root.appendingPathComponent("access.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// The numbers of the `PXL_nnnn.jpg` names in a text.
    private func numbers(in text: String) -> [Int] {
        var found: [Int] = []
        var rest = text[...]
        while let range = rest.range(of: #"PXL_\d{4}\.jpg"#, options: .regularExpression) {
            if let n = Int(rest[range].dropFirst(4).prefix(4)) { found.append(n) }
            rest = rest[range.upperBound...]
        }
        return found
    }

    private func shownNumbers(_ screen: [String]) -> Set<Int> { Set(screen.flatMap { numbers(in: $0) }) }

    func testOnlyTheShownItemsAndTheNextScreenAreRequested() throws {
        _ = try makeFolder(count: 3000)
        let nginx = try RemoteTestHarness.startNginx(root: root)
        servers.append(nginx)
        let before = accessLog().count
        let session = try open("http://127.0.0.1:\(nginx.port)/photos/many/")
        let first = try session.waitFor("the first names", timeout: 30) { !self.shownNumbers($0).isEmpty }
        let requestsAtFirstPaint = accessLog().count - before
        let visible = shownNumbers(first).count
        XCTAssertGreaterThan(visible, 5, first.joined(separator: "\n"))
        XCTAssertLessThanOrEqual(requestsAtFirstPaint, 1 + 2 * visible,
                                 "requests before the first paint: \(accessLog().suffix(requestsAtFirstPaint))")

        // Settled: the visible pictures are drawn and no request came for two seconds.
        var lastCount = -1, stillSince = Date()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let count = accessLog().count
            if count != lastCount { lastCount = count; stillSince = Date() }
            if Date().timeIntervalSince(stillSince) > 2 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let screen = try session.screen()
        let shown = shownNumbers(screen)
        let lines = accessLog().dropFirst(before)
        let files = lines.compactMap { numbers(in: $0).first }
        XCTAssertEqual(lines.filter { $0.hasPrefix("GET /photos/many/ ") }.count, 1, "one listing: \(lines.prefix(5))")
        XCTAssertTrue(shown.isSubset(of: Set(files)), "every item on screen was fetched for its picture")
        // The screen and the next one: the first 2 x (items on screen) names, nothing beyond.
        let highest = files.max() ?? 0
        XCTAssertLessThanOrEqual(highest, 2 * shown.count + 8, "no request for items never shown: \(Set(files).sorted().suffix(5))")
        XCTAssertLessThanOrEqual(files.count, 2 * (2 * shown.count + 8), "at most two requests per item fetched")
        XCTAssertLessThan(lines.count, 3000 / 10, "a 3,000-photo folder costs far fewer requests than its items")
        try session.send("q")
        try session.waitForExit()
    }

    func testAListingLongerThanTheCapIsCutWithAPlainMessage() throws {
        _ = try makeFolder(count: 1200)
        let nginx = try RemoteTestHarness.startNginx(root: root)
        servers.append(nginx)
        let session = try open("http://127.0.0.1:\(nginx.port)/photos/many/", arguments: "--max-entries 1000")
        let screen = try session.waitFor("the cut message with the first 1000 items", timeout: 30) { screen in
            screen.joined().contains("more than 1000 entries") && screen.first?.contains("1000 items") == true
        }
        XCTAssertTrue(screen.first?.contains("1000 items") == true, "the first 1000 are shown: \(screen.first ?? "")")
        XCTAssertTrue(screen.joined().contains("only the first 1000 are shown"), screen.joined(separator: "\n"))
        try session.send("q")
        try session.waitForExit()
    }
}
