import Foundation
import LibraryCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A small body fetched into memory (listings, header probes), with where it lies in the file.
public struct RemoteResponse: Sendable {
    public var url: URL
    public var status: Int
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    public var body: [UInt8]
    /// File offset of `body[0]`.
    public var bodyOffset: UInt64
    /// Size of the whole file, from `Content-Range` (206) or `Content-Length` (200); nil when unknown.
    public var totalSize: UInt64?
    /// True when the server answered the Range with 206 (it can serve pieces).
    public var rangeHonoured: Bool

    public var etag: String? { headers["etag"] }
    public var lastModified: String? { headers["last-modified"] }
    public var contentType: String? { headers["content-type"] }
}

extension RemoteHTTPClient {
    /// Fetches at most `maxBytes` of `url`, honouring `range`. A server that ignores Range (Python's
    /// http.server) answers 200 with the whole file: the wanted window is then cut out of the stream, and the
    /// request stops as soon as the window is complete (so memory stays bounded by `maxBytes`; bandwidth up to
    /// the window's end is spent). `maxStreamBytes` bounds how much may be skipped that way.
    public func fetch(_ url: URL, method: String = "GET", range: RemoteFetchRange? = nil, body: Data? = nil,
                      headers extra: [String: String] = [:], maxBytes: Int = 16 << 20,
                      maxStreamBytes: UInt64 = 64 << 20, listOnly: Bool = false) async throws -> RemoteResponse {
        var request = try makeRequest(url, method: method, range: range)
        request.httpBody = body
        for (k, v) in extra { request.setValue(v, forHTTPHeaderField: k) }
        let state = FetchState(range: range, maxBytes: maxBytes, maxStreamBytes: maxStreamBytes)
        return try await withCheckedThrowingContinuation { continuation in
            start(request, bufferSize: Self.fetchBufferSize, listOnly: listOnly, handler: RemoteTransferHandler(
                onResponse: { state.begin($0) },
                onData: { state.append($0) },
                onComplete: { error in
                    if let response = state.finish(error: error) {
                        continuation.resume(returning: response)
                    } else {
                        continuation.resume(throwing: state.error ?? error ?? RemoteError.cancelled)
                    }
                }))
        }
    }

    /// Lists a directory the way its kind of library does (`LibrarySource.list`): the body is parsed while it
    /// arrives and reading stops after `maxEntries` entries or `maxBytes` bytes; the listing is then `truncated`.
    /// `pages`: a paged listing's entries so far, after each page while more follow (S3).
    public func list(_ url: URL, maxBytes: Int = 32 << 20, maxEntries: Int = RemoteListingParser.defaultMaxEntries,
                     pages: RemoteListingPages? = nil) async throws -> RemoteListing {
        guard let source = LibrarySourceTable.source(for: url, client: self) else {
            throw RemoteError.unsupportedURL(url.absoluteString)
        }
        return try await source.list(url, maxEntries: maxEntries, maxBytes: maxBytes, pages: pages)
    }

    /// The directory and every folder below it in one listing walk (`LibrarySource.listTree`), or nil when its
    /// kind is listed folder by folder.
    public func listTree(_ url: URL, maxBytes: Int = 32 << 20,
                         maxEntries: Int = RemoteListingParser.defaultMaxEntries) async throws -> RemoteListingTree? {
        guard let source = LibrarySourceTable.source(for: url, client: self) else {
            throw RemoteError.unsupportedURL(url.absoluteString)
        }
        return try await source.listTree(url, maxEntries: maxEntries, maxBytes: maxBytes)
    }

