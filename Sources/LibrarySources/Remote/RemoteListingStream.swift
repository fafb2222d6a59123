import Foundation
import LibraryCore

/// Parses a directory listing while its bytes arrive, keeping at most `maxEntries` entries: a hostile or huge
/// listing (1,000,000 names in 27 MB) costs memory for the entries kept, not for the body or a whole-body
/// regular-expression pass (7.19 GB before). Only the unparsed tail of the body is buffered: one HTML anchor,
/// one JSON object, one batch of WebDAV responses.
///
/// The format is decided from the first bytes (and the Content-Type) exactly as `RemoteListingParser.parse`
/// did; each piece is then checked by the same validator, so names are refused or accepted as before.
public final class RemoteListingStream {
    public let baseURL: URL
    /// Entries kept at most; the listing is marked `truncated` when more followed (the caller stops reading).
    public let maxEntries: Int
    private let contentType: String
    private var listing: RemoteListing
    private var buffer: [UInt8] = []
    /// Bytes of `buffer` already parsed (dropped in bulk, so appends stay cheap).
    private var start = 0
    private var mode: Mode?
    private var seen = Set<String>()
    /// The body is not a listing of the detected format: the rest is ignored.
    private var ignoresRest = false

    private enum Mode {
        case html(RemoteListingFormat)
        case json(opened: Bool)
        case webDAV(rootStart: String, rootEnd: String)
    }

    /// One anchor (start tag, text, end tag) longer than this is not a listing entry: skipped.
    static let maxAnchorBytes = 64 << 10
    /// WebDAV responses parsed per batch.
    static let webDAVBatch = 512

    /// `forcing`: parse as this format whatever the body looks like (the format-specific entry points).
    init(baseURL: URL, forcing format: RemoteListingFormat, maxEntries: Int = .max) {
        self.baseURL = baseURL
        contentType = ""
        self.maxEntries = max(1, maxEntries)
        listing = RemoteListing(baseURL: baseURL, format: format)
        mode = format == .nginxJSON ? .json(opened: false) : .html(format)
    }

    public init(baseURL: URL, contentType: String?, maxEntries: Int) {
        self.baseURL = baseURL
        self.contentType = contentType?.lowercased() ?? ""
        self.maxEntries = max(1, maxEntries)
        listing = RemoteListing(baseURL: baseURL, format: .genericHTML)
    }

    /// True once `maxEntries` entries are kept and another one was seen: reading further is pointless.
    public var isFull: Bool { listing.truncated }

    public func feed(_ bytes: some Collection<UInt8>) {
        guard !isFull, !ignoresRest else { return }
        buffer.append(contentsOf: bytes)
        process(final: false)
        compact()
    }

    /// The listing so far, after parsing what is left.
    public func finish() -> RemoteListing {
        if !isFull, !ignoresRest { process(final: true) }
        buffer = []
        start = 0
        return listing
    }

    // MARK: dispatch

    private func process(final: Bool) {
        if mode == nil {
            // The format needs the head of the body (as `RemoteListingParser.parse` looked at 4 KB).
            guard buffer.count - start >= 4096 || final else { return }
            mode = detect()
            if ignoresRest { return }
        }
        switch mode {
        case .html(let format)?: scanHTML(format, final: final)
        case .json?: scanJSON(final: final)
        case .webDAV(let rootStart, let rootEnd)?: scanWebDAV(rootStart: rootStart, rootEnd: rootEnd, final: final)
        case nil: break
        }
    }

