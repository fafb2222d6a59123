import Foundation
import TestSupport
import XCTest

/// `livegrid scan URL`: the same JSON as for a local folder, over sftp:// (a real sshd) and http:// (nginx).
final class RemoteScanCommandTests: RemoteServerTestCase {
    private struct Report: Decodable {
        struct Item: Decodable {
            struct File: Decodable { var path: String; var role: String; var size: UInt64 }
            var kind: String
            var name: String
            var files: [File]
            var identifier: String?
        }
        var counts: [String: Int]
        var items: [Item]
    }

    /// Runs the binary without a controlling terminal (`setsid`): no prompt can ever wait for an answer.
    private func scan(_ url: String, _ environment: [String: String]) throws -> (status: Int32, out: String, err: String) {
        let binary = try MissingRequirement.livegridBinary()
        let cache = root.appendingPathComponent("cache").path
        let env = ["XDG_CACHE_HOME=\(cache)", "NETRC=/dev/null"] + environment.map { "\($0.key)=\($0.value)" }
        return try ExternalTool.runProgram("/usr/bin/setsid", ["-w", "/usr/bin/env", "-u", "SSH_AUTH_SOCK"] + env
                                           + [binary, "scan", "--json", url])
    }

    func testScanOverSFTPAndHTTPGivesTheSameItems() throws {
        let sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
        defer { sshd.stop() }
        let photos = root.appendingPathComponent("www/photos").path
        let sftp = try scan(sshd.url(photos), ["HOME": sshd.home, "LIVEGRID_SSH_CONFIG": try sshd.clientConfig()])
        XCTAssertEqual(sftp.status, 0, sftp.err)
        let sftpReport = try JSONDecoder().decode(Report.self, from: Data(sftp.out.utf8))
        let live = try XCTUnwrap(sftpReport.items.first { $0.kind == "live" }, sftp.out)
        XCTAssertEqual(live.files.map(\.role), ["still", "movie"])
        XCTAssertEqual(live.files.first?.path, sshd.url(photos) + "train.jpg")
        XCTAssertEqual(live.files.last?.size, 1509892)

        let nginx = try RemoteTestHarness.startNginx(root: root)
        servers.append(nginx)
        let http = try scan("http://127.0.0.1:\(nginx.port)/photos/", [:])
        XCTAssertEqual(http.status, 0, http.err)
        let httpReport = try JSONDecoder().decode(Report.self, from: Data(http.out.utf8))
        XCTAssertEqual(httpReport.counts, sftpReport.counts)
        XCTAssertEqual(httpReport.items.map { [$0.kind, $0.name, $0.identifier ?? "-"] },
                       sftpReport.items.map { [$0.kind, $0.name, $0.identifier ?? "-"] })
    }

    /// ssh-agent first: with no usable key file, only the agent's key can log in, and without the agent the
    /// same command is refused.
    func testScanLogsInThroughTheAgent() throws {
        let sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
        defer { sshd.stop() }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-agent") else {
            throw MissingRequirement.tool("ssh-agent is not installed (openssh-client)")
        }
        let socket = root.appendingPathComponent("agent.sock").path
        // In the foreground (-D) as our child, its output to /dev/null: an agent that daemonised while holding a
        // pipe we read to its end would block the test forever.
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-agent")
        agent.arguments = ["-D", "-a", socket]
        agent.standardOutput = FileHandle.nullDevice
        agent.standardError = FileHandle.nullDevice
        try agent.run()
        defer { agent.terminate(); agent.waitUntilExit() }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socket), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let added = try ExternalTool.runProgram("/usr/bin/env", ["SSH_AUTH_SOCK=\(socket)", "/usr/bin/ssh-add", "-q", sshd.clientKey])
        XCTAssertEqual(added.status, 0, added.err)

        let emptyHome = root.appendingPathComponent("agent-home").path
        try FileManager.default.createDirectory(atPath: emptyHome, withIntermediateDirectories: true)
        let config = try sshd.clientConfig(named: "agent_only", identity: root.appendingPathComponent("no-such-key").path)
        let photos = root.appendingPathComponent("www/photos").path
        let withAgent = try scan(sshd.url(photos), ["HOME": emptyHome, "LIVEGRID_SSH_CONFIG": config, "SSH_AUTH_SOCK": socket])
        XCTAssertEqual(withAgent.status, 0, withAgent.err)
        XCTAssertTrue(withAgent.out.contains("\"live\""), withAgent.out)
        let withoutAgent = try scan(sshd.url(photos), ["HOME": emptyHome, "LIVEGRID_SSH_CONFIG": config])
        XCTAssertEqual(withoutAgent.status, 1, "only the agent holds the key")
        XCTAssertTrue(withoutAgent.err.contains("login refused"), withoutAgent.err)
    }

    func testScanWithAWrongKeyFailsWithAReasonAndNoPrompt() throws {
        let sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
        defer { sshd.stop() }
        let config = try sshd.clientConfig(named: "stranger", identity: try sshd.strangerKey())
        let result = try scan(sshd.url(root.path), ["HOME": sshd.home, "LIVEGRID_SSH_CONFIG": config])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.err.contains("login refused"), result.err)
        XCTAssertTrue(result.err.contains("stranger_ed25519"), result.err)
        XCTAssertEqual(result.out, "")
    }
}
