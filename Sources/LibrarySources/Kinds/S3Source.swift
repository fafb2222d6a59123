import Concurrent
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
import LibraryCore
#endif

/// A bucket (or a prefix in it) of S3-compatible object storage: `s3://BUCKET/PREFIX/`. Listed with
/// ListObjectsV2 (`delimiter=/`, so prefixes are folders), read with ranged `GET`s, signed by libcurl itself
/// (`CURLOPT_AWS_SIGV4`, registered per endpoint host through `RemoteHTTPClient.sign`). Where it is and how it
/// signs are the client's `S3Settings` (endpoint, region, credentials). Read-only: livegrid writes nothing
/// to a bucket.
public struct S3Source: LibrarySource {
    /// The wire is HTTPS towards AWS; an endpoint given as `http://` (a local SeaweedFS) is HTTP on the wire
    /// (the request is built here, from the endpoint, whatever this says).
    public static let schemes: [String: RemoteWire] = ["s3": .https]
    public static let capabilities = LibrarySourceCapabilities(pairsOnServer: false, servesThumbnails: false,
                                                               writable: false, suffixRanges: true)
    /// SHA-256 of an empty body: what every request here carries (GETs have no body). Sent explicitly as
    /// `x-amz-content-sha256`, which some servers require and libcurl 7.88 does not add (FIELD-NOTES).
    static let emptyBodyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// Retries of a throttled or briefly failing request (503 SlowDown, 500), with doubling waits from 200 ms.
    static let retries = 4

    let client: RemoteHTTPClient
    var settings: S3Settings { client.configuration.s3 }
    public init(client: RemoteHTTPClient) { self.client = client }

    // MARK: verbs

    /// Pages of ListObjectsV2 (continuation tokens) until the listing ends or `maxEntries` are kept; the listing
    /// is then `truncated`. `maxBytes` bounds each page. Keys come URL-encoded (`encoding-type=url`: an XML body cannot carry every key).
    public func list(_ directory: URL, maxEntries: Int, maxBytes: Int) async throws -> RemoteListing {
        try await list(directory, maxEntries: maxEntries, maxBytes: maxBytes, pages: nil)
    }

    /// As `list`, with the entries so far handed to `pages` after every page but the last (the browser shows
    /// them while the next page is fetched). A cancelled task stops between pages.
    public func list(_ directory: URL, maxEntries: Int, maxBytes: Int, pages: RemoteListingPages?) async throws -> RemoteListing {
        let directory = RemoteEntryValidator.directoryURL(directory)
        let address = try S3Address(directory)
        let prefix = address.key
        var listing = RemoteListing(baseURL: directory, format: .s3)
        try await walk(address, delimited: true, maxBytes: maxBytes) { page, more in
            for object in page.objects {
                guard object.key.hasPrefix(prefix) else { continue }
                let rest = String(object.key.dropFirst(prefix.count))
                if rest.isEmpty { continue }   // the "folder" object a console makes for the prefix itself
                add(rest, isDirectory: false, object: object, to: &listing, in: directory)
                if listing.entries.count > maxEntries { listing.entries.removeLast(); listing.truncated = true; return false }
            }
            for folder in page.prefixes where folder.hasPrefix(prefix) {
                var rest = String(folder.dropFirst(prefix.count))
                if rest.hasSuffix("/") { rest.removeLast() }
                if rest.isEmpty { continue }
                add(rest, isDirectory: true, object: nil, to: &listing, in: directory)
                if listing.entries.count > maxEntries { listing.entries.removeLast(); listing.truncated = true; return false }
            }
            if more {
                try Task.checkCancellation()
                pages?(listing)
            }
            return true
        }
        return listing
    }

    /// The whole tree below the prefix in one ListObjectsV2 walk without `delimiter` (a bucket has no folders to
    /// descend: a key's slashes are its folders), its objects grouped by relative folder, `maxEntries` counted
    /// over all of them. Keys with a folder name livegrid refuses are rejected whole, in the folder above it.
    public func listTree(_ directory: URL, maxEntries: Int, maxBytes: Int) async throws -> RemoteListingTree? {
        let directory = RemoteEntryValidator.directoryURL(directory)
        let address = try S3Address(directory)
        let prefix = address.key
        var tree = RemoteListingTree(root: RemoteListing(baseURL: directory, format: .s3))
        var kept = 0
        try await walk(address, delimited: false, maxBytes: maxBytes) { page, _ in
            for object in page.objects where object.key.hasPrefix(prefix) {
                var parts = object.key.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                guard let name = parts.popLast(), !name.isEmpty else { continue }   // a console's "folder" object
                guard parts.count <= RemoteListingTree.maxDepth else { continue }
                guard let folder = tree.folder(parts, format: .s3) else {
                    tree.folders[0].listing.rejected.append(RejectedRemoteEntry(
                        raw: parts.joined(separator: "/"), reason: "unusable folder name"))
                    continue
                }
                let before = tree.folders[folder].listing.entries.count
                add(name, isDirectory: false, object: object, to: &tree.folders[folder].listing,
                    in: tree.folders[folder].listing.baseURL)
                kept += tree.folders[folder].listing.entries.count - before
                if kept > maxEntries {
                    tree.folders[folder].listing.entries.removeLast()
                    tree.truncated = true
                    return false
                }
            }
            try Task.checkCancellation()
            return true
        }
        return tree
    }