    private func detect() -> Mode {
        let head = String(decoding: buffer[start..<min(buffer.count, start + 4096)], as: UTF8.self)
        let trimmed = head.drop(while: { $0.isWhitespace })
        if contentType.contains("json") || trimmed.hasPrefix("[") {
            listing.format = .nginxJSON
            return .json(opened: false)
        }
        if contentType.contains("xml") || head.contains("multistatus"),
           let root = head.range(of: #"<([A-Za-z0-9_.-]+:)?multistatus\b[^>]*>"#, options: .regularExpression) {
            listing.format = .webDAV
            let tag = String(head[root])
            let prefix = tag.dropFirst().prefix { $0 != ">" && !$0.isWhitespace }
            let prolog = head[..<root.lowerBound].range(of: "<?xml").map { head[$0.lowerBound...].prefix { $0 != ">" } + ">" } ?? ""
            start += head[..<root.upperBound].utf8.count
            return .webDAV(rootStart: String(prolog) + tag, rootEnd: "</\(prefix)>")
        }
        if contentType.contains("xml") || head.contains("multistatus") {
            listing.format = .webDAV
            listing.rejected.append(RejectedRemoteEntry(raw: "(listing)", reason: "malformed multistatus XML"))
            ignoresRest = true
            return .html(.genericHTML)
        }
        let format = RemoteListingParser.detectHTMLFormat(head)
        listing.format = format
        return .html(format)
    }

