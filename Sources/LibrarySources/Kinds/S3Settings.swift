import Foundation

/// Where an S3 library is and how requests to it are signed, read the way the AWS tools read them
/// (`S3Settings.resolve`): the one place that looks at `AWS_*` variables and `~/.aws/{credentials,config}`.
/// The secret is kept in memory only; `description` never shows it.
public struct S3Settings: Sendable, Equatable, CustomStringConvertible {
    /// An S3-compatible endpoint (`https://s3.eu-central-003.backblazeb2.com`): buckets are addressed by path
    /// (`endpoint/bucket/key`). Nil means AWS itself, addressed virtual-hosted (`bucket.s3.REGION.amazonaws.com`).
    public var endpoint: URL?
    public var region = "us-east-1"
    /// Nil signs nothing (`--no-sign-request`, or no credentials anywhere).
    public var credentials: S3Credentials?
    /// Keys asked per ListObjectsV2 page (S3 answers at most 1000); tests make it small to see paging.
    public var pageSize = 1000
    /// Where the credentials came from, for messages ("the profile 'work' in ~/.aws/credentials").
    public var credentialSource = "no credentials"

    public init(endpoint: URL? = nil, region: String = "us-east-1", credentials: S3Credentials? = nil) {
        self.endpoint = endpoint
        self.region = region
        self.credentials = credentials
    }

    public var description: String {
        "S3 \(endpoint?.absoluteString ?? "AWS") \(region), \(credentials.map { "key \($0.accessKey)" } ?? "unsigned")"
    }

    /// Reads the settings as the AWS CLI does: `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`/`AWS_SESSION_TOKEN`
    /// first, else the profile (`AWS_PROFILE`, else `default`) in `AWS_SHARED_CREDENTIALS_FILE` (`[NAME]`) and
    /// `AWS_CONFIG_FILE` (`[profile NAME]`, `[default]`). Region: `AWS_REGION`, `AWS_DEFAULT_REGION`, the
    /// profile's `region`, us-east-1. Endpoint: `endpoint` (the command line), `AWS_ENDPOINT_URL_S3`,
    /// `AWS_ENDPOINT_URL`, the profile's `endpoint_url`. A file that cannot be read counts as empty.
    public static func resolve(environment: [String: String], home: String?, endpoint: String? = nil,
                               profile: String? = nil, region: String? = nil, unsigned: Bool = false) throws -> S3Settings {
        let profileName = profile ?? nonEmpty(environment["AWS_PROFILE"]) ?? nonEmpty(environment["AWS_DEFAULT_PROFILE"]) ?? "default"
        let homeDirectory = home ?? NSHomeDirectory()
        let credentialsPath = nonEmpty(environment["AWS_SHARED_CREDENTIALS_FILE"]) ?? homeDirectory + "/.aws/credentials"
        let configPath = nonEmpty(environment["AWS_CONFIG_FILE"]) ?? homeDirectory + "/.aws/config"
        let credentialFile = AWSConfigFile.read(credentialsPath)
        let configFile = AWSConfigFile.read(configPath)
        let fromCredentials = credentialFile[profileName] ?? [:]
        let fromConfig = configFile[profileName == "default" ? "default" : "profile " + profileName]
            ?? (profileName == "default" ? configFile["profile default"] : nil) ?? [:]
        func profileValue(_ key: String) -> String? { nonEmpty(fromCredentials[key]) ?? nonEmpty(fromConfig[key]) }

        var settings = S3Settings()
        settings.region = nonEmpty(region) ?? nonEmpty(environment["AWS_REGION"]) ?? nonEmpty(environment["AWS_DEFAULT_REGION"])
            ?? profileValue("region") ?? "us-east-1"
        guard settings.region.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw S3SettingsError("the region '\(settings.region)' is not a region name (like eu-west-1)")
        }
        if let text = nonEmpty(endpoint) ?? nonEmpty(environment["AWS_ENDPOINT_URL_S3"]) ?? nonEmpty(environment["AWS_ENDPOINT_URL"])
            ?? profileValue("endpoint_url") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host?.isEmpty == false, url.user == nil else {
                throw S3SettingsError("the S3 endpoint '\(text)' is not an http(s)://host[:port] URL (without a login in it)")
            }
            settings.endpoint = url
        }
        if unsigned {
            settings.credentialSource = "--no-sign-request"
            return settings
        }
        if let key = nonEmpty(environment["AWS_ACCESS_KEY_ID"]), let secret = nonEmpty(environment["AWS_SECRET_ACCESS_KEY"]) {
            settings.credentials = S3Credentials(accessKey: key, secretKey: secret, sessionToken: nonEmpty(environment["AWS_SESSION_TOKEN"]))
            settings.credentialSource = "the environment"
        } else if let key = profileValue("aws_access_key_id"), let secret = profileValue("aws_secret_access_key") {
            settings.credentials = S3Credentials(accessKey: key, secretKey: secret, sessionToken: profileValue("aws_session_token"))
            settings.credentialSource = "profile '\(profileName)'"
        } else if profile != nil || nonEmpty(environment["AWS_PROFILE"]) != nil {
            throw S3SettingsError("the AWS profile '\(profileName)' has no aws_access_key_id and aws_secret_access_key "
                                  + "in \(credentialsPath) or \(configPath)")
        }
        return settings
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }
}

/// An access key and its secret (and a session token for temporary credentials).
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible {
    public var accessKey: String
    public var secretKey: String
    public var sessionToken: String?
    public init(accessKey: String, secretKey: String, sessionToken: String? = nil) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
    }
    public var description: String { "access key \(accessKey)" }
}

/// Settings that cannot be used, in one sentence.
public struct S3SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The INI files of the AWS tools: `[section]` headers, `key = value` lines, `#`/`;` comments. Indented lines
/// (nested `s3 =` blocks) are skipped: livegrid reads only the top-level keys.
enum AWSConfigFile {
    static func read(_ path: String) -> [String: [String: String]] {
        // try?: an absent or unreadable file is as if empty: the AWS tools treat it so too.
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        return parse(text)
    }

    static func parse(_ text: String) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            if rawLine.first == " " || rawLine.first == "\t" { continue }
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                    .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                current = name
                if sections[name] == nil { sections[name] = [:] }
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[current, default: [:]][key] = value
        }
        return sections
    }
}
