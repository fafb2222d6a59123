import Foundation
import XCTest

/// Real servers on 127.0.0.1 for the remote tests: nginx (autoindex HTML/JSON, limit_rate, dav-ext PROPFIND),
/// Python's http.server, and a small Python fault server. Every server runs under `timeout`, so it stops by
/// itself even when a test crashes.
public enum RemoteTestHarness {
    public static let nginxBinary = "/usr/sbin/nginx"
    public static let davModule = "/usr/lib/nginx/modules/ngx_http_dav_ext_module.so"

    /// A free TCP port on 127.0.0.1 (bind to 0, read it back, close).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw XCTSkip("no sockets") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw XCTSkip("cannot bind 127.0.0.1") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    public static func isListening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A child server process, stopped by `stop()` (or by `timeout` after `lifetime` seconds).
    public final class Server {
        public let process = Process()
        public let port: Int
        public let directory: URL
        public init(port: Int, directory: URL, arguments: [String], workingDirectory: URL, lifetime: Int = 240) throws {
            self.port = port
            self.directory = directory
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = ["-s", "KILL", String(lifetime)] + arguments
            process.currentDirectoryURL = workingDirectory
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while !RemoteTestHarness.isListening(port) {
                guard Date() < deadline, process.isRunning else {
                    stop()
                    throw XCTSkip("server \(arguments.first ?? "") did not start on 127.0.0.1:\(port)")
                }
                usleep(50_000)
            }
        }
        /// Kills the server (SIGKILL to timeout's child via the process group is not needed: timeout forwards TERM).
        public func stop() {
            guard process.isRunning else { return }
            // nginx shuts down gracefully on TERM (waiting for open transfers): kill it outright, as a crash would.
            if let text = try? String(contentsOfFile: directory.path + "/nginx.pid", encoding: .utf8),
               let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1 {
                kill(pid, SIGKILL)
                unlink(directory.path + "/nginx.pid")
            }
            // The server itself is `timeout`'s child: kill it directly (test processes may block SIGTERM).
            let parent = process.processIdentifier
            if let children = try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8) {
                for pid in children.split(separator: " ").compactMap({ Int32($0) }) where pid > 1 { kill(pid, SIGKILL) }
            }
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            let until = Date().addingTimeInterval(5)
            while RemoteTestHarness.isListening(port) && Date() < until { usleep(20_000) }
        }
        deinit { stop() }
    }

    /// A temporary tree with `photos/` holding copies of the committed fixtures.
    public static func makeRoot() throws -> URL {
        let root = try Fixtures.makeTemporaryDirectory("livegrid-remote")
        let photos = root.appendingPathComponent("www/photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for name in ["train.jpg", "train.mov", "motion-photo-v1.jpeg"] {
            try FileManager.default.copyItem(atPath: Fixtures.committed(name), toPath: photos.appendingPathComponent(name).path)
        }
        try FileManager.default.copyItem(atPath: Fixtures.committed("motion-photo-v1.jpeg"),
                                         toPath: photos.appendingPathComponent("sub/inner.jpeg").path)
        return root
    }

    /// A self-signed certificate (and its key) for 127.0.0.1 and localhost, made by `openssl req -x509`: the
    /// certificate is its own CA, so a client trusts it by using it as its CA bundle.
    public struct Certificate: Sendable {
        public let certificatePath: String
        public let keyPath: String
    }

    public static func makeSelfSignedCertificate(in directory: URL) throws -> Certificate {
        guard let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else { throw MissingRequirement.tool("openssl is not installed: no HTTPS test") }
        let cert = directory.appendingPathComponent("tls-cert.pem").path
        let key = directory.appendingPathComponent("tls-key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                             "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: cert) else {
            throw XCTSkip("openssl could not make a self-signed certificate")
        }
        return Certificate(certificatePath: cert, keyPath: key)
    }

    /// nginx with `/photos/` (autoindex HTML), `/json/` (autoindex_format json), `/slow/` (limit_rate),
    /// `/dav/` (PROPFIND via dav-ext), `/missing` 404s, `/forbidden/` 403s and `/loop` redirecting to itself.
    /// With `certificate` it speaks HTTPS only; `extraLocations` is pasted into the server block.
    public static func startNginx(root: URL, port: Int? = nil, rate: String = "300k",
                                  certificate: Certificate? = nil, extraLocations: String = "") throws -> Server {
        guard FileManager.default.isExecutableFile(atPath: nginxBinary) else {
            throw MissingRequirement.tool("nginx is not installed (apt-get install nginx libnginx-mod-http-dav-ext)")
        }
        let port = try port ?? freePort()
        let dir = root.path
        let www = root.appendingPathComponent("www").path
        let dav = FileManager.default.fileExists(atPath: davModule)
        let config = """
            \(dav ? "load_module \(davModule);" : "")
            daemon off; master_process off; worker_processes 1;
            pid \(dir)/nginx.pid; error_log \(dir)/error.log;
            events { worker_connections 256; }
            http {
              log_format ranges '$request_method $uri $status range=$http_range';
              access_log \(dir)/access.log ranges;
              client_body_temp_path \(dir)/cb; proxy_temp_path \(dir)/px; fastcgi_temp_path \(dir)/fc;
              uwsgi_temp_path \(dir)/uw; scgi_temp_path \(dir)/sc;
              types { image/jpeg jpg jpeg; video/quicktime mov; }
              server {
                listen 127.0.0.1:\(port)\(certificate == nil ? "" : " ssl");
                \(certificate.map { "ssl_certificate \($0.certificatePath); ssl_certificate_key \($0.keyPath);" } ?? "")
                root \(www);
                location /photos/ { autoindex on; }
                location /json/ { alias \(www)/photos/; autoindex on; autoindex_format json; }
                location /slow/ { alias \(www)/photos/; autoindex on; limit_rate \(rate); }
                location /forbidden/ { return 403; }
                location = /loop { return 302 /loop; }
                \(extraLocations)
                \(dav ? "location /dav/ { alias \(www)/photos/; dav_ext_methods PROPFIND OPTIONS; }" : "")
              }
            }
            """
        try config.write(toFile: dir + "/nginx.conf", atomically: true, encoding: .utf8)
        return try Server(port: port, directory: root,
                          arguments: [nginxBinary, "-p", dir, "-c", dir + "/nginx.conf"], workingDirectory: root)
    }

    public static func python() throws -> String {
        for candidate in ["/usr/bin/python3", "/usr/local/bin/python3"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw MissingRequirement.tool("python3 is not installed")
    }

    /// `python3 -m http.server` on `www/photos` (no Range support: it always answers 200 with the whole file).
    public static func startPythonHTTPServer(root: URL) throws -> Server {
        let port = try freePort()
        return try Server(port: port, directory: root,
                          arguments: [try python(), "-m", "http.server", "--bind", "127.0.0.1", String(port)],
                          workingDirectory: root.appendingPathComponent("www/photos"))
    }

    /// Faults on demand: /stall (headers then silence), /reset (RST mid-body), /short (Content-Length larger
    /// than the body), /trickle (slow but complete), /huge (announces 3 GiB), /headers (1 MB of header lines),
    /// /echo-auth (answers the Authorization header it got), /hostile/ (a hostile listing).
    public static func startFaultServer(root: URL) throws -> Server {
        let port = try freePort()
        let script = root.appendingPathComponent("faults.py")
        try faultScript.write(to: script, atomically: true, encoding: .utf8)
        return try Server(port: port, directory: root, arguments: [try python(), script.path, String(port)],
                          workingDirectory: root)
    }

    public static let faultScript = #"""
    import socket, struct, sys, time, threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *a): pass
        def head(self, length, ctype="application/octet-stream"):
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(length))
            self.end_headers()
            self.wfile.flush()
        def do_GET(self):
            p = self.path
            if p == "/stall":
                self.head(100000); time.sleep(20)
            elif p == "/reset":
                self.head(100000); self.wfile.write(b"x" * 4000); self.wfile.flush(); time.sleep(0.2)
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.rfile.close(); self.wfile.close(); self.connection.close()
            elif p == "/short":
                self.head(100000); self.wfile.write(b"y" * 5000); self.wfile.flush(); self.close_connection = True
            elif p == "/trickle":
                self.head(3000)
                for i in range(15):
                    self.wfile.write(b"z" * 200); self.wfile.flush(); time.sleep(0.1)
            elif p == "/huge":
                self.head(3 << 30)
                for i in range(100):
                    self.wfile.write(b"h" * 65536)
            elif p == "/echo-auth":
                body = self.headers.get("Authorization", "").encode()
                self.head(len(body), "text/plain"); self.wfile.write(body)
            elif p == "/headers":
                self.send_response(200)
                for i in range(20000):
                    self.send_header("X-Filler-%d" % i, "f" * 40)
                self.end_headers()
            elif p == "/hostile/":
                body = ('<html><body><pre><a href="../">../</a>\n<a href="ok.jpg">ok.jpg</a>\n'
                        '<a href="../../../etc/passwd">x</a>\n<a href="http://evil.example/a.jpg">a.jpg</a>\n'
                        '<a href="..%2Fescape.jpg">e</a>\n<a href="ctl%07.jpg">c</a>\n</pre></body></html>').encode()
                self.head(len(body), "text/html"); self.wfile.write(body)
            else:
                self.send_error(404)

    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H)
    server.daemon_threads = True
    threading.Timer(180, server.shutdown).start()
    server.serve_forever()
    """#
}

/// Base of the real-server tests: a fresh fixture tree per test, servers stopped and the tree removed after.
open class RemoteServerTestCase: XCTestCase {
    public var root: URL!
    public var servers: [RemoteTestHarness.Server] = []

    override open func setUpWithError() throws { root = try RemoteTestHarness.makeRoot() }
    override open func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        try? FileManager.default.removeItem(at: root)
    }
}