    /// Pages of ListObjectsV2 below `address` (with `delimiter=/` when `delimited`) handed to `onPage` with
    /// whether more follow, until the listing ends or `onPage` says stop.
    private func walk(_ address: S3Address, delimited: Bool, maxBytes: Int,
                      onPage: (S3ListPage, _ more: Bool) throws -> Bool) async throws {
        var token: String?
        repeat {
            var query = [("encoding-type", "url"), ("list-type", "2"),
                         ("max-keys", String(max(1, min(settings.pageSize, 1000)))), ("prefix", address.key)]
            if delimited { query.append(("delimiter", "/")) }
            if let token { query.append(("continuation-token", token)) }
            let request = try signedRequest(address.bucket, key: "", query: query, method: "GET", range: nil)
            // The byte cap is per page: a page is parsed and dropped before the next, so memory is the entries
            // kept (capped by maxEntries); a whole-listing cap would cut a 200,000-key prefix (~42 MB of XML)
            // below max_entries and say so wrongly.
            var reply = try await S3Exchange.performRetrying(request, client: client, maxBytes: max(1, maxBytes))
            if learnRegion(from: reply, bucket: address.bucket) {
                // Signed again for the bucket's own region, once (the region is kept for every later request).
                let again = try signedRequest(address.bucket, key: "", query: query, method: "GET", range: nil)
                reply = try await S3Exchange.performRetrying(again, client: client, maxBytes: max(1, maxBytes))
            }
            guard reply.status == 200 else {
                // A listing always answers XML on S3: anything else is another kind of server.
                throw S3ErrorDocument.parse(reply.body) == nil ? notS3(reply) : failure(reply, address: address)
            }
            guard reply.body.count < maxBytes else {
                throw RemoteError.invalidResponse("a listing page of more than \(maxBytes) bytes")
            }
            guard let page = S3ListPage.parse(reply.body) else { throw notS3(reply) }
            token = page.isTruncated ? page.nextToken : nil
            guard try onPage(page, token != nil) else { return }
        } while token != nil
    }

    public func fetch(_ file: URL, range: RemoteFetchRange?, maxBytes: Int) async throws -> RemoteResponse {
        let address = try S3Address(file)
        var attempt = 0
        var redirected = false
        while true {
            do {
                var response = try await client.fetch(file, range: range, maxBytes: maxBytes)
                response.url = file
                return response
            } catch RemoteError.httpStatus(let code, _) {
                // The error's XML was cut off by the fetch: ask once more for it, to say what went wrong.
                let request = try self.request(for: file, method: "GET", range: range)
                let reply = try await S3Exchange.perform(request, client: client, maxBytes: S3Exchange.errorBodyCap)
                if (200..<300).contains(reply.status) { throw RemoteError.httpStatus(code, url: file.absoluteString) }
                if !redirected, learnRegion(from: reply, bucket: address.bucket) {
                    redirected = true
                    continue
                }
                let error = failure(reply, address: address)
                guard S3Exchange.isThrottled(reply), attempt < Self.retries else { throw error }
                try await S3Exchange.backoff(attempt)
                attempt += 1
            }
        }
    }

    /// The whole object; an error answer becomes its sentence (the download shows it) instead of "HTTP 403".
    /// A redirect to the bucket's region (301 PermanentRedirect, 400 AuthorizationHeaderMalformed) is followed
    /// once, as the listing and the ranged reads follow it: the region is learnt for the bucket and the
    /// download starts again, signed for it, before `handler` has seen anything of the refused answer.
    public func fetchWhole(_ file: URL, from offset: UInt64, validator: String?, handler: RemoteTransferHandler) throws
        -> any LibraryTransfer {
        let transfer = S3WholeTransfer()
        try startWhole(file, from: offset, validator: validator, handler: handler, transfer: transfer, redirected: false)
        return transfer
    }