    private func compact() {
        if start > 1 << 16, start > buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// Keeps `entry` unless the cap is reached (then the listing is marked truncated and nothing more is kept).
    private func keep(_ entry: RemoteEntry) {
        guard seen.insert(entry.name).inserted else { return }
        guard listing.entries.count < maxEntries else {
            listing.truncated = true
            seen.remove(entry.name)
            return
        }
        listing.append(entry)
    }

    // MARK: HTML indexes

    /// Every `<a …href=…>…</a>` is a candidate (as the regular expression of the whole-body parser had it: the
    /// first `>` ends the start tag); nginx's "date size" and Apache's date cell are read from the rest of the
    /// anchor's line.
    private func scanHTML(_ format: RemoteListingFormat, final: Bool) {
        while !isFull {
            guard let open = findAnchorStart(from: start) else {
                // Keep the last bytes: "<a" may be split between two pieces.
                start = max(start, buffer.count - 2)
                return
            }
            start = open
            guard let tagEnd = firstIndex(of: UInt8(ascii: ">"), from: open + 2, limit: Self.maxAnchorBytes) else {
                if final || buffer.count - open > Self.maxAnchorBytes { start = open + 2; continue }
                return
            }
            guard let (close, closeEnd) = findAnchorEnd(from: tagEnd + 1) else {
                if final || buffer.count - open > Self.maxAnchorBytes { start = open + 2; continue }
                return
            }
            // The rest of the line (at most 512 bytes) carries nginx's and Apache's columns.
            let lineLimit = min(buffer.count, closeEnd + 512)
            var lineEnd = closeEnd
            while lineEnd < lineLimit, buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            if lineEnd == buffer.count, !final, lineEnd < closeEnd + 512 { return }   // the line may go on
            _ = close
            handleAnchor(tag: open..<tagEnd, tail: closeEnd..<lineEnd, format: format)
            start = closeEnd
        }
    }

    private func handleAnchor(tag: Range<Int>, tail: Range<Int>, format: RemoteListingFormat) {
        guard let raw = Self.hrefValue(buffer[tag]) else { return }
        let href = RemoteListingParser.decodeHTMLEntities(raw)
        switch RemoteEntryValidator.check(href: href, baseURL: baseURL) {
        case .skip:
            return
        case .reject(let reason):
            if listing.rejected.count < maxEntries { listing.rejected.append(RejectedRemoteEntry(raw: href, reason: reason)) }
        case .accept(let name, let url, let isDirectory):
            var entry = RemoteEntry(name: name, url: url, isDirectory: isDirectory)
            if format == .nginxHTML || format == .apacheHTML {
                let text = String(decoding: buffer[tail], as: UTF8.self)
                if format == .nginxHTML {
                    let (mtime, size) = RemoteListingParser.parseNginxColumns(text)
                    entry.modificationTime = mtime
                    entry.size = isDirectory ? nil : size
                } else {
                    entry.modificationTime = RemoteListingParser.parseApacheDate(text)
                }
            }
            keep(entry)
        }
    }

    /// `<a` (any case) followed by white space.
    private func findAnchorStart(from index: Int) -> Int? {
        var i = index
        while i + 2 < buffer.count {
            if buffer[i] == UInt8(ascii: "<"), buffer[i + 1] | 0x20 == UInt8(ascii: "a"), Self.isSpace(buffer[i + 2]) { return i }
            i += 1
        }
        return nil
    }

    /// `</a` then optional white space then `>`; returns where it starts and the index after its `>`.
    private func findAnchorEnd(from index: Int) -> (Int, Int)? {
        var i = index
        let limit = min(buffer.count, index + Self.maxAnchorBytes)
        while i + 3 < limit {
            if buffer[i] == UInt8(ascii: "<"), buffer[i + 1] == UInt8(ascii: "/"), buffer[i + 2] | 0x20 == UInt8(ascii: "a") {
                var j = i + 3
                while j < buffer.count, Self.isSpace(buffer[j]) { j += 1 }
                if j < buffer.count, buffer[j] == UInt8(ascii: ">") { return (i, j + 1) }
                if j >= buffer.count { return nil }
            }
            i += 1
        }
        return nil
    }

    private func firstIndex(of byte: UInt8, from index: Int, limit: Int) -> Int? {
        var i = index
        let end = min(buffer.count, index + limit)
        while i < end {
            if buffer[i] == byte { return i }
            i += 1
        }
        return nil
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }

    /// The value of the first `href` attribute of a start tag (`<a` … up to, not including, `>`): double- or
    /// single-quoted, or bare up to white space.
    static func hrefValue(_ tag: ArraySlice<UInt8>) -> String? {
        let bytes = Array(tag)
        var i = 2
        while i + 4 <= bytes.count {
            let isHref = Self.isSpace(bytes[i - 1]) && bytes[i] | 0x20 == UInt8(ascii: "h") && bytes[i + 1] | 0x20 == UInt8(ascii: "r")
                && bytes[i + 2] | 0x20 == UInt8(ascii: "e") && bytes[i + 3] | 0x20 == UInt8(ascii: "f")
            guard isHref else { i += 1; continue }
            var j = i + 4
            while j < bytes.count, isSpace(bytes[j]) { j += 1 }
            guard j < bytes.count, bytes[j] == UInt8(ascii: "=") else { i += 1; continue }
            j += 1
            while j < bytes.count, isSpace(bytes[j]) { j += 1 }
            guard j < bytes.count else { return nil }
            let quote = bytes[j]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                guard let end = bytes[(j + 1)...].firstIndex(of: quote) else { return nil }
                return String(decoding: bytes[(j + 1)..<end], as: UTF8.self)
            }
            var end = j
            while end < bytes.count, !isSpace(bytes[end]) { end += 1 }
            return end > j ? String(decoding: bytes[j..<end], as: UTF8.self) : nil
        }
        return nil
    }

    // MARK: nginx JSON

