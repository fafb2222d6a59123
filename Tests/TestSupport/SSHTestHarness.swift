import Foundation
import XCTest

/// A real OpenSSH server on 127.0.0.1 for the `sftp://` tests: its own host key, one authorized client key,
/// internal-sftp, no passwords; and client-side files (known_hosts, an `ssh -F` configuration with the alias
/// `testhost`) so the code under test never reads the real `~/.ssh`. Nothing outside `directory` changes
/// except `/run/sshd` (sshd's privilege-separation directory, created when missing).
public final class SSHTestServer {
    public static let sshdBinary = "/usr/sbin/sshd"
    public static let alias = "testhost"

    public let port: Int
    /// Server and client files (keys, configs, known_hosts, log).
    public let directory: URL
    /// `ssh-ed25519 AAAA…` of the server.
    public let hostPublicKey: String
    /// The authorized client key (private key path; `.pub` beside it).
    public let clientKey: String
    /// known_hosts with the server's key for `[127.0.0.1]:port`.
    public let knownHosts: String
    /// An empty home directory for the client side (`HOME` of livegrid in end-to-end tests).
    public let home: String
    public let user: String
    private let process = Process()

    /// Fails (CI=true) or skips the calling test when sshd is not installed.
    public static func requireSSHD() throws {
        guard FileManager.default.isExecutableFile(atPath: sshdBinary) else {
            throw MissingRequirement.tool("sshd is not installed (apt-get install openssh-server): skipping the sftp:// tests")
        }
    }

    public struct MissingTool: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// A server in `directory`; keys already there are kept, so `port` and the same directory bring "the same
    /// server" back after `stop()`.
    public convenience init(restartingOn port: Int, directory: URL) throws {
        try self.init(directory: directory, port: port)
    }