    private func startWhole(_ file: URL, from offset: UInt64, validator: String?, handler: RemoteTransferHandler,
                            transfer: S3WholeTransfer, redirected: Bool) throws {
        let address = try S3Address(file)
        let failing = S3ErrorCollector()
        let settings = self.settings
        let wrapped = RemoteTransferHandler(
            onResponse: { response in
                if response.statusCode >= 300 {
                    failing.begin(response)
                    return nil
                }
                return handler.onResponse(response)
            },
            onData: { data in failing.isActive ? failing.append(data) : handler.onData(data) },
            onComplete: { error in
                guard let reply = failing.reply else { return handler.onComplete(error) }
                if !redirected, !transfer.isCancelled, learnRegion(from: reply, bucket: address.bucket) {
                    // Started anew off the transfer's own completion (the client's worker thread).
                    Task.detached {
                        do {
                            try startWhole(file, from: offset, validator: validator, handler: handler, transfer: transfer,
                                           redirected: true)
                        } catch let error as RemoteError {
                            handler.onComplete(error)
                        } catch {
                            handler.onComplete(.invalidResponse(String(describing: error)))
                        }
                    }
                    return
                }
                handler.onComplete(S3Failure.error(reply, address: address, settings: settings))
            })
        transfer.run(try client.startWhole(file, from: offset, validator: validator, handler: wrapped))
    }

    /// `s3://bucket/key` → a signed `GET` of the object on the endpoint (or AWS).
    public func request(for url: URL, method: String, range: RemoteFetchRange?) throws -> URLRequest {
        let address = try S3Address(url)
        return try signedRequest(address.bucket, key: address.key, query: [], method: method, range: range)
    }

    // MARK: requests

    /// The request with what SigV4 needs: the query sorted and strictly percent-encoded (libcurl 7.88 signs the
    /// query as written, and SeaweedFS rejects `prefix=2024/`), `x-amz-content-sha256`, the session token;
    /// the endpoint's host registered for libcurl's signing. Without credentials nothing is signed.
    func signedRequest(_ bucket: String, key: String, query: [(String, String)], method: String,
                       range: RemoteFetchRange?) throws -> URLRequest {
        var settings = self.settings
        settings.region = region(of: bucket)
        guard let wire = S3Address.wireURL(bucket: bucket, key: key, query: query, settings: settings), let host = wire.host else {
            throw RemoteError.unsupportedURL("s3://\(bucket)/\(key)")
        }
        var request = URLRequest(url: wire)
        request.httpMethod = method
        request.setValue(client.configuration.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        request.setValue(Self.emptyBodyHash, forHTTPHeaderField: "x-amz-content-sha256")
        if let range { request.setValue(range.headerValue, forHTTPHeaderField: "Range") }
        if let credentials = settings.credentials {
            if let token = credentials.sessionToken { request.setValue(token, forHTTPHeaderField: "x-amz-security-token") }
            // Registered for the bucket's own path on a path-style endpoint: two buckets of different regions
            // behind one endpoint, read at the same moment, each keep their region.
            client.sign(host: host, port: wire.port ?? (wire.scheme == "https" ? 443 : 80),
                        pathPrefix: S3Address.pathStylePrefix(bucket: bucket, settings: settings) ?? "",
                        with: RemoteSigning(provider: "aws:amz:\(settings.region):s3", accessKey: credentials.accessKey,
                                            secretKey: credentials.secretKey))
        }
        return request
    }

    // MARK: regions

    /// Buckets' regions learned from the server's redirects (AWS answers a request signed for another region
    /// with 301 PermanentRedirect or 400 AuthorizationHeaderMalformed naming the right one), by endpoint and
    /// bucket: the process follows a redirect once, then signs for the bucket's region from the start.
    static let learnedRegions = Locked<[String: String]>([:])

    private func regionKey(_ bucket: String) -> String { (settings.endpoint?.absoluteString ?? "aws") + " " + bucket }

    /// The region requests for `bucket` are signed for: the one learned, else the configured one.
    func region(of bucket: String) -> String {
        Self.learnedRegions.withLockedValue { $0[regionKey(bucket)] } ?? settings.region
    }

    /// Keeps the region `reply` redirects `bucket` to; true when that changes the region (the request is worth
    /// signing again), false for any other answer or the region already used.
    private func learnRegion(from reply: S3Reply, bucket: String) -> Bool {
        guard let region = S3Failure.redirectRegion(reply), region != self.region(of: bucket) else { return false }
        let key = regionKey(bucket)
        Self.learnedRegions.withLockedValue { $0[key] = region }
        return true
    }

    private func add(_ name: String, isDirectory: Bool, object: S3ListPage.Object?, to listing: inout RemoteListing, in directory: URL) {
        switch RemoteEntryValidator.checkName(decoded: name) {
        case .failure(let problem):
            listing.rejected.append(RejectedRemoteEntry(raw: name, reason: problem.message))
        case .success(let checked):
            guard let url = RemoteEntryValidator.url(forName: checked, isDirectory: isDirectory, in: directory) else { return }
            listing.append(RemoteEntry(name: checked, url: url, isDirectory: isDirectory, size: object?.size,
                                       modificationTime: object?.lastModified, etag: object?.etag))
        }
    }

    private func failure(_ reply: S3Reply, address: S3Address) -> RemoteError {
        S3Failure.error(reply, address: address, settings: settings)
    }

    private func notS3(_ reply: S3Reply) -> RemoteError {
        .service(S3Failure.notS3Sentence(reply, settings: settings), transient: false)
    }
}

/// A bucket and a key, from `s3://bucket/key` (the key decoded).
struct S3Address: Sendable, Equatable {
    var bucket: String
    var key: String

