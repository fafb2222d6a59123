import Foundation

/// How `sftp://` libraries connect. Every path is a value here (the CLI fills it from the environment), so
/// tests point everything at their own files and never read the real `~/.ssh`.
public struct SSHConfiguration: Sendable {
    /// known_hosts file the host key is checked against. nil: the first existing `UserKnownHostsFile` that
    /// `ssh -G` reports (else `~/.ssh/known_hosts`). A missing file means every host is unknown (refused).
    public var knownHostsFile: String?
    /// The system-wide known_hosts files, read after the user's as ssh does. nil: the `GlobalKnownHostsFile`s
    /// that `ssh -G` reports, else OpenSSH's defaults.
    public var globalKnownHostsFiles: [String]?
    /// Private keys to try, in order. nil: the `IdentityFile`s that `ssh -G` reports, then OpenSSH's defaults.
    public var identityFiles: [String]?
    /// Try the ssh-agent first (libssh2 finds it through `SSH_AUTH_SOCK` of this process).
    public var useAgent = true
    /// Ask OpenSSH for aliases, HostName, User, Port, IdentityFile, UserKnownHostsFile (`ssh -G host`).
    public var resolveWithOpenSSH = true
    /// `ssh -F FILE`: an OpenSSH client configuration instead of `~/.ssh/config` (tests use their own).
    public var openSSHConfigFile: String?
    public var sshBinary = "/usr/bin/ssh"
    /// `SSH_AUTH_SOCK` at launch: libssh2 reads the process's own (the same value); nil means no agent.
    public var agentSocket: String?
    /// Who connects when the URL names no user (`USER` at launch, as `ssh` does); nil: root.
    public var localUser: String?
    /// Expands `~/` in identity and known_hosts paths.
    public var homeDirectory: String = NSHomeDirectory()
    /// Asks the user for a key passphrase or a password (the prompt text is the argument); nil answers
    /// "nobody to ask" (no terminal, tests): such a method is skipped. Called only by `RemoteHTTPClient.prepare`,
    /// before any full-screen UI starts.
    public var askSecret: (@Sendable (String) -> String?)?

    public init() {}

    /// OpenSSH's default identities, in the order `ssh` tries them.
    public static let defaultIdentityNames = ["id_rsa", "id_ecdsa", "id_ed25519", "id_dsa"]

    func expand(_ path: String) -> String {
        path == "~" ? homeDirectory : path.hasPrefix("~/") ? homeDirectory + path.dropFirst(1) : path
    }
}

/// Where and as whom one `sftp://` URL connects, after OpenSSH's configuration was applied.
public struct SSHHostSettings: Sendable, Equatable {
    /// The name (or address) to connect to: an alias's `HostName`.
    public var hostname: String
    public var port: Int
    public var user: String
    public var identityFiles: [String]
    /// The user's known_hosts file that libcurl loads and messages name (the first that exists).
    public var knownHostsFile: String
    /// Every file the host key is checked against, user files first, then the global ones (`KnownHosts`).
    public var knownHostsFiles: [String] = []

    /// OpenSSH's `GlobalKnownHostsFile` default.
    public static let defaultGlobalKnownHostsFiles = ["/etc/ssh/ssh_known_hosts", "/etc/ssh/ssh_known_hosts2"]

