import Foundation

/// `~/.netrc` credentials (`machine host login user password secret`, `default`, `macdef` skipped).
/// Parsed here because FoundationNetworking does not read it and curl's reader is not reachable from Swift.
public struct Netrc: Sendable, Equatable {
    public struct Credentials: Sendable, Equatable {
        public var login: String
        public var password: String
        public init(login: String, password: String) {
            self.login = login
            self.password = password
        }
    }
    public var machines: [String: Credentials] = [:]
    public var fallback: Credentials?

    public init(machines: [String: Credentials] = [:], fallback: Credentials? = nil) {
        self.machines = machines
        self.fallback = fallback
    }

    /// Credentials for `host` (case-insensitive), else the `default` entry.
    public func credentials(forHost host: String) -> Credentials? {
        machines[host.lowercased()] ?? fallback
    }

    /// Parses netrc text. Tokens are whitespace-separated; quoted tokens ("a b") are accepted as curl does.
    public static func parse(_ text: String) -> Netrc {
        let tokens = tokenize(text)
        var result = Netrc()
        var i = 0
        var machine: String?
        var isDefault = false
        var login: String?
        var password: String?

        func flush() {
            if let login, let password {
                let creds = Credentials(login: login, password: password)
                if isDefault { result.fallback = creds }
                else if let machine, result.machines[machine] == nil { result.machines[machine] = creds }
            }
            machine = nil; isDefault = false; login = nil; password = nil
        }

        while i < tokens.count {
            let token = tokens[i]
            switch token {
            case "machine":
                flush()
                machine = i + 1 < tokens.count ? tokens[i + 1].lowercased() : nil
                i += 2
            case "default":
                flush()
                isDefault = true
                i += 1
            case "login":
                login = i + 1 < tokens.count ? tokens[i + 1] : nil
                i += 2
            case "password":
                password = i + 1 < tokens.count ? tokens[i + 1] : nil
                i += 2
            case "account":
                i += 2
            case "macdef":
                // A macro runs to the next blank line; its body is not tokens.
                flush()
                i = tokens.count  // simple and safe: macros come last in practice
            default:
                i += 1
            }
        }
        flush()
        return result
    }

    /// `$NETRC` or `~/.netrc`, or an empty set when unreadable.
    public static func load(environment: [String: String]) -> Netrc {
        let path = environment["NETRC"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.netrc")
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else { return Netrc() }
        return parse(String(decoding: data, as: UTF8.self))
    }

    /// Whitespace-separated tokens; `"quoted tokens"` with backslash escapes; lines starting with `#` are comments.
    private static func tokenize(_ text: String) -> [String] {
        var tokens: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") { continue }
            var current = ""
            var hasToken = false
            var inQuotes = false
            var escaped = false
            for ch in line {
                if escaped { current.append(ch); escaped = false; continue }
                if inQuotes {
                    if ch == "\\" { escaped = true } else if ch == "\"" { inQuotes = false } else { current.append(ch) }
                    continue
                }
                if ch == "\"" { inQuotes = true; hasToken = true; continue }
                if ch.isWhitespace {
                    if hasToken { tokens.append(current) }
                    current = ""; hasToken = false
                } else {
                    current.append(ch); hasToken = true
                }
            }
            if hasToken { tokens.append(current) }
        }
        return tokens
    }
}