    init(bucket: String, key: String) {
        self.bucket = bucket
        self.key = key
    }

    init(_ url: URL) throws {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: true), let bucket = parts.host, !bucket.isEmpty else {
            throw RemoteError.unsupportedURL(url.absoluteString)
        }
        guard parts.user == nil, parts.password == nil else {
            throw RemoteError.service("an s3:// URL takes no login: give keys as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY "
                                      + "or a profile (AWS_PROFILE)", transient: false)
        }
        self.bucket = bucket
        let path = parts.percentEncodedPath
        key = String((path.removingPercentEncoding ?? path).drop(while: { $0 == "/" }))
    }

    /// RFC 3986 unreserved characters stay; every other byte is `%XX` (upper case), as SigV4 encodes.
    static func encode(_ text: String, keepingSlash: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlash:
                out.append("/")
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// The percent-encoded path every request for `bucket` starts with when it is addressed path-style
    /// (`/BASE/bucket/`); nil when the host itself names the bucket (virtual-hosted).
    static func pathStylePrefix(bucket: String, settings: S3Settings) -> String? {
        guard settings.endpoint != nil || bucket.contains("."),
              let wire = wireURL(bucket: bucket, key: "", query: [], settings: settings),
              let path = URLComponents(url: wire, resolvingAgainstBaseURL: true)?.percentEncodedPath,
              path.hasSuffix("/") else { return nil }
        return path
    }

    /// Path-style below an endpoint (`endpoint/bucket/key`); virtual-hosted on AWS (`bucket.s3.REGION.amazonaws.com/key`),
    /// except bucket names with dots, which AWS's certificate does not cover as a host (path-style there too).
    static func wireURL(bucket: String, key: String, query: [(String, String)], settings: S3Settings) -> URL? {
        var parts: URLComponents
        var path: String
        if let endpoint = settings.endpoint, let base = URLComponents(url: endpoint, resolvingAgainstBaseURL: true) {
            parts = base
            var basePath = base.percentEncodedPath
            while basePath.hasSuffix("/") { basePath.removeLast() }
            path = basePath + "/" + encode(bucket, keepingSlash: false) + "/"
        } else {
            parts = URLComponents()
            parts.scheme = "https"
            let regional = "s3.\(settings.region).amazonaws.com"
            if bucket.contains(".") {
                parts.host = regional
                path = "/" + encode(bucket, keepingSlash: false) + "/"
            } else {
                parts.host = bucket.lowercased() + "." + regional
                path = "/"
            }
        }
        parts.percentEncodedPath = path + encode(key, keepingSlash: true)
        parts.percentEncodedQuery = query.isEmpty ? nil
            : query.sorted { $0.0 < $1.0 }.map { encode($0.0, keepingSlash: false) + "=" + encode($0.1, keepingSlash: false) }
                .joined(separator: "&")
        parts.fragment = nil
        return parts.url
    }
}

/// A whole-object download that may be started again (once, after a region redirect): `cancel` reaches
/// whichever request runs, and one started after a cancel is cancelled at once.
final class S3WholeTransfer: LibraryTransfer {
    private let state = Locked<(current: (any LibraryTransfer)?, cancelled: Bool)>((nil, false))

    var isCancelled: Bool { state.withLockedValue { $0.cancelled } }

    func run(_ transfer: any LibraryTransfer) {
        let cancelled = state.withLockedValue { state -> Bool in
            state.current = transfer
            return state.cancelled
        }
        if cancelled { transfer.cancel() }
    }

    func cancel() {
        let current = state.withLockedValue { state -> (any LibraryTransfer)? in
            state.cancelled = true
            return state.current
        }
        current?.cancel()
    }
}
