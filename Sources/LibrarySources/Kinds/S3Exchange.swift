import Foundation
import LibraryCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One S3 answer whatever its status: S3 explains failures in an XML body (`<Error><Code>`), which the
/// ordinary fetch drops with the status.
struct S3Reply: Sendable {
    var status: Int
    /// Lower-cased names.
    var headers: [String: String]
    var body: [UInt8]
}

enum S3Exchange {
    /// An error document is a few hundred bytes; anything longer is not one.
    static let errorBodyCap = 64 << 10

    /// Runs `request`, keeping at most `maxBytes` of the body (a longer body is cut and the request ended).
    static func perform(_ request: URLRequest, client: RemoteHTTPClient, maxBytes: Int) async throws -> S3Reply {
        let collector = S3ReplyCollector(maxBytes: maxBytes)
        return try await withCheckedThrowingContinuation { continuation in
            client.start(request, bufferSize: RemoteHTTPClient.fetchBufferSize, handler: RemoteTransferHandler(
                onResponse: { collector.begin($0) },
                onData: { collector.append($0) },
                onComplete: { error in
                    if let reply = collector.finish(error) { continuation.resume(returning: reply) }
                    else { continuation.resume(throwing: error ?? RemoteError.invalidResponse("no response")) }
                }))
        }
    }

    /// `perform`, again after a wait while the server throttles (503 SlowDown) or fails briefly (500, 503).
    static func performRetrying(_ request: URLRequest, client: RemoteHTTPClient, maxBytes: Int) async throws -> S3Reply {
        var attempt = 0
        while true {
            let reply = try await perform(request, client: client, maxBytes: maxBytes)
            guard isThrottled(reply), attempt < S3Source.retries else { return reply }
            try await backoff(attempt)
            attempt += 1
        }
    }

    static func isThrottled(_ reply: S3Reply) -> Bool { reply.status == 503 || reply.status == 500 }

    /// 200 ms, 400 ms, 800 ms, 1.6 s: the backoff S3 asks clients for on SlowDown.
    static func backoff(_ attempt: Int) async throws {
        try await Task.sleep(nanoseconds: UInt64(200_000_000) << UInt64(min(attempt, 6)))
    }
}

/// Collects one reply; touched only on the client's worker thread.
// unchecked: filled by curl's callbacks (C) on the worker thread alone.
private final class S3ReplyCollector: @unchecked Sendable {
    let maxBytes: Int
    var status = 0
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    var full = false
    init(maxBytes: Int) { self.maxBytes = maxBytes }

    func begin(_ response: HTTPURLResponse) -> RemoteError? {
        status = response.statusCode
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return nil
    }

    func append(_ data: Data) -> RemoteError? {
        body.append(contentsOf: data.prefix(max(0, maxBytes - body.count)))
        if body.count >= maxBytes { full = true; return .cancelled }
        return nil
    }

    func finish(_ error: RemoteError?) -> S3Reply? {
        guard status > 0, error == nil || (error == .cancelled && full) else { return nil }
        return S3Reply(status: status, headers: headers, body: body)
    }
}

/// The error answer of a whole-object download, kept to say what went wrong.
// unchecked: used only on the client's worker thread (a transfer's callbacks).
final class S3ErrorCollector: @unchecked Sendable {
    private var status = 0
    private var headers: [String: String] = [:]
    private var body: [UInt8] = []
    var isActive: Bool { status != 0 }

    func begin(_ response: HTTPURLResponse) {
        status = response.statusCode
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
    }

    func append(_ data: Data) -> RemoteError? {
        body.append(contentsOf: data.prefix(max(0, S3Exchange.errorBodyCap - body.count)))
        return nil
    }

    var reply: S3Reply? { isActive ? S3Reply(status: status, headers: headers, body: body) : nil }
}

