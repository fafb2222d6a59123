import Foundation

/// How requests to one host are signed by libcurl itself (`CURLOPT_AWS_SIGV4`): what an S3 kind registers
/// for its endpoint (`RemoteHTTPClient.sign(host:port:with:)`) before making requests, as Basic credentials
/// are remembered per host. The secret stays in memory and goes only to libcurl; `description` never shows it.
public struct RemoteSigning: Sendable, Equatable, CustomStringConvertible {
    /// libcurl's provider string, e.g. `aws:amz:us-east-1:s3`.
    public var provider: String
    public var accessKey: String
    public var secretKey: String

    public init(provider: String, accessKey: String, secretKey: String) {
        self.provider = provider
        self.accessKey = accessKey
        self.secretKey = secretKey
    }

    public var description: String { "SigV4 \(provider) as \(accessKey)" }
}
