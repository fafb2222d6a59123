import Foundation
import TestSupport
import XCTest

/// The password prompt of `sftp://` libraries in a real terminal (tmux) against a real sshd on 127.0.0.1 that
/// accepts passwords, for a real local account (`SystemTestUser`, needs root). livegrid runs inside `sh -c` so
/// that its exit status and the terminal's modes after it (`stty -a`) can be read from the pane.
final class SFTPPasswordPromptEndToEndTests: RemoteServerTestCase {
    private static let password = "Tr4in pass-word"
    private var sshd: SSHTestServer!
    private var account: SystemTestUser!
    private var sessions: [TmuxSession] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        try TmuxSession.requireTmux()
        account = try SystemTestUser(password: Self.password)
        sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"), allowPasswords: true)
        // The account reads the library: the test's directories on the way are opened to others (only those
        // below `root`; its parent is the system's temporary directory, left alone).
        for relative in ["", "www", "www/photos"] {
            chmod(root.appendingPathComponent(relative).path, 0o755)
        }
        for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
            chmod(root.appendingPathComponent("www/photos/\(name)").path, 0o644)
        }
        // The client's OpenSSH configuration for this address (`ssh -F`): the server's known_hosts and a key
        // file that does not exist, so neither root's own ~/.ssh nor a key can log in: only the password.
        try """
            Host 127.0.0.1
              UserKnownHostsFile \(sshd.knownHosts)
              IdentityFile \(root.appendingPathComponent("no-such-key").path)
              IdentitiesOnly yes

            """.write(to: root.appendingPathComponent("client_ssh_config"), atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        sessions.removeAll()
        sshd?.stop()
        account?.remove()
        super.tearDown()
    }

    private var url: String {
        "sftp://\(account.name)@127.0.0.1:\(sshd.port)\(root.appendingPathComponent("www/photos").path)/"
    }

    /// `livegrid ARGUMENTS` in a 120x40 pane, then its exit status and the terminal's modes (a script file:
    /// no quoting through tmux's own shell).
    private func run(_ arguments: String) throws -> TmuxSession {
        let binary = try MissingRequirement.livegridBinary()
        let home = sshd.home
        let script = root.appendingPathComponent("run-\(sessions.count).sh")
        try """
            env -u SSH_AUTH_SOCK HOME='\(home)' XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' \\
              NETRC=/dev/null LIVEGRID_SSH_CONFIG='\(root.appendingPathComponent("client_ssh_config").path)' \\
              TERM=tmux-256color '\(binary)' \(arguments)
            echo "EXIT=$?"
            stty -a | tr '\\n' ' '
            echo " END-OF-STTY"
            sleep 60

            """.write(to: script, atomically: true, encoding: .utf8)
        let session = try TmuxSession(command: "sh '\(script.path)'")
        sessions.append(session)
        return session
    }

    private func text(_ session: TmuxSession) throws -> String {
        try session.run(["capture-pane", "-p", "-J", "-S", "-", "-t", session.name])
    }

    private func waitForText(_ session: TmuxSession, _ what: String, timeout: TimeInterval = 20) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try text(session)
            if last.contains(what) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("timed out waiting for \(what):\n\(last)")
        return last
    }

    /// Waits for the prompt, types the password (checking it is not shown), presses Enter.
    private func answerPrompt(_ session: TmuxSession, with password: String) throws {
        let prompt = try waitForText(session, "Password for \(account.name)@127.0.0.1: ")
        XCTAssertFalse(prompt.contains("EXIT="), "livegrid waits at the prompt")
        try session.run(["send-keys", "-t", session.name, "-l", password], capture: false)
        // The keys reached the terminal (the cursor stays put: nothing echoed): the screen stays still, and
        // nothing of them is on it.
        try session.waitForStableScreen()
        let typed = try text(session)
        XCTAssertFalse(typed.contains(password), "the password is not echoed:\n\(typed)")
        XCTAssertFalse(typed.contains("Tr4in"), "no part of it either")
        XCTAssertFalse(typed.contains("*****"), "no stars either (like ssh)")
        try session.send("Enter")
    }

    /// The modes `stty -a` printed after livegrid exited: echo and canonical input back on.
    private func assertTerminalRestored(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let words = Set(text.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "\n" }).map(String.init))
        XCTAssertTrue(words.contains("echo") && !words.contains("-echo"), "echo is back on:\n\(text)", file: file, line: line)
        XCTAssertTrue(words.contains("icanon") && !words.contains("-icanon"), "line editing is back:\n\(text)", file: file, line: line)
        XCTAssertTrue(words.contains("isig") && !words.contains("-isig"), "Ctrl-C works again:\n\(text)", file: file, line: line)
    }

    func testRightPasswordBrowsesTheLibrary() throws {
        let session = try run("'\(url)'")
        try answerPrompt(session, with: Self.password)
        let grid = try session.waitFor("the grid with the library", timeout: 30) { screen in
            screen.contains { $0.contains("train.jpg") } && screen.contains { $0.contains("motion-photo-v1.jpeg") }
        }
        XCTAssertTrue(grid.first?.contains("sftp://") == true, "the header names the library: \(grid.first ?? "")")
        XCTAssertFalse(grid.joined().contains(Self.password))
        try session.send("q")
        let after = try waitForText(session, "END-OF-STTY")
        XCTAssertTrue(after.contains("EXIT=0"), after)
        assertTerminalRestored(after)
        XCTAssertFalse(after.contains(Self.password), "the password never reached the screen")
    }

    func testRightPasswordScans() throws {
        let output = root.appendingPathComponent("scan.json").path
        let session = try run("scan --json '\(url)' > '\(output)'")
        try answerPrompt(session, with: Self.password)
        let after = try waitForText(session, "END-OF-STTY", timeout: 30)
        XCTAssertTrue(after.contains("EXIT=0"), after)
        assertTerminalRestored(after)
        let json = try String(contentsOfFile: output, encoding: .utf8)
        XCTAssertTrue(json.contains("train.jpg") && json.contains("\"live\""), json)
    }

    func testWrongPasswordIsAPlainMessageWithoutAHang() throws {
        let session = try run("scan '\(url)'")
        try answerPrompt(session, with: "not the password")
        let after = try waitForText(session, "END-OF-STTY", timeout: 30)
        XCTAssertTrue(after.contains("EXIT=1"), after)
        XCTAssertTrue(after.contains("login refused: \(account.name)@127.0.0.1 did not accept the password"), after)
        XCTAssertFalse(after.contains("not the password"), "the wrong password is not shown either")
        assertTerminalRestored(after)
    }

    func testCtrlCAtThePromptExitsAndRestoresTheTerminal() throws {
        let session = try run("'\(url)'")
        _ = try waitForText(session, "Password for \(account.name)@127.0.0.1: ")
        try session.run(["send-keys", "-t", session.name, "-l", "half"], capture: false)
        try session.send("C-c")
        let after = try waitForText(session, "END-OF-STTY", timeout: 10)
        XCTAssertTrue(after.contains("EXIT=130"), after)
        XCTAssertTrue(after.contains("cancelled at the prompt"), after)
        assertTerminalRestored(after)
    }
}
