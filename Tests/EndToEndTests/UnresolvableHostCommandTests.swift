import Foundation
import TestSupport
import XCTest

/// A host name that does not resolve (issue 31.9): every remote kind and every verb says so, in those words,
/// never "login refused" or "connection lost". `.invalid` never resolves (RFC 6761), with or without a
/// network, so nothing leaves the machine.
final class UnresolvableHostCommandTests: XCTestCase {
    private var root: URL!
    private static let host = "no-such-host.invalid"
    private static let sentence = "\(host): this host name does not resolve (check the name, or your DNS)"

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("livegrid-unresolvable")
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    /// The binary without a controlling terminal (`setsid`): a password prompt could never be answered, so a
    /// prompt would show as "no terminal to ask". No agent, an empty home, no netrc, no proxy.
    private func livegrid(_ arguments: [String], _ environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let binary = try MissingRequirement.livegridBinary()
        let home = root.appendingPathComponent("home").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let base = ["HOME": home, "XDG_CACHE_HOME": home + "/cache", "XDG_CONFIG_HOME": home + "/config", "NETRC": "/dev/null",
                    "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret"]
        let unset = ["SSH_AUTH_SOCK", "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "AWS_PROFILE"]
            .flatMap { ["-u", $0] }
        let env = base.merging(environment) { _, new in new }.map { "\($0.key)=\($0.value)" }
        return try ExternalTool.runProgram("/usr/bin/setsid", ["-w", "/usr/bin/env"] + unset + env + [binary] + arguments)
    }

    /// Every remote kind, as a folder URL, with what its requests need (S3: an endpoint on that host).
    private var kinds: [(folder: String, environment: [String: String])] {
        [("sftp://\(Self.host)/photos/", [:]),
         ("ssh://me:secret@\(Self.host)/photos/", [:]),   // a password to try: the look-up still comes first
         ("http://\(Self.host)/photos/", [:]),
         ("https://\(Self.host)/photos/", [:]),
         ("davs://\(Self.host)/photos/", [:]),
         ("s3://bucket/photos/", ["AWS_ENDPOINT_URL": "http://\(Self.host):9000"])]
    }

    private func assertSaysTheNameDoesNotResolve(_ result: (status: Int32, out: String, err: String), _ what: String,
                                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotEqual(result.status, 0, "\(what) fails", file: file, line: line)
        XCTAssertTrue(result.err.contains(Self.sentence), "\(what): \(result.err)", file: file, line: line)
        for misleading in ["login refused", "connection lost", "no such file", "does not exist"] {
            XCTAssertFalse(result.err.contains(misleading), "\(what) says \(misleading): \(result.err)", file: file, line: line)
        }
    }

    func testScanShowAndExportSayTheHostNameDoesNotResolve() throws {
        for kind in kinds {
            assertSaysTheNameDoesNotResolve(try livegrid(["scan", kind.folder], kind.environment), "scan \(kind.folder)")
            let photo = kind.folder + "IMG_0001.JPG"
            assertSaysTheNameDoesNotResolve(try livegrid(["show", "--size", "20x10", photo], kind.environment), "show \(photo)")
            let exported = root.appendingPathComponent("exported").path
            assertSaysTheNameDoesNotResolve(try livegrid(["export", "--to", exported, photo], kind.environment), "export \(photo)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: exported), "nothing is made for a failed export")
        }
    }

    /// The browser logs in before it takes the screen: an SFTP host that does not resolve is said there, and
    /// no password is asked for.
    func testTheBrowserSaysTheSFTPHostNameDoesNotResolve() throws {
        assertSaysTheNameDoesNotResolve(try livegrid(["sftp://\(Self.host)/photos/"]), "browse sftp")
        assertSaysTheNameDoesNotResolve(try livegrid(["\(Self.host):photos/"]), "browse scp's short form")
    }

    /// An HTTP library is listed inside the browser: the listing's failure says it there (tmux).
    func testTheBrowserSaysAnHTTPHostNameDoesNotResolve() throws {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let home = root.appendingPathComponent("home").path
        let command = "env -u http_proxy -u all_proxy -u ALL_PROXY XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' "
            + "NETRC=/dev/null TERM=tmux-256color '\(binary)' 'http://\(Self.host)/photos/'"
        let session = try TmuxSession(command: command, columns: 200, rows: 30)
        let screen = try session.waitFor("the sentence in the browser") { $0.contains { $0.contains(Self.sentence) } }
        XCTAssertFalse(screen.contains { $0.contains("connection lost") }, screen.joined(separator: "\n"))
    }

    /// A proxy whose name does not resolve is named as the proxy, not as the server.
    func testAnUnresolvableProxyIsNamed() throws {
        let result = try livegrid(["scan", "http://127.0.0.1:9/photos/"], ["http_proxy": "http://no-such-proxy.invalid:3128"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.err.contains("the proxy no-such-proxy.invalid does not resolve"), result.err)
        XCTAssertFalse(result.err.contains("connection lost"), result.err)
    }
}
