import Foundation

/// An HTTP proxy on 127.0.0.1 in front of an S3 server (SeaweedFS) that records every request it passes,
/// one JSON line each in `log` (method, path with query, Range, status, body bytes, and whether a session
/// token and an Authorization header came). The request goes on unchanged (Host included, so a SigV4 signature
/// made for the proxy's address still checks), the answer comes back unchanged.
///
/// Two behaviours real servers have, on demand:
/// - `holdLastListingPage`: the last page of a ListObjectsV2 listing (`<IsTruncated>false`) waits until
///   `releaseLastListingPage()`, so a test can look at the screen while the listing is known to be unfinished.
/// - `bucketRegion`: a signed request whose credential scope names another region gets AWS's answer, a 301
///   `PermanentRedirect` with `x-amz-bucket-region` (the listing) or a 400 `AuthorizationHeaderMalformed`
///   naming the region (any other request); a request signed for that region is passed on.
///   `bucketRegions` does the same per bucket (the first path segment: a path-style endpoint serving buckets
///   of several regions); a bucket not named there is passed on.
/// Without an upstream port it answers itself (`<ListBucketResult>` with no keys, or the object `echo`): a
/// recording server for what a client sends.
public final class S3RecordingProxy {
    public let port: Int
    public let log: URL
    private let release: URL
    private let server: RemoteTestHarness.Server

    public struct Request: Decodable {
        public var method: String
        public var path: String
        public var range: String?
        public var status: Int
        public var bytes: Int
        /// The `x-amz-security-token` header's value, if any.
        public var token: String?
        /// The `Authorization` header (its signature covers the headers it names in SignedHeaders).
        public var authorization: String?
        /// The SigV4 signature checked here with `secret` (nil when no secret was given or nothing was signed).
        public var signatureValid: Bool?
        public var isListing: Bool { path.contains("list-type=2") }
    }

