import Foundation
import LibraryCore
import XCTest
@testable import Library
@testable import LibrarySources
import TestSupport

/// Issue 32.3: host keys decided as OpenSSH decides them. Each case writes a user and a global known_hosts
/// file, then asks a real `ssh -o BatchMode=yes` against a real sshd and livegrid the same question: both
/// must agree, for `@revoked` beside a plain line, a host trusted only globally, a key revoked globally,
/// wildcard, hashed and negated names, and a changed key.
final class KnownHostsTests: RemoteServerTestCase {
    private var sshd: SSHTestServer!
    private var photos: String { root.appendingPathComponent("photos").path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"))
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.committed("train.jpg"), toPath: photos + "/train.jpg")
    }

    override func tearDown() {
        sshd?.stop()
        sshd = nil
        super.tearDown()
    }

    private struct Case {
        var name: String
        var user: String
        var global: String
        var hashUserFile = false
        var accepted: Bool
    }

    func testLivegridAgreesWithOpenSSHOnEveryKindOfKnownHostsLine() async throws {
        let key = sshd.hostPublicKey
        let other = try sshd.changedKnownHosts()   // "[127.0.0.1]:PORT <another key>"
        let otherKey = try String(contentsOfFile: other, encoding: .utf8).split(separator: " ").dropFirst().joined(separator: " ")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let name = "[127.0.0.1]:\(sshd.port)"
        let cases = [
            Case(name: "plain line", user: "\(name) \(key)", global: "", accepted: true),
            Case(name: "revoked beside a plain line", user: "\(name) \(key)\n@revoked * \(key)", global: "", accepted: false),
            Case(name: "trusted only in the global file", user: "", global: "\(name) \(key)", accepted: true),
            Case(name: "revoked in the global file", user: "\(name) \(key)", global: "@revoked \(name) \(key)", accepted: false),
            Case(name: "wildcard pattern", user: "[127.0.0.*]:\(sshd.port) \(key)", global: "", accepted: true),
            Case(name: "pattern list with a question mark", user: "other.example,[127.0.0.?]:\(sshd.port) \(key)", global: "", accepted: true),
            Case(name: "hashed name", user: "\(name) \(key)", global: "", hashUserFile: true, accepted: true),
            Case(name: "negated pattern", user: "[127.0.0.*]:\(sshd.port),!\(name) \(key)", global: "", accepted: false),
            Case(name: "changed key", user: "\(name) \(otherKey)", global: "", accepted: false),
            Case(name: "another port", user: "[127.0.0.1]:1 \(key)", global: "", accepted: false),
        ]
        for (index, check) in cases.enumerated() {
            let dir = root.appendingPathComponent("case\(index)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let userFile = dir.appendingPathComponent("known_hosts").path
            let globalFile = dir.appendingPathComponent("ssh_known_hosts").path
            try (check.user + "\n").write(toFile: userFile, atomically: true, encoding: .utf8)
            try (check.global + "\n").write(toFile: globalFile, atomically: true, encoding: .utf8)
            if check.hashUserFile {
                let hashed = try ExternalTool.runProgram("/usr/bin/ssh-keygen", ["-H", "-f", userFile])
                XCTAssertEqual(hashed.status, 0, hashed.err)
                XCTAssertTrue(try String(contentsOfFile: userFile, encoding: .utf8).hasPrefix("|1|"), "the name is hashed")
            }
            let config = dir.appendingPathComponent("ssh_config").path
            try """
                Host \(SSHTestServer.alias)
                  HostName 127.0.0.1
                  Port \(sshd.port)
                  User \(sshd.user)
                  IdentityFile \(sshd.clientKey)
                  IdentitiesOnly yes
                  UserKnownHostsFile \(userFile)
                  GlobalKnownHostsFile \(globalFile)

                """.write(toFile: config, atomically: true, encoding: .utf8)

            let openSSH = try ExternalTool.runProgram("/usr/bin/ssh", ["-F", config, "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
                                                                       "-o", "ConnectTimeout=10", SSHTestServer.alias, "true"])
            XCTAssertEqual(openSSH.status == 0, check.accepted, "\(check.name): OpenSSH's own verdict (\(openSSH.err))")

            var configuration = RemoteHTTPConfiguration()
            configuration.idleTimeout = 5
            configuration.netrc = Netrc()
            configuration.ssh.openSSHConfigFile = config
            configuration.ssh.homeDirectory = sshd.home
            configuration.ssh.useAgent = false
            let client = RemoteHTTPClient(configuration: configuration)
            let library = RemoteLibrary(url: URL(string: sshd.url(photos))!, client: client,
                                        downloads: DownloadManager(client: client, configuration: .init(cacheRoot: dir.appendingPathComponent("cache").path)))
            do {
                _ = try await library.load()
                XCTAssertTrue(check.accepted, "\(check.name): livegrid connected where ssh refused")
            } catch RemoteError.hostKeyRejected(_, let problem) {
                XCTAssertFalse(check.accepted, "\(check.name): livegrid refused where ssh connected: \(problem)")
                if check.name.contains("revoked") {
                    guard case .revoked(_, _, let file) = problem else { return XCTFail("\(check.name): \(problem)") }
                    XCTAssertEqual(file, check.name.contains("global") ? globalFile : userFile)
                    XCTAssertTrue(RemoteError.hostKeyRejected(host: "127.0.0.1", problem: problem).description.contains("REVOKED"))
                }
                if check.name == "changed key" {
                    guard case .changed = problem else { return XCTFail("\(check.name): \(problem)") }
                }
            }
        }
    }

    /// OpenSSH's wildcard rules on their own (no server): `*` any run, `?` one character, the rest literally.
    func testGlobMatchesAsOpenSSHDoes() {
        let cases: [(String, String, Bool)] = [
            ("*", "", true), ("*", "host", true), ("h?st", "host", true), ("h?st", "hst", false),
            ("[127.0.0.*]:22222", "[127.0.0.1]:22222", true), ("[127.0.0.*]:22222", "[127.0.0.1]:2222", false),
            ("*.example.org", "a.example.org", true), ("*.example.org", "example.org", false), ("a*b*c", "aXbYbZc", true),
            ("a*b*c", "aXbYbZ", false), ("**", "x", true), ("host", "HOST".lowercased(), true),
        ]
        for (pattern, text, expected) in cases {
            XCTAssertEqual(KnownHosts.glob(Array(pattern.utf8), Array(text.utf8)), expected, "\(pattern) ~ \(text)")
        }
        XCTAssertEqual(KnownHosts.lookupName(host: "Example.ORG", port: 22), "example.org")
        XCTAssertEqual(KnownHosts.lookupName(host: "127.0.0.1", port: 2222), "[127.0.0.1]:2222")
    }
}