    /// Applies `ssh -G` (when allowed) and the explicit settings of `configuration` to `url`'s host, user and
    /// port. The URL's own user and port win over the configuration, as with `ssh -l`/`-p`.
    public static func resolve(_ url: URL, configuration: SSHConfiguration) -> SSHHostSettings {
        let host = url.host ?? ""
        let urlUser = url.user.map { $0.removingPercentEncoding ?? $0 }
        var settings = SSHHostSettings(hostname: host, port: url.port ?? 22,
                                       user: urlUser ?? configuration.localUser ?? "root",
                                       identityFiles: [], knownHostsFile: "")
        var knownHostsCandidates: [String] = []
        var globalKnownHosts = SSHHostSettings.defaultGlobalKnownHostsFiles
        if configuration.resolveWithOpenSSH, let answer = openSSHAnswer(host: host, user: urlUser, port: url.port,
                                                                        configuration: configuration) {
            settings.hostname = answer.first("hostname") ?? host
            if let port = answer.first("port").flatMap(Int.init), url.port == nil { settings.port = port }
            if let user = answer.first("user"), urlUser == nil { settings.user = user }
            settings.identityFiles = answer.all("identityfile").map(configuration.expand)
            knownHostsCandidates = answer.all("userknownhostsfile").map(configuration.expand)
            let globals = answer.all("globalknownhostsfile").map(configuration.expand)
            if !globals.isEmpty { globalKnownHosts = globals }
        }
        if let explicit = configuration.globalKnownHostsFiles { globalKnownHosts = explicit.map(configuration.expand) }
        if let explicit = configuration.identityFiles {
            settings.identityFiles = explicit.map(configuration.expand)
        } else if settings.identityFiles.isEmpty {
            settings.identityFiles = SSHConfiguration.defaultIdentityNames.map { configuration.homeDirectory + "/.ssh/" + $0 }
        }
        if let explicit = configuration.knownHostsFile {
            settings.knownHostsFile = configuration.expand(explicit)
            knownHostsCandidates = [settings.knownHostsFile]
        } else {
            if knownHostsCandidates.isEmpty {
                knownHostsCandidates = ["/.ssh/known_hosts", "/.ssh/known_hosts2"].map { configuration.homeDirectory + $0 }
            }
            settings.knownHostsFile = knownHostsCandidates.first { FileManager.default.fileExists(atPath: $0) }
                ?? knownHostsCandidates[0]
        }
        settings.knownHostsFiles = knownHostsCandidates + globalKnownHosts
        return settings
    }

    /// `ssh -G` output as keyword → values (keywords lower-cased, in order). nil when ssh is missing or fails.
    struct OpenSSHAnswer {
        var values: [(String, String)]
        func first(_ key: String) -> String? { values.first { $0.0 == key }?.1 }
        func all(_ key: String) -> [String] {
            values.filter { $0.0 == key }.flatMap { $0.1.split(separator: " ").map(String.init) }
        }
    }

    static func openSSHAnswer(host: String, user: String?, port: Int?, configuration: SSHConfiguration) -> OpenSSHAnswer? {
        // A host starting with "-" would be read as an option by ssh: never pass one.
        guard !host.isEmpty, !host.hasPrefix("-"), FileManager.default.isExecutableFile(atPath: configuration.sshBinary) else {
            return nil
        }
        var arguments = ["-G"]
        if let file = configuration.openSSHConfigFile { arguments += ["-F", file] }
        if let user, !user.hasPrefix("-") { arguments += ["-l", user] }
        if let port { arguments += ["-p", String(port)] }
        arguments += ["--", host]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: configuration.sshBinary)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return parse(String(decoding: data, as: UTF8.self))
    }

    static func parse(_ text: String) -> OpenSSHAnswer {
        var values: [(String, String)] = []
        for line in text.split(whereSeparator: \.isNewline) {
            guard let space = line.firstIndex(of: " ") else { continue }
            let key = line[..<space].lowercased()
            let value = line[line.index(after: space)...].trimmingCharacters(in: .whitespaces)
            if !value.isEmpty { values.append((key, value)) }
        }
        return OpenSSHAnswer(values: values)
    }
}

/// One way of logging in, tried in the order the issue asks for: agent, key files, password.
public enum SSHAuthMethod: Sendable, Equatable, CustomStringConvertible {
    case agent
    case key(path: String, passphrase: String?)
    case password(String)

    public var description: String {
        switch self {
        case .agent: return "ssh-agent"
        case .key(let path, _): return "key \(path)"
        case .password: return "password"
        }
    }
}

/// Reads whether an OpenSSH or PEM private key is protected by a passphrase, without decrypting anything.
public enum SSHKeyFile {
    /// nil when the file is not a readable private key.
    public static func isEncrypted(_ path: String) -> Bool? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        if text.contains("-----BEGIN OPENSSH PRIVATE KEY-----") {
            // openssh-key-v1\0, then string ciphername ("none" when unencrypted).
            let body = text.components(separatedBy: "\n").filter { !$0.hasPrefix("-----") && !$0.isEmpty }.joined()
            guard let blob = Data(base64Encoded: body), blob.count > 19 else { return nil }
            let bytes = [UInt8](blob)
            let magic = Array("openssh-key-v1".utf8) + [0]
            guard Array(bytes.prefix(magic.count)) == magic else { return nil }
            var offset = magic.count
            guard offset + 4 <= bytes.count else { return nil }
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard length <= 64, offset + length <= bytes.count else { return nil }
            return String(decoding: bytes[offset..<offset + length], as: UTF8.self) != "none"
        }
        if text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED") { return true }
        if text.contains("PRIVATE KEY-----") { return false }
        return nil
    }
}