    /// `secret`: the secret key the signatures are checked with, by this proxy's own SigV4 code (AWS's
    /// documented algorithm in the standard library), independently of libcurl's signing.
    public init(upstreamPort: Int?, directory: URL, holdLastListingPage: Bool = false, bucketRegion: String? = nil,
                bucketRegions: [String: String] = [:], secret: String? = nil) throws {
        let regions = bucketRegion
            ?? (bucketRegions.isEmpty ? "-" : bucketRegions.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value }.joined(separator: ","))
        port = try RemoteTestHarness.freePort()
        let script = directory.appendingPathComponent("s3-recording-proxy.py")
        log = directory.appendingPathComponent("s3-proxy-\(port).jsonl")
        release = directory.appendingPathComponent("s3-proxy-\(port).release")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        server = try RemoteTestHarness.Server(port: port, directory: directory,
                                              arguments: [try RemoteTestHarness.python(), script.path, String(port),
                                                          String(upstreamPort ?? 0), log.path,
                                                          holdLastListingPage ? release.path : "-", regions, secret ?? "-"],
                                              workingDirectory: directory, lifetime: 900)
    }

    /// The requests passed so far, in the order their answers began (each is logged before its answer goes).
    public var requests: [Request] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""   // not written yet: no requests
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    public func releaseLastListingPage() { _ = FileManager.default.createFile(atPath: release.path, contents: Data()) }

    public func stop() { server.stop() }
    deinit { stop() }

    static let script = #"""
    import hashlib, hmac, http.client, http.server, json, os, re, sys, threading, time
    port, upstream, log_path, release, regions, secret = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
    def region_of(path):
        if regions == "-": return None
        if "=" not in regions: return regions
        bucket = path.lstrip("/").split("?", 1)[0].split("/", 1)[0]
        return dict(p.split("=", 1) for p in regions.split(",")).get(bucket)
    def verify(method, path, headers):
        auth = headers.get("Authorization") or ""
        m = re.match(r"AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/([^/]+)/aws4_request, *SignedHeaders=([^,]+), *Signature=([0-9a-f]+)", auth)
        if secret == "-" or not m: return None
        _, day, reg, service, signed, signature = m.groups()
        uri, _, query = path.partition("?")
        pairs = sorted(tuple(p.split("=", 1)) if "=" in p else (p, "") for p in query.split("&") if p)
        lines = [method, uri, "&".join(k + "=" + v for k, v in pairs)]
        lines += [h + ":" + " ".join((headers.get(h) or "").split()) for h in signed.split(";")]
        lines += ["", signed, headers.get("x-amz-content-sha256") or ""]
        scope = "/".join([day, reg, service, "aws4_request"])
        tosign = "\n".join(["AWS4-HMAC-SHA256", headers.get("x-amz-date") or "", scope,
                            hashlib.sha256("\n".join(lines).encode()).hexdigest()])
        key = ("AWS4" + secret).encode()
        for part in (day, reg, service, "aws4_request"): key = hmac.new(key, part.encode(), hashlib.sha256).digest()
        return hmac.compare_digest(hmac.new(key, tosign.encode(), hashlib.sha256).hexdigest(), signature)
    lock = threading.Lock()
    HOP = {"connection", "keep-alive", "transfer-encoding", "proxy-connection", "te", "trailer", "upgrade"}
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def record(self, status, size):
            line = json.dumps({"t": time.time(), "method": self.command, "path": self.path, "range": self.headers.get("Range"),
                               "status": status, "bytes": size, "token": self.headers.get("x-amz-security-token"),
                               "authorization": self.headers.get("Authorization"),
                               "signatureValid": verify(self.command, self.path, self.headers)})
            with lock:
                with open(log_path, "a") as f: f.write(line + "\n")
        def answer(self, status, headers, body):
            # Recorded before the answer goes: a client that has its answer finds its request in the log (recorded
            # after, a test asking right after its last request could read the log without it).
            self.record(status, len(body))
            self.send_response(status)
            for k, v in headers:
                if k.lower() not in HOP and k.lower() != "content-length": self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD": self.wfile.write(body)
        def handle_one(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            auth = self.headers.get("Authorization") or ""
            scope = re.search(r"Credential=[^/]+/\d+/([^/]+)/", auth)
            region = region_of(self.path)
            if region and scope and scope.group(1) != region:
                if "list-type=2" in self.path:
                    xml = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>PermanentRedirect</Code><Message>The bucket you are "
                           "attempting to access must be addressed using the specified endpoint.</Message><Endpoint>s3.%s.amazonaws.com"
                           "</Endpoint><Bucket>b</Bucket></Error>" % region).encode()
                    return self.answer(301, [("x-amz-bucket-region", region), ("Content-Type", "application/xml")], xml)
                xml = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>AuthorizationHeaderMalformed</Code><Message>The authorization "
                       "header is malformed; the region '%s' is wrong; expecting '%s'</Message><Region>%s</Region></Error>"
                       % (scope.group(1), region, region)).encode()
                return self.answer(400, [("Content-Type", "application/xml")], xml)
            if upstream == 0:
                if "list-type=2" in self.path:
                    xml = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>"
                    return self.answer(200, [("Content-Type", "application/xml")], xml)
                return self.answer(200, [("Content-Type", "application/octet-stream")], b"echo")
            conn = http.client.HTTPConnection("127.0.0.1", upstream, timeout=60)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
            conn.request(self.command, self.path, body=body if body else None, headers=headers)
            reply = conn.getresponse()
            data = reply.read()
            conn.close()
            if release != "-" and "list-type=2" in self.path and b"<IsTruncated>false</IsTruncated>" in data:
                deadline = time.time() + 120
                while not os.path.exists(release) and time.time() < deadline: time.sleep(0.02)
            self.answer(reply.status, reply.getheaders(), data)
        def do_GET(self): self.handle_one()
        def do_HEAD(self): self.handle_one()
        def do_PUT(self): self.handle_one()
    http.server.ThreadingHTTPServer.daemon_threads = True
    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
    """#
}
