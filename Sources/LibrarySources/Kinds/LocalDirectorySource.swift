import Concurrent
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
import LibraryCore
#endif

/// A directory on this machine (`file://` URLs), through the same verbs as the remote kinds: what lets one
/// protocol-level test hold every kind to the same behaviour, and a future "copy from anywhere" treat a local
/// folder like any other. (The browser's local folders go through `LibraryScanner`, which reads files directly.)
public struct LocalDirectorySource: LibrarySource {
    public static let schemes: [String: RemoteWire] = ["file": .file]
    public static let capabilities = LibrarySourceCapabilities(pairsOnServer: false, servesThumbnails: false,
                                                               writable: true, suffixRanges: true)
    /// Pieces of a whole-file read, as large as a download's receive buffer.
    static let pieceSize = 512 << 10

    public init(client: RemoteHTTPClient) {}
    public init() {}

    /// Reads the directory one entry at a time and stops after `maxEntries` (the listing is then `truncated`).
    /// Names go through the same checks as remote names; a name that fails them, or an entry that cannot be
    /// looked at (a dangling link), is listed as rejected with its reason.
    public func list(_ directory: URL, maxEntries: Int, maxBytes: Int) async throws -> RemoteListing {
        let directory = RemoteEntryValidator.directoryURL(directory)
        let path = directory.path
        guard let stream = opendir(path) else { throw Self.error(errno, path) }
        defer { closedir(stream) }
        var listing = RemoteListing(baseURL: directory, format: .localDirectory)
        while let raw = readdir(stream) {
            let name = withUnsafeBytes(of: raw.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            if listing.entries.count >= maxEntries { listing.truncated = true; break }
            var info = stat()
            guard stat(path + "/" + name, &info) == 0 else {
                listing.rejected.append(RejectedRemoteEntry(raw: name, reason: String(cString: strerror(errno))))
                continue
            }
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFREG || kind == S_IFDIR else { continue }   // FIFOs, sockets, devices: not library files
            switch RemoteEntryValidator.checkName(decoded: name) {
            case .failure(let problem):
                listing.rejected.append(RejectedRemoteEntry(raw: name, reason: problem.message))
            case .success(let checked):
                guard let url = RemoteEntryValidator.url(forName: checked, isDirectory: kind == S_IFDIR, in: directory) else { continue }
                listing.append(RemoteEntry(name: checked, url: url, isDirectory: kind == S_IFDIR,
                                           size: kind == S_IFREG ? UInt64(max(0, info.st_size)) : nil,
                                           modificationTime: Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec))))
            }
        }
        return listing
    }

    public func fetch(_ file: URL, range: RemoteFetchRange?, maxBytes: Int) async throws -> RemoteResponse {
        let (fd, size) = try Self.openRegular(file.path)
        defer { close(fd) }
        let first: UInt64, end: UInt64
        switch range {
        case nil: (first, end) = (0, size)
        case .bytes(let a, let b)?: (first, end) = (a, min(size, b + 1))
        case .from(let a)?: (first, end) = (a, size)
        case .suffix(let n)?: (first, end) = (size - min(n, size), size)
        }
        guard first < size || size == 0 else { throw RemoteError.httpStatus(416, url: file.absoluteString) }
        let wanted = Int(min(UInt64(maxBytes), end > first ? end - first : 0))
        var body = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let n = body.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, wanted - done, off_t(first) + off_t(done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        body.removeLast(wanted - done)
        return RemoteResponse(url: file, status: range == nil ? 200 : 206, headers: [:], body: body, bodyOffset: first,
                              totalSize: size, rangeHonoured: true)
    }

    /// Reads the file in pieces on its own thread, calling the handler as a download's transfer would (a 200,
    /// or a 206 with its `Content-Range` when starting at `offset`).
    public func fetchWhole(_ file: URL, from offset: UInt64, validator: String?, handler: RemoteTransferHandler) throws
        -> any LibraryTransfer {
        let (fd, size) = try Self.openRegular(file.path)
        let transfer = LocalTransfer()
        let start = min(offset, size)
        var headers = ["Content-Length": String(size - start)]
        if start > 0 { headers["Content-Range"] = "bytes \(start)-\(max(start, size) - 1)/\(size)" }
        guard let response = HTTPURLResponse(url: file, statusCode: start > 0 ? 206 : 200, httpVersion: "HTTP/1.1",
                                             headerFields: headers) else {
            close(fd)
            throw RemoteError.invalidResponse("no response for \(file.path)")
        }
        NamedThread.start("local-read") {
            defer { close(fd) }
            if let stop = handler.onResponse(response) { handler.onComplete(stop); return }
            var position = start
            var piece = [UInt8](repeating: 0, count: Self.pieceSize)
            while position < size {
                if transfer.isCancelled { handler.onComplete(.cancelled); return }
                let n = piece.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, Self.pieceSize, off_t(position)) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                position += UInt64(n)
                if let stop = handler.onData(Data(piece[0..<n])) { handler.onComplete(stop); return }
            }
            handler.onComplete(transfer.isCancelled ? .cancelled : nil)
        }
        return transfer
    }

    /// None: local files are read directly, never through the network client (which refuses `file://`).
    public func request(for url: URL, method: String, range: RemoteFetchRange?) throws -> URLRequest {
        throw RemoteError.unsupportedURL(url.absoluteString)
    }

    /// Opens a regular file without blocking (a FIFO named like a photo would block `open`) and returns its size.
    static func openRegular(_ path: String) throws -> (fd: Int32, size: UInt64) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw error(errno, path) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw RemoteError.invalidResponse("\(path) is not a regular file")
        }
        return (fd, UInt64(max(0, info.st_size)))
    }

    static func error(_ code: Int32, _ path: String) -> RemoteError {
        code == ENOENT ? .notFound(path) : .transport("\(path): \(String(cString: strerror(code)))")
    }
}

/// A whole-file read of a local file; cancelling stops it before its next piece.
final class LocalTransfer: LibraryTransfer {
    private let cancelled = Locked(false)
    var isCancelled: Bool { cancelled.withLockedValue { $0 } }
    func cancel() { cancelled.withLockedValue { $0 = true } }
}
