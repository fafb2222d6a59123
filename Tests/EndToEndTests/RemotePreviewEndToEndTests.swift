import Foundation
import TestSupport
import XCTest

/// Issue 28.1 measured: the first screen of 28 camera JPEGs (3.4 MB each, each with a 160x120 Exif thumbnail)
/// over `sftp://` on loopback, bytes counted on a relay in front of sshd. Symbols draw each cell from its
/// head range; the whole stills are not fetched until the viewer needs one.
final class RemotePreviewEndToEndTests: RemoteServerTestCase {
    func testTheFirstScreenOverSFTPIsDrawnFromTheHeads() throws {
        try TmuxSession.requireTmux()
        guard let binary = Fixtures.livegridBinary else { throw XCTSkip("the livegrid binary is not built: run `swift build` first") }
        let folder = root.appendingPathComponent("www/photos/camera")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 1...28 {
            try FileManager.default.linkItem(atPath: root.appendingPathComponent("www/photos/train.jpg").path,
                                             toPath: folder.appendingPathComponent(String(format: "IMG_%04d.jpg", i)).path)
        }
        let sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
        defer { sshd.stop() }
        let proxy = try ByteCountingProxy(to: sshd.port, directory: root)
        defer { proxy.stop() }
        let config = try sshd.clientConfig(port: proxy.port)
        let home = root.appendingPathComponent("home").path
        let session = try TmuxSession(command: "env -u SSH_AUTH_SOCK HOME='\(sshd.home)' LIVEGRID_SSH_CONFIG='\(config)' "
                                          + "XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' "
                                          + "TERM=tmux-256color '\(binary)' '\(sshd.url(folder.path))'",
                                      columns: 120, rows: 40)
        // Settled: pictures on screen and no byte for two seconds.
        var last = -1, stillSince = Date()
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            let count = proxy.counts.toClient
            if count != last { last = count; stillSince = Date() }
            if count > 0, Date().timeIntervalSince(stillSince) > 2 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let screen = try session.screen()
        let words = screen.joined(separator: " ").split { !($0.isLetter || $0.isNumber || $0 == "_") }
        let names = Set(words.filter { $0.hasPrefix("IMG_") }.map { String($0.prefix(8)) })
        let pictureRows = screen.dropFirst().dropLast().filter {
            $0.range(of: "[\u{2580}-\u{2587}\u{2589}-\u{2590}\u{2594}-\u{259F}]{6,}", options: .regularExpression) != nil
        }.count
        let bytes = proxy.counts.toClient
        print("MEASURE sftp first screen: \(names.count) items named on screen, \(bytes) bytes to the client")
        XCTAssertGreaterThan(names.count, 5, screen.joined(separator: "\n"))
        XCTAssertGreaterThan(pictureRows, 3, "pictures are drawn:\n" + screen.joined(separator: "\n"))
        XCTAssertLessThan(bytes, 28 * 200_000, "heads, not 28 x 3.4 MB")

        // The viewer needs more pixels than a 160x120 thumbnail: the selected still is fetched whole.
        try session.send("Enter")
        let wholeDeadline = Date().addingTimeInterval(30)
        while Date() < wholeDeadline, proxy.counts.toClient < bytes + 3_400_000 { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertGreaterThanOrEqual(proxy.counts.toClient, bytes + 3_400_000, "the viewer fetched the still it shows")
        try session.send("Escape")   // back to the grid
        try session.send("q")
        try session.waitForExit()
    }
}
