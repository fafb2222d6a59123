import Foundation
import TestSupport
import XCTest

/// Issue 17 item 3, in a real terminal: a library opened before is drawn whole from its last scan (the
/// timeline with every header) before the scan has checked its files; unchanged, the check confirms it; a file
/// deleted behind its back is noticed on the next open, and the view settles on what is really there.
final class RememberedScanEndToEndTests: XCTestCase {
    static let folders = 30
    static let perFolder = 100

    func testKnownLibraryOpensWholeThenIsCheckedAndAChangeIsNoticed() throws {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let root = try Fixtures.makeTemporaryDirectory("livegrid-remembered-e2e")
        defer { try? FileManager.default.removeItem(at: root) }
        let library = root.appendingPathComponent("library")
        // Hard links to a private copy of a real camera still, in year/month folders: 3,000 items.
        let source = root.appendingPathComponent("train.jpg").path
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: source)
        for folder in 0..<Self.folders {
            let path = library.appendingPathComponent(String(format: "%04d/%02d", 2000 + folder / 12, 1 + folder % 12))
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            for i in 0..<Self.perFolder {
                try FileManager.default.linkItem(atPath: source, toPath: path.appendingPathComponent(String(format: "IMG_%02d%03d.JPG", folder, i)).path)
            }
        }
        let total = Self.folders * Self.perFolder
        let scans = root.appendingPathComponent("cache/livegrid/scans").path

        func open(_ label: String) throws -> (session: TmuxSession, traced: (String) -> Bool, trace: () -> [String]) {
            let trace = root.appendingPathComponent("trace-\(label)").path
            let environment = "env XDG_CONFIG_HOME='\(root.path)/config' XDG_CACHE_HOME='\(root.path)/cache' "
                + "LIVEGRID_TRACE='\(trace)' TERM=tmux-256color"
            let session = try TmuxSession(command: "\(environment) '\(binary)' --graphics symbols -r --group date '\(library.path)'",
                                          columns: 120, rows: 40)
            let events = { ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                $0.split(separator: " ").dropFirst().first.map(String.init)
            } }
            return (session, { events().contains($0) }, events)
        }

        // First open: scanned the usual way, then remembered (on a thread of its own, after the result).
        let first = try open("first")
        _ = try first.session.waitFor("the first scan", timeout: 120) { $0.first?.contains("\(total) items") == true }
        let deadline = Date().addingTimeInterval(60)
        while ((try? FileManager.default.contentsOfDirectory(atPath: scans)) ?? []).filter({ $0.hasSuffix(".snapshot") }).isEmpty,
              Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertFalse(first.traced("scan-snapshot-read"), "nothing was remembered before the first open")
        try first.session.send("q")

        // Second open: the whole timeline from the last scan, before the check; then confirmed.
        let second = try open("second")
        let whole = try second.session.waitFor("the remembered timeline", timeout: 120) { screen in
            screen.first?.contains("\(total) items") == true && screen.joined().contains("April 2021")
        }
        // Every copy was taken in April 2021 (the still's Exif date): one month header holds them all.
        XCTAssertTrue(whole.joined().contains("April 2021 · \(total) items"), whole.joined(separator: "\n"))
        let confirmDeadline = Date().addingTimeInterval(120)
        while !second.traced("scan-confirmed"), Date() < confirmDeadline { Thread.sleep(forTimeInterval: 0.05) }
        let events = second.trace()
        XCTAssertTrue(events.contains("scan-confirmed"), events.joined(separator: " "))
        if let shown = events.firstIndex(of: "indexed-view-shown"), let confirmed = events.firstIndex(of: "scan-confirmed") {
            XCTAssertLessThan(shown, confirmed, "the whole view was drawn before the files were checked")
        } else {
            XCTFail("no remembered view drawn: \(events.joined(separator: " "))")
        }
        let settled = try second.session.waitFor("the checked timeline", timeout: 120) { screen in
            screen.first?.contains("\(total) items") == true && screen.first?.contains("checking…") == false
        }
        // Below the header (which said "checking…" or no longer does), the same sections and the same selection
        // (pictures may still have been loading when the remembered view was captured).
        XCTAssertEqual(settled.prefix(3).dropFirst(), whole.prefix(3).dropFirst(), "the confirmed view is the remembered one")
        XCTAssertEqual(settled.last, whole.last)
        try second.session.send("q")

        // A file deleted behind its back: shown from the last scan, then the check fails and the view settles.
        try FileManager.default.removeItem(at: library.appendingPathComponent("2000/01/IMG_00000.JPG"))
        let third = try open("third")
        _ = try third.session.waitFor("the view without the deleted file", timeout: 120) { screen in
            screen.first?.contains("\(total - 1) items") == true && screen.first?.contains("checking…") == false
                && screen.joined().contains("April 2021 · \(total - 1) items")
        }
        XCTAssertTrue(third.traced("scan-snapshot-stale"), third.trace().joined(separator: " "))
        try third.session.send("q")
    }
}