    /// `PROPFIND` Depth 1 (WebDAV), the answer parsed as it arrives.
    func propfind(_ url: URL, baseURL: URL, maxBytes: Int, maxEntries: Int) async throws -> RemoteListing {
        let query = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:getcontentlength/><D:getlastmodified/>\
            <D:getetag/><D:displayname/></D:prop></D:propfind>
            """
        var request = try makeRequest(url, method: "PROPFIND")
        request.httpBody = Data(query.utf8)
        request.setValue("1", forHTTPHeaderField: "Depth")
        request.setValue("application/xml; charset=utf-8", forHTTPHeaderField: "Content-Type")
        return try await streamListing(request, baseURL: baseURL, maxBytes: maxBytes, maxEntries: maxEntries)
    }

    /// Runs a listing request with its body going straight into a `RemoteListingStream`.
    func streamListing(_ request: URLRequest, baseURL: URL, maxBytes: Int, maxEntries: Int) async throws -> RemoteListing {
        let state = ListingState(baseURL: baseURL, maxBytes: maxBytes, maxEntries: maxEntries)
        return try await withCheckedThrowingContinuation { continuation in
            start(request, bufferSize: Self.fetchBufferSize, handler: RemoteTransferHandler(
                onResponse: { state.begin($0) },
                onData: { state.append($0) },
                onComplete: { error in
                    switch state.finish(error: error) {
                    case .success(let listing): continuation.resume(returning: listing)
                    case .failure(let failure): continuation.resume(throwing: failure)
                    }
                }))
        }
    }
}

/// One streamed listing; touched only on the client's worker thread.
// unchecked: filled by curl's body callbacks (C) on the worker thread alone.
private final class ListingState: @unchecked Sendable {
    let baseURL: URL
    let maxBytes: Int
    let maxEntries: Int
    var stream: RemoteListingStream?
    var received = 0
    /// Reading stopped on purpose (enough entries or bytes): the `.cancelled` that follows is not a failure.
    var stoppedEarly = false
    var error: RemoteError?

    init(baseURL: URL, maxBytes: Int, maxEntries: Int) {
        self.baseURL = baseURL
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
    }

    func begin(_ http: HTTPURLResponse) -> RemoteError? {
        let status = http.statusCode
        guard (200..<300).contains(status) else {
            error = .httpStatus(status, url: http.url?.absoluteString ?? "")
            return error
        }
        var contentType: String?
        for (k, v) in http.allHeaderFields where (k as? String)?.lowercased() == "content-type" { contentType = v as? String }
        stream = RemoteListingStream(baseURL: baseURL, contentType: contentType, maxEntries: maxEntries)
        return nil
    }

    func append(_ data: Data) -> RemoteError? {
        guard let stream else { return nil }
        let room = max(0, maxBytes - received)
        received += data.count
        stream.feed(room >= data.count ? data : data.prefix(room))
        if stream.isFull || received >= maxBytes {
            stoppedEarly = true
            return .cancelled
        }
        return nil
    }

    func finish(error completion: RemoteError?) -> Result<RemoteListing, RemoteError> {
        if let error { return .failure(error) }
        if let completion, !(completion == .cancelled && stoppedEarly) { return .failure(completion) }
        guard let stream else { return .failure(.invalidResponse("no response")) }
        var listing = stream.finish()
        if received >= maxBytes { listing.truncated = true }
        return .success(listing)
    }
}

/// Accumulates one fetch; touched only on the client's worker thread.
// unchecked: filled by curl's body callbacks (C) on the worker thread alone.
private final class FetchState: @unchecked Sendable {
    let range: RemoteFetchRange?
    let maxBytes: Int
    let maxStreamBytes: UInt64
    var response: HTTPURLResponse?
    var body: [UInt8] = []
    var bodyOffset: UInt64 = 0
    var totalSize: UInt64?
    var honoured = false
    /// Stream position (bytes of the response body seen so far).
    var position: UInt64 = 0
    /// Window of the file to keep when the server ignored Range.
    var windowStart: UInt64 = 0
    var windowEnd: UInt64 = .max
    var done = false
    var error: RemoteError?

    init(range: RemoteFetchRange?, maxBytes: Int, maxStreamBytes: UInt64) {
        self.range = range
        self.maxBytes = maxBytes
        self.maxStreamBytes = maxStreamBytes
    }

    func begin(_ http: HTTPURLResponse) -> RemoteError? {
        response = http
        let status = http.statusCode
        guard (200..<300).contains(status) || status == 207 else {
            error = .httpStatus(status, url: http.url?.absoluteString ?? "")
            return error
        }
        let length = header(http, "content-length").flatMap { UInt64($0) }
        if status == 206, let cr = header(http, "content-range") {
            guard let parsed = parseContentRange(cr) else {
                error = .invalidResponse("bad Content-Range \(cr)"); return error
            }
            honoured = true
            bodyOffset = parsed.first
            totalSize = parsed.total
            windowStart = parsed.first
            windowEnd = parsed.last + 1
            position = parsed.first
            return nil
        }
        totalSize = length
        position = 0
        switch range {
        case nil:
            windowStart = 0
        case .bytes(let a, let b)?:
            windowStart = a; windowEnd = b + 1
        case .from(let a)?:
            windowStart = a
        case .suffix(let n)?:
            guard let length else { error = .invalidResponse("no Range support and no Content-Length"); return error }
            windowStart = length > n ? length - n : 0
        }
        if windowStart > maxStreamBytes {
            error = .invalidResponse("server ignores Range requests; \(windowStart) bytes would have to be skipped")
            return error
        }
        bodyOffset = windowStart
        return nil
    }

    func append(_ data: Data) -> RemoteError? {
        let chunkStart = position
        position += UInt64(data.count)
        let keepFrom = max(chunkStart, windowStart)
        let keepTo = min(position, windowEnd)
        if keepTo > keepFrom {
            let lo = Int(keepFrom - chunkStart), hi = Int(keepTo - chunkStart)
            let room = maxBytes - body.count
            let slice = data[data.startIndex + lo ..< data.startIndex + min(hi, lo + max(0, room))]
            body.append(contentsOf: slice)
        }
        // A 206 ends at the window's end by itself: letting it finish keeps the connection for the next
        // request (an SFTP connection costs a whole SSH handshake and login; aborting closes it).
        if honoured, position >= windowEnd, body.count < maxBytes || position >= windowEnd {
            done = true
            return nil
        }
        // Enough: the window is complete, or the cap is reached (the caller sees a short body).
        if position >= windowEnd || body.count >= maxBytes {
            done = true
            return .cancelled
        }
        return nil
    }

    func finish(error completion: RemoteError?) -> RemoteResponse? {
        if error != nil { return nil }
        if let completion, !(completion == .cancelled && done) {
            error = completion
            return nil
        }
        guard let http = response else { error = .invalidResponse("no response"); return nil }
        var headers: [String: String] = [:]
        for (k, v) in http.allHeaderFields {
            if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
        }
        return RemoteResponse(url: http.url ?? URL(fileURLWithPath: "/"), status: http.statusCode, headers: headers,
                              body: body, bodyOffset: bodyOffset, totalSize: totalSize, rangeHonoured: honoured)
    }

    private func header(_ http: HTTPURLResponse, _ name: String) -> String? {
        for (k, v) in http.allHeaderFields {
            if let k = k as? String, k.lowercased() == name { return v as? String }
        }
        return nil
    }
}