    /// `allowPasswords`: PasswordAuthentication yes (for a `SystemTestUser`; keys still work).
    public init(directory: URL, port fixedPort: Int? = nil, allowPasswords: Bool = false) throws {
        try Self.requireSSHD()
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        home = directory.appendingPathComponent("home").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        user = NSUserName()
        let hostKey = directory.appendingPathComponent("host_ed25519").path
        clientKey = directory.appendingPathComponent("client_ed25519").path
        try Self.keygen(hostKey)
        try Self.keygen(clientKey)
        hostPublicKey = try Self.publicKey(hostKey)
        let authorized = directory.appendingPathComponent("authorized_keys").path
        try (try Self.publicKey(clientKey) + "\n").write(toFile: authorized, atomically: true, encoding: .utf8)
        port = try fixedPort ?? RemoteTestHarness.freePort()
        knownHosts = directory.appendingPathComponent("known_hosts").path
        try "[127.0.0.1]:\(port) \(hostPublicKey)\n".write(toFile: knownHosts, atomically: true, encoding: .utf8)

        let config = directory.appendingPathComponent("sshd_config").path
        try """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(hostKey)
            AuthorizedKeysFile \(authorized)
            PasswordAuthentication \(allowPasswords ? "yes" : "no")
            KbdInteractiveAuthentication no
            PubkeyAuthentication yes
            StrictModes no
            UsePAM no
            PidFile \(directory.path)/sshd.pid
            Subsystem sftp internal-sftp
            MaxStartups 30:30:60
            LogLevel VERBOSE

            """.write(toFile: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-s", "KILL", "300", Self.sshdBinary, "-f", config, "-D", "-E", directory.path + "/sshd.log"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // Ready when the port accepts connections (sshd binds before it serves).
        let deadline = Date().addingTimeInterval(10)
        while !RemoteTestHarness.isListening(port) {
            guard Date() < deadline, process.isRunning else {
                let log = (try? String(contentsOfFile: directory.path + "/sshd.log", encoding: .utf8)) ?? ""
                stop()
                throw MissingTool(message: "sshd did not start on 127.0.0.1:\(port): \(log)")
            }
            usleep(20_000)
        }
    }

    deinit { stop() }

    /// Kills sshd and every connection it serves (they share `timeout`'s process group), as a crash would.
    public func stop() {
        guard process.isRunning else { return }
        let group = process.processIdentifier
        if getpgid(group) == group { kill(-group, SIGKILL) }
        kill(group, SIGKILL)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let until = Date().addingTimeInterval(5)
        while RemoteTestHarness.isListening(port) && Date() < until { usleep(20_000) }
    }

    /// An OpenSSH client configuration (for `ssh -F`) naming this server `testhost`, with the given
    /// known_hosts and identity (the good ones by default).
    /// `port` sends the client elsewhere (a `ThrottlingProxy` in front of this server); its known_hosts entry
    /// is then written for that port.
    public func clientConfig(named name: String = "ssh_config", knownHosts: String? = nil, identity: String? = nil,
                             port viaPort: Int? = nil) throws -> String {
        let path = directory.appendingPathComponent(name).path
        var knownHosts = knownHosts
        if let viaPort, knownHosts == nil {
            let file = directory.appendingPathComponent("known_hosts_\(viaPort)").path
            try "[127.0.0.1]:\(viaPort) \(hostPublicKey)\n".write(toFile: file, atomically: true, encoding: .utf8)
            knownHosts = file
        }
        try """
            Host \(Self.alias)
              HostName 127.0.0.1
              Port \(viaPort ?? port)
              User \(user)
              IdentityFile \(identity ?? clientKey)
              UserKnownHostsFile \(knownHosts ?? self.knownHosts)
              IdentitiesOnly yes

            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A known_hosts file with another (fresh) key for this server's address: a "changed" host key.
    public func changedKnownHosts() throws -> String {
        let other = directory.appendingPathComponent("other_host_key").path
        try Self.keygen(other)
        let path = directory.appendingPathComponent("known_hosts_changed").path
        try "[127.0.0.1]:\(port) \(try Self.publicKey(other))\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A new key the server accepts (`passphrase` protects it); returns its path.
    public func authorizedKey(named name: String, passphrase: String = "") throws -> String {
        let path = directory.appendingPathComponent(name).path
        if !FileManager.default.fileExists(atPath: path) {
            let result = try ExternalTool.runProgram("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", passphrase, "-C", name, "-f", path])
            guard result.status == 0 else { throw MissingTool(message: "ssh-keygen failed: \(result.err)") }
        }
        let authorized = directory.appendingPathComponent("authorized_keys")
        let handle = try FileHandle(forWritingTo: authorized)
        handle.seekToEndOfFile()
        handle.write(Data((try Self.publicKey(path) + "\n").utf8))
        try handle.close()
        return path
    }

    /// A key the server does not know.
    public func strangerKey() throws -> String {
        let path = directory.appendingPathComponent("stranger_ed25519").path
        try Self.keygen(path)
        return path
    }

    /// `sftp://testhost/<absolute path>/`.
    public func url(_ absolutePath: String) -> String {
        "sftp://\(Self.alias)\(absolutePath.hasSuffix("/") ? absolutePath : absolutePath + "/")"
    }

    public var log: String { (try? String(contentsOfFile: directory.path + "/sshd.log", encoding: .utf8)) ?? "" }

    static func keygen(_ path: String) throws {
        if FileManager.default.fileExists(atPath: path) { return }
        let result = try ExternalTool.runProgram("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "livegrid-test", "-f", path])
        guard result.status == 0 else { throw MissingTool(message: "ssh-keygen failed: \(result.err)") }
    }

    static func publicKey(_ privateKey: String) throws -> String {
        let text = try String(contentsOfFile: privateKey + ".pub", encoding: .utf8)
        return text.split(separator: " ").prefix(2).joined(separator: " ")
    }
}

/// A TCP relay on 127.0.0.1 that passes the server's bytes to the client at `bytesPerSecond` (a slow link in
/// front of sshd: libcurl cannot throttle SFTP itself). `stop()` cuts every connection, as a dropped link would.
public final class ThrottlingProxy {
    public let port: Int
    private let server: RemoteTestHarness.Server

    public init(on fixedPort: Int? = nil, to targetPort: Int, bytesPerSecond: Int, directory: URL) throws {
        port = try fixedPort ?? RemoteTestHarness.freePort()
        let script = directory.appendingPathComponent("throttle.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        server = try RemoteTestHarness.Server(port: port, directory: directory,
                                              arguments: [try RemoteTestHarness.python(), script.path, String(port),
                                                          String(targetPort), String(bytesPerSecond)],
                                              workingDirectory: directory)
    }

    public func stop() { server.stop() }
    deinit { stop() }

    static let script = #"""
    import socket, sys, threading, time
    listen_port, target_port, rate = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    def pump(src, dst, limit):
        try:
            while True:
                data = src.recv(4096 if limit else 65536)
                if not data:
                    break
                dst.sendall(data)
                if limit:
                    time.sleep(len(data) / limit)
        except OSError:
            pass
        for s in (src, dst):
            try: s.shutdown(socket.SHUT_RDWR)
            except OSError: pass
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", listen_port))
    server.listen(64)
    while True:
        client, _ = server.accept()
        upstream = socket.create_connection(("127.0.0.1", target_port))
        threading.Thread(target=pump, args=(client, upstream, 0), daemon=True).start()
        threading.Thread(target=pump, args=(upstream, client, rate), daemon=True).start()
    """#
}

/// A TCP relay on 127.0.0.1 that counts the bytes it passes (the bytes a client really receives, SSH framing,
/// key exchange and SFTP read-ahead included). The counts are rewritten to a file after every piece.
public final class ByteCountingProxy {
    public let port: Int
    private let server: RemoteTestHarness.Server
    private let countFile: URL

    public init(to targetPort: Int, directory: URL) throws {
        port = try RemoteTestHarness.freePort()
        let script = directory.appendingPathComponent("count-relay.py")
        countFile = directory.appendingPathComponent("count-relay-\(port).txt")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        server = try RemoteTestHarness.Server(port: port, directory: directory,
                                              arguments: [try RemoteTestHarness.python(), script.path, String(port),
                                                          String(targetPort), countFile.path],
                                              workingDirectory: directory)
    }

    /// (bytes server → client, bytes client → server, connections still open).
    public var counts: (toClient: Int, toServer: Int, open: Int) {
        let fields = ((try? String(contentsOf: countFile, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int($0) }
        return fields.count == 3 ? (fields[0], fields[1], fields[2]) : (0, 0, 0)
    }

    public func stop() { server.stop() }
    deinit { stop() }

    static let script = #"""
    import os, socket, sys, threading
    listen_port, target_port, count_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    lock = threading.Lock()
    state = {"down": 0, "up": 0, "open": 0}
    def save():
        with open(count_file + ".tmp", "w") as f:
            f.write("%d %d %d" % (state["down"], state["up"], state["open"]))
        os.replace(count_file + ".tmp", count_file)
    def pump(src, dst, key, closer):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
                with lock:
                    state[key] += len(data)
                    save()
        except OSError:
            pass
        for s in (src, dst):
            try: s.shutdown(socket.SHUT_RDWR)
            except OSError: pass
        if closer:
            with lock:
                state["open"] -= 1
                save()
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", listen_port))
    server.listen(64)
    with lock:
        save()
    while True:
        client, _ = server.accept()
        upstream = socket.create_connection(("127.0.0.1", target_port))
        with lock:
            state["open"] += 1
            save()
        threading.Thread(target=pump, args=(client, upstream, "up", False), daemon=True).start()
        threading.Thread(target=pump, args=(upstream, client, "down", True), daemon=True).start()
    """#
}

/// A real local account with a known password, for logging in to `SSHTestServer(allowPasswords: true)` (sshd
/// checks /etc/shadow itself with UsePAM no). Needs root; created if missing (a crashed earlier run may have
/// left it: its password is set again), deleted by `remove()`.
public final class SystemTestUser {
    public let name: String
    public let password: String

    public init(name: String = "livegrid-pwtest", password: String) throws {
        self.name = name
        self.password = password
        guard getuid() == 0 else {
            throw SSHTestServer.MissingTool(message: "creating the test account \(name) needs root (useradd, chpasswd)")
        }
        if getpwnam(name) == nil {
            let added = try ExternalTool.runProgram("/usr/sbin/useradd", ["-M", "-d", "/nonexistent", "-s", "/bin/sh", name])
            guard added.status == 0 else { throw SSHTestServer.MissingTool(message: "useradd \(name) failed: \(added.err)") }
        }
        let script = "echo '\(name):\(password)' | /usr/sbin/chpasswd"
        let set = try ExternalTool.runProgram("/bin/sh", ["-c", script])
        guard set.status == 0 else { throw SSHTestServer.MissingTool(message: "chpasswd \(name) failed: \(set.err)") }
    }

    public func remove() {
        if getpwnam(name) != nil { _ = try? ExternalTool.runProgram("/usr/sbin/userdel", [name]) }
    }
}
