import Foundation
import TestSupport
import XCTest

/// Issue 32.1 at the SFTP password prompt: the terminal goes away while the user is typing the password, in a
/// session that outlives it (SIGHUP blocked, as behind a wrapper that keeps the session). The prompt's read then
/// returns end of input, and livegrid logged in with what had been typed so far, half a password sent to the
/// server. It must end within 2 s with status 1, and the server must see no password at all. A real sshd on
/// 127.0.0.1 accepting passwords, for a real local account (`SystemTestUser`, needs root), as in
/// SFTPPasswordPromptEndToEndTests.
final class VanishedPromptEndToEndTests: RemoteServerTestCase {
    private var sshd: SSHTestServer!
    private var account: SystemTestUser!

    override func setUpWithError() throws {
        try super.setUpWithError()
        _ = try ScriptedPtyTerminal.requirePython()
        account = try SystemTestUser(password: "Tr4in pass-word")
        sshd = try SSHTestServer(directory: root.appendingPathComponent("ssh"), allowPasswords: true)
        for relative in ["", "www", "www/photos"] {
            chmod(root.appendingPathComponent(relative).path, 0o755)
        }
        // Neither root's own ~/.ssh nor a key can log in: only the password (see SFTPPasswordPromptEndToEndTests).
        try """
            Host 127.0.0.1
              UserKnownHostsFile \(sshd.knownHosts)
              IdentityFile \(root.appendingPathComponent("no-such-key").path)
              IdentitiesOnly yes

            """.write(to: root.appendingPathComponent("client_ssh_config"), atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        sshd?.stop()
        account?.remove()
        super.tearDown()
    }

    func testTheTerminalVanishingAtThePasswordPromptSendsNoHalfPassword() throws {
        let binary = try MissingRequirement.livegridBinary()
        let url = "sftp://\(account.name)@127.0.0.1:\(sshd.port)\(root.appendingPathComponent("www/photos").path)/"
        let home = sshd.home
        let outcome = try ScriptedPtyTerminal.run(
            [binary, url], mode: .vanish, term: "xterm-256color", controlling: true,
            waitFor: "Password for \(account.name)@127.0.0.1: ", type: "Tr4in", blockHangup: true,
            environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache",
                          "NETRC": "/dev/null", "LIVEGRID_SSH_CONFIG": root.appendingPathComponent("client_ssh_config").path],
            in: root)
        let context = "\(outcome.secondsToExit) s after the close; its terminal ended with "
            + outcome.outputTail.suffix(300).debugDescription
        XCTAssertTrue(outcome.outputTail.contains("Password for"), "the prompt was shown: \(context)")
        XCTAssertTrue(outcome.exited, "still running 5 s after its terminal vanished (\(context))")
        XCTAssertLessThan(outcome.secondsToExit, 2, context)
        XCTAssertEqual(outcome.status, 1, context)
        let log = sshd.log
        XCTAssertFalse(log.contains("Failed password"), "half a password was sent to the server:\n\(log.suffix(1500))")
    }
}