/// S3's error answers in one sentence each, saying what to check. Never the secret: only the access key, the
/// bucket, the endpoint and where the credentials came from.
enum S3Failure {
    static func error(_ reply: S3Reply, address: S3Address, settings: S3Settings) -> RemoteError {
        let document = S3ErrorDocument.parse(reply.body)
        let bucket = "'\(address.bucket)'"
        let endpoint = settings.endpoint?.absoluteString ?? "AWS (\(settings.region))"
        let key = settings.credentials.map { "access key \($0.accessKey) (from \(settings.credentialSource))" }
        guard let document else {
            if reply.status == 404 { return .notFound("s3://\(address.bucket)/\(address.key)") }
            if reply.status == 416 { return .httpStatus(416, url: "s3://\(address.bucket)/\(address.key)") }
            if reply.status == 301 || reply.status == 307, let region = reply.headers["x-amz-bucket-region"] {
                return regionSentence(bucket, region, settings)
            }
            return .service(notS3Sentence(reply, settings: settings), transient: reply.status >= 500)
        }
        switch document.code {
        case "SignatureDoesNotMatch":
            return .service("the S3 server refused the signature: check the secret of \(key ?? "the access key")", transient: false)
        case "InvalidAccessKeyId":
            return .service("the S3 server at \(endpoint) does not know \(key ?? "the access key"): check the key and the endpoint", transient: false)
        case "NoSuchBucket":
            return .service("there is no bucket \(bucket) at \(endpoint): check the bucket's name and the endpoint (--endpoint, AWS_ENDPOINT_URL)", transient: false)
        case "NoSuchKey":
            return .notFound("s3://\(address.bucket)/\(address.key)")
        case "AccessDenied", "AllAccessDisabled", "AccountProblem":
            if let key {
                return .service("the \(key) may not read s3://\(address.bucket)/\(address.key) (AccessDenied): check the bucket's policy or the key's permissions", transient: false)
            }
            return .service("the bucket \(bucket) refuses unsigned requests: give credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE) unless the bucket is public", transient: false)
        case "ExpiredToken", "TokenRefreshRequired":
            return .service("the session token (AWS_SESSION_TOKEN or the profile's aws_session_token) has expired: get new temporary credentials", transient: false)
        case "InvalidToken":
            return .service("the S3 server refused the session token of \(key ?? "the access key"): check AWS_SESSION_TOKEN (or the profile's aws_session_token)", transient: false)
        case "RequestTimeTooSkewed":
            return .service("this computer's clock differs too much from the S3 server's: set the clock right (NTP) and try again", transient: false)
        case "SlowDown", "ServiceUnavailable", "InternalError":
            return .service("the S3 server is busy (\(document.code)) and still was after \(S3Source.retries) retries: try again later", transient: true)
        case "PermanentRedirect", "AuthorizationHeaderMalformed", "IllegalLocationConstraintException":
            if let region = reply.headers["x-amz-bucket-region"] ?? document.region { return regionSentence(bucket, region, settings) }
            return .service("the bucket \(bucket) is served elsewhere (\(document.code)\(document.endpoint.map { ", at \($0)" } ?? "")): check the region (AWS_REGION) and the endpoint", transient: false)
        case "InvalidRange":
            return .httpStatus(416, url: "s3://\(address.bucket)/\(address.key)")
        default:
            let message = document.message.map { ": " + Self.shortened($0) } ?? ""
            return .service("the S3 server refused with \(document.code)\(message)", transient: reply.status >= 500)
        }
    }

    /// The region an answer sends the bucket to, as AWS answers a request signed for the wrong one: 301
    /// PermanentRedirect (with `x-amz-bucket-region`), or 400 AuthorizationHeaderMalformed naming `<Region>`.
    /// nil for any other answer, or a region that is not a plain name.
    static func redirectRegion(_ reply: S3Reply) -> String? {
        guard [301, 307, 400].contains(reply.status) else { return nil }
        let document = S3ErrorDocument.parse(reply.body)
        let codes: Set<String> = ["PermanentRedirect", "TemporaryRedirect", "AuthorizationHeaderMalformed", "IllegalLocationConstraintException"]
        if let document { guard codes.contains(document.code) else { return nil } } else if reply.status == 400 { return nil }
        guard let region = reply.headers["x-amz-bucket-region"] ?? document?.region, !region.isEmpty, region.count <= 32,
              region.unicodeScalars.allSatisfy({ CharacterSet.lowercaseLetters.contains($0) || CharacterSet.decimalDigits.contains($0) || $0 == "-" }),
              region.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        return region
    }

    static func regionSentence(_ bucket: String, _ region: String, _ settings: S3Settings) -> RemoteError {
        .service("the bucket \(bucket) is in the region \(shortened(region)), not \(settings.region): set AWS_REGION=\(shortened(region))", transient: false)
    }

    static func notS3Sentence(_ reply: S3Reply, settings: S3Settings) -> String {
        let endpoint = settings.endpoint?.absoluteString ?? "AWS"
        let head = String(decoding: reply.body.prefix(512), as: UTF8.self).lowercased()
        let what = head.contains("<html") || head.contains("<!doctype") ? "a web page" : "something else"
        return "\(endpoint) answered HTTP \(reply.status) with \(what), not S3's XML: check the endpoint (--endpoint, AWS_ENDPOINT_URL)"
    }

    /// A server's words, kept short and printable (a hostile server's message must not act on the terminal).
    static func shortened(_ text: String) -> String {
        String(text.unicodeScalars.filter { !RemoteEntryValidator.isControl($0) }.prefix(160).map(Character.init))
    }
}
