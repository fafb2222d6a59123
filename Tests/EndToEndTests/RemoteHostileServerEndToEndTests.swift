import Foundation
import TestSupport
import XCTest

/// Issue 32.4 in the real browser: a server whose 30 `.jpg` files are endless bodies without `Content-Length`
/// (a python http.server subclass, bounded by the test: 64 MB or 60 s per body, paced so that downloads are
/// still running when `q` comes). After `q`, no partial file is left in the cache.
final class RemoteHostileServerEndToEndTests: RemoteServerTestCase {
    static let script = #"""
    import sys, time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    NAMES = ["IMG_%03d.jpg" % i for i in range(30)]
    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *a): pass
        def do_GET(self):
            if self.path == "/":
                body = ("<html><body><pre>" + "".join('<a href="%s">%s</a>\n' % (n, n) for n in NAMES)
                        + "</pre></body></html>").encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"\xff\xd8" + b"\x00" * 65534
            piece = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
            start, sent = time.time(), 0
            try:
                while sent < (64 << 20) and time.time() - start < 60:
                    self.wfile.write(piece)
                    sent += len(chunk)
                    time.sleep(0.02)
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H)
    server.daemon_threads = True
    server.serve_forever()
    """#

    /// Partial files in the cache and their bytes.
    private func partials(_ cache: String) -> (count: Int, bytes: UInt64) {
        var count = 0, bytes: UInt64 = 0
        let files = FileManager.default.enumerator(atPath: cache)
        while let name = files?.nextObject() as? String {
            guard name.hasSuffix(".part") else { continue }
            count += 1
            bytes += ((try? FileManager.default.attributesOfItem(atPath: cache + "/" + name))?[.size] as? UInt64) ?? 0
        }
        return (count, bytes)
    }

    func testQuitDuringEndlessDownloadsLeavesNoPartialFile() throws {
        try TmuxSession.requireTmux()
        let binary = try MissingRequirement.livegridBinary()
        let port = try RemoteTestHarness.freePort()
        let script = root.appendingPathComponent("endless.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        servers.append(try RemoteTestHarness.Server(port: port, directory: root,
                                                    arguments: [try RemoteTestHarness.python(), script.path, String(port)],
                                                    workingDirectory: root))
        let home = root.appendingPathComponent("home").path
        let cache = home + "/cache/livegrid/remote"
        let session = try TmuxSession(command: "env -u SSH_AUTH_SOCK XDG_CONFIG_HOME='\(home)/config' XDG_CACHE_HOME='\(home)/cache' "
                                          + "NETRC=/dev/null TERM=tmux-256color '\(binary)' 'http://127.0.0.1:\(port)/'",
                                      columns: 120, rows: 40)
        // Visible thumbnails download at once: wait until several bodies are streaming into the cache (two files
        // at least, and 3 MB: on a loaded machine one body alone could pass 3 MB before the next began, the
        // FLAKY cause).
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, case let now = partials(cache), now.bytes < 3 << 20 || now.count < 2 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let during = partials(cache)
        XCTAssertGreaterThanOrEqual(during.count, 2, "downloads were running when q came")

        try session.send("q")
        let exitDeadline = Date().addingTimeInterval(20)
        while Date() < exitDeadline, try session.display("#{pane_dead}") != "1" { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertEqual(try session.display("#{pane_dead}"), "1", "q quits while the server streams")
        XCTAssertEqual(partials(cache).count, 0, "no partial file after q (there were \(during.count), \(during.bytes) bytes)")
    }
}
