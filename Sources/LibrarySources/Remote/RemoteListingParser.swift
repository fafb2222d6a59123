import Foundation
import LibraryCore

/// Turns a directory listing body into checked entries. Pure functions of (body, base URL): no network.
public enum RemoteListingParser {
    /// Entries a listing keeps by default (`remote.max_entries`, `--max-entries`): far above any real folder,
    /// far below what would exhaust memory.
    public static let defaultMaxEntries = RemoteListingLimits.defaultMaxEntries

    /// Detects the format and parses (a whole body at once; `RemoteListingStream` is the same parser fed in
    /// pieces). `baseURL` is the directory that was listed.
    public static func parse(_ body: Data, contentType: String? = nil, baseURL: URL,
                             maxEntries: Int = defaultMaxEntries) -> RemoteListing {
        let stream = RemoteListingStream(baseURL: baseURL, contentType: contentType, maxEntries: maxEntries)
        stream.feed(body)
        return stream.finish()
    }

    /// nginx `autoindex_format json`:
    /// `[{"name":"a.jpg","type":"file","mtime":"Fri, 22 Nov 2024 20:20:00 GMT","size":123}, ...]`
    public static func parseNginxJSON(_ body: Data, baseURL: URL) -> RemoteListing {
        let stream = RemoteListingStream(baseURL: baseURL, forcing: .nginxJSON)
        stream.feed(body)
        return stream.finish()
    }

    /// HTML indexes (nginx autoindex, Apache mod_autoindex, Python http.server): every `<a href>` is a
    /// candidate; the name comes from the href (link texts are truncated by nginx and HTML-escaped by all).
    /// nginx puts "date size" after the link on the same line; Apache puts them in table cells (its sizes are
    /// rounded, "3.3M", so they are not kept); Python gives neither.
    public static func parseHTMLIndex(_ html: String, baseURL: URL) -> RemoteListing {
        let stream = RemoteListingStream(baseURL: baseURL, forcing: detectHTMLFormat(html))
        stream.feed(Array(html.utf8))
        return stream.finish()
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