    /// The array's objects one by one (each parsed alone), found by brace depth outside strings.
    private func scanJSON(final: Bool) {
        guard case .json(var opened)? = mode else { return }
        defer { mode = .json(opened: opened) }
        var i = start
        if !opened {
            while i < buffer.count, Self.isSpace(buffer[i]) { i += 1 }
            guard i < buffer.count else { start = i; return }
            guard buffer[i] == UInt8(ascii: "[") else {
                listing.rejected.append(RejectedRemoteEntry(raw: "(listing)", reason: "not a JSON array"))
                ignoresRest = true
                start = buffer.count
                return
            }
            opened = true
            i += 1
            start = i
        }
        while !isFull {
            // The next object's '{'.
            while i < buffer.count, buffer[i] != UInt8(ascii: "{") { i += 1 }
            guard i < buffer.count else { start = i; return }
            let objectStart = i
            var depth = 0, inString = false, escaped = false
            var end: Int?
            while i < buffer.count, i - objectStart <= Self.maxAnchorBytes {
                let byte = buffer[i]
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") {
                    depth -= 1
                    if depth == 0 { end = i + 1; break }
                }
                i += 1
            }
            guard let end else {
                if final || i - objectStart > Self.maxAnchorBytes {
                    listing.rejected.append(RejectedRemoteEntry(raw: "(listing)", reason: "unreadable JSON entry"))
                    start = final ? buffer.count : objectStart + 1
                    i = start
                    if final { return }
                    continue
                }
                start = objectStart
                return
            }
            handleJSONObject(Data(buffer[objectStart..<end]))
            start = end
            i = end
        }
    }

    private func handleJSONObject(_ data: Data) {
        // try?: a line that is not JSON is rejected below, with its text.
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let rawName = object["name"] as? String else {
            listing.rejected.append(RejectedRemoteEntry(raw: String(decoding: data.prefix(200), as: UTF8.self),
                                                        reason: "entry without a name"))
            return
        }
        let isDirectory = (object["type"] as? String) == "directory"
        switch RemoteEntryValidator.checkName(decoded: rawName) {
        case .failure(let problem):
            listing.rejected.append(RejectedRemoteEntry(raw: rawName, reason: problem.message))
        case .success(let name):
            guard let url = RemoteEntryValidator.url(forName: name, isDirectory: isDirectory, in: baseURL) else {
                listing.rejected.append(RejectedRemoteEntry(raw: rawName, reason: "cannot form a URL"))
                return
            }
            let size = (object["size"] as? NSNumber).flatMap { $0.int64Value >= 0 ? UInt64($0.int64Value) : nil }
            let mtime = (object["mtime"] as? String).flatMap(HTTPDate.parse)
            keep(RemoteEntry(name: name, url: url, isDirectory: isDirectory, size: isDirectory ? nil : size,
                             modificationTime: mtime))
        }
    }

    // MARK: WebDAV

    /// Batches of whole `<…response>…</…response>` elements, each batch parsed as a small multistatus document
    /// (the root element's namespace declarations are repeated around it).
    private func scanWebDAV(rootStart: String, rootEnd: String, final: Bool) {
        var i = start
        var count = 0
        var lastEnd = start
        while i + 11 < buffer.count {
            // `</` … `response>` (any prefix, any case).
            if buffer[i] == UInt8(ascii: "<"), buffer[i + 1] == UInt8(ascii: "/") {
                var j = i + 2
                while j < buffer.count, j - i < 64, buffer[j] != UInt8(ascii: ">") { j += 1 }
                if j < buffer.count, buffer[j] == UInt8(ascii: ">") {
                    let name = String(decoding: buffer[(i + 2)..<j], as: UTF8.self).lowercased()
                    if name == "response" || name.hasSuffix(":response") {
                        count += 1
                        lastEnd = j + 1
                        if count >= Self.webDAVBatch {
                            parseWebDAVBatch(lastEnd, rootStart: rootStart, rootEnd: rootEnd)
                            if isFull { return }
                            count = 0
                        }
                    }
                    i = j
                }
            }
            i += 1
        }
        if count > 0, final || lastEnd > start { parseWebDAVBatch(lastEnd, rootStart: rootStart, rootEnd: rootEnd) }
        if final { start = buffer.count }
    }

    private func parseWebDAVBatch(_ end: Int, rootStart: String, rootEnd: String) {
        var document = Data(rootStart.utf8)
        document.append(contentsOf: buffer[start..<end])
        document.append(contentsOf: Data(rootEnd.utf8))
        start = end
        let batch = RemoteListingParser.parseWebDAV(document, baseURL: baseURL)
        listing.rejected += batch.rejected
        for entry in batch.entries {
            keep(entry)
            if isFull { return }
        }
    }
}
