import Foundation

/// Turns a directory listing body into checked entries. Pure functions of (body, base URL): no network.
public enum RemoteListingParser {
    /// Detects the format and parses. `baseURL` is the directory that was listed.
    public static func parse(_ body: Data, contentType: String? = nil, baseURL: URL) -> RemoteListing {
        let type = contentType?.lowercased() ?? ""
        let head = String(decoding: body.prefix(4096), as: UTF8.self)
        let trimmed = head.drop(while: { $0.isWhitespace })
        if type.contains("json") || trimmed.hasPrefix("[") {
            return parseNginxJSON(body, baseURL: baseURL)
        }
        if type.contains("xml") || head.contains("multistatus") {
            return parseWebDAV(body, baseURL: baseURL)
        }
        return parseHTMLIndex(String(decoding: body, as: UTF8.self), baseURL: baseURL)
    }

    // MARK: nginx `autoindex_format json`

    /// `[{"name":"a.jpg","type":"file","mtime":"Fri, 22 Nov 2024 20:20:00 GMT","size":123}, ...]`
    public static func parseNginxJSON(_ body: Data, baseURL: URL) -> RemoteListing {
        var listing = RemoteListing(baseURL: baseURL, format: .nginxJSON)
        guard let array = try? JSONSerialization.jsonObject(with: body) as? [Any] else {
            listing.rejected.append(RejectedRemoteEntry(raw: "(listing)", reason: "not a JSON array"))
            return listing
        }
        for element in array {
            guard let object = element as? [String: Any], let rawName = object["name"] as? String else {
                listing.rejected.append(RejectedRemoteEntry(raw: "\(element)", reason: "entry without a name"))
                continue
            }
            let isDirectory = (object["type"] as? String) == "directory"
            switch RemoteEntryValidator.checkName(decoded: rawName) {
            case .failure(let problem):
                listing.rejected.append(RejectedRemoteEntry(raw: rawName, reason: problem.message))
            case .success(let name):
                guard let url = RemoteEntryValidator.url(forName: name, isDirectory: isDirectory, in: baseURL) else {
                    listing.rejected.append(RejectedRemoteEntry(raw: rawName, reason: "cannot form a URL"))
                    continue
                }
                let size = (object["size"] as? NSNumber).flatMap { $0.int64Value >= 0 ? UInt64($0.int64Value) : nil }
                let mtime = (object["mtime"] as? String).flatMap(HTTPDate.parse)
                listing.entries.append(RemoteEntry(name: name, url: url, isDirectory: isDirectory,
                                                   size: isDirectory ? nil : size, modificationTime: mtime))
            }
        }
        return listing
    }

    // MARK: HTML indexes (nginx autoindex, Apache mod_autoindex, Python http.server)

    /// Every `<a href>` is a candidate; the name comes from the href (link texts are truncated by nginx and
    /// HTML-escaped by all). nginx puts "date size" after the link on the same line; Apache puts them in table
    /// cells (its sizes are rounded, "3.3M", so they are not kept); Python gives neither.
    public static func parseHTMLIndex(_ html: String, baseURL: URL) -> RemoteListing {
        let format = detectHTMLFormat(html)
        var listing = RemoteListing(baseURL: baseURL, format: format)
        let ns = html as NSString
        let anchor = try! NSRegularExpression(  // a literal pattern: cannot fail
            pattern: #"<a\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>(.*?)</a\s*>"#,
            options: [.caseInsensitive, .dotMatchesLineSeparators])
        let matches = anchor.matches(in: html, range: NSRange(location: 0, length: ns.length))
        var seen = Set<String>()
        for (index, match) in matches.enumerated() {
            var raw = ""
            for group in 1...3 where match.range(at: group).location != NSNotFound {
                raw = ns.substring(with: match.range(at: group))
            }
            let href = decodeHTMLEntities(raw)
            switch RemoteEntryValidator.check(href: href, baseURL: baseURL) {
            case .skip:
                continue
            case .reject(let reason):
                listing.rejected.append(RejectedRemoteEntry(raw: href, reason: reason))
            case .accept(let name, let url, let isDirectory):
                guard seen.insert(name).inserted else { continue }
                var entry = RemoteEntry(name: name, url: url, isDirectory: isDirectory)
                if format == .nginxHTML {
                    let after = match.range.location + match.range.length
                    let next = index + 1 < matches.count ? matches[index + 1].range.location : ns.length
                    let tail = ns.substring(with: NSRange(location: after, length: max(0, next - after)))
                    let (mtime, size) = parseNginxColumns(tail)
                    entry.modificationTime = mtime
                    entry.size = isDirectory ? nil : size
                } else if format == .apacheHTML {
                    let after = match.range.location + match.range.length
                    let next = index + 1 < matches.count ? matches[index + 1].range.location : ns.length
                    let tail = ns.substring(with: NSRange(location: after, length: max(0, next - after)))
                    entry.modificationTime = parseApacheDate(tail)
                }
                listing.entries.append(entry)
            }
        }
        return listing
    }

    static func detectHTMLFormat(_ html: String) -> RemoteListingFormat {
        if html.contains("Directory listing for") { return .pythonHTML }
        if html.contains("<address>Apache") || html.contains("?C=N;O=D") || html.contains("?C=M;O=A") { return .apacheHTML }
        if html.contains("<h1>Index of") && html.contains("<pre>") { return .nginxHTML }
        return .genericHTML
    }

    /// `   22-Nov-2024 20:20             3478530\r\n` (or `-` for directories).
    static func parseNginxColumns(_ text: String) -> (Date?, UInt64?) {
        let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first.map(String.init) ?? ""
        let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard fields.count >= 3 else { return (nil, nil) }
        let date = parseDate(fields[0] + " " + fields[1], format: "dd-MMM-yyyy HH:mm")
        return (date, UInt64(fields[2]))
    }

    /// Apache: `<td align="right">2024-11-22 20:20  </td>` in FancyIndexing tables, or the same text in `<pre>`.
    static func parseApacheDate(_ text: String) -> Date? {
        let plain = text.replacingOccurrences(of: #"<[^>]*>"#, with: " ", options: .regularExpression)
        guard let range = plain.range(of: #"\d{4}-\d{2}-\d{2} \d{2}:\d{2}"#, options: .regularExpression) else { return nil }
        return parseDate(String(plain[range]), format: "yyyy-MM-dd HH:mm")
    }

    static func parseDate(_ text: String, format: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.date(from: text)
    }

    static func decodeHTMLEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = s
        for (entity, char) in [("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&lt;", "<"), ("&gt;", ">")] {
            out = out.replacingOccurrences(of: entity, with: char)
        }
        return out.replacingOccurrences(of: "&amp;", with: "&")   // last, so "&amp;lt;" stays "&lt;"
    }
}

/// RFC 1123 dates (`Last-Modified`, WebDAV `getlastmodified`, nginx JSON `mtime`).
public enum HTTPDate {
    public static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let d = formatter.date(from: text.trimmingCharacters(in: .whitespaces)) { return d }
        }
        return nil
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for a Unix time (SFTP's modification time as a Last-Modified value).
    public static func format(unixTime: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unixTime)))
    }
}
