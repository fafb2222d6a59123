import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One page of a ListObjectsV2 answer (`encoding-type=url`: keys and prefixes are URL-encoded, space as `+`).
struct S3ListPage {
    struct Object {
        var key: String
        var size: UInt64?
        var lastModified: Date?
        var etag: String?
    }
    var objects: [Object] = []
    var prefixes: [String] = []
    var isTruncated = false
    var nextToken: String?

    /// Nil when the body is not a `ListBucketResult` (an HTML page, a proxy's answer...).
    static func parse(_ body: [UInt8]) -> S3ListPage? {
        let reader = S3XMLReader()
        guard reader.read(body), reader.root == "ListBucketResult" else { return nil }
        return reader.page
    }

    /// `encoding-type=url` decoding: `+` is a space, then percent-escapes (a literal `+` comes as `%2B`).
    static func decodeKey(_ text: String) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// `2026-11-29T04:15:11.000Z` (S3 always writes UTC). By hand: an ISO8601DateFormatter per key made a
    /// 1000-key page take ~0.9 s to read instead of ~0.1 s.
    static func date(_ text: String) -> Date? {
        let u = Array(text.utf8)
        guard u.count >= 20, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T"),
              u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"), u.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in u[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0.0
        if u.count > 20 {
            guard u[19] == UInt8(ascii: "."), let digits = number(20..<(u.count - 1)) else { return nil }
            fraction = Double(digits) / pow(10, Double(u.count - 21))
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Date(timeIntervalSince1970: Double(timegm(&parts)) + fraction)
    }
}

/// S3's `<Error>` document.
struct S3ErrorDocument {
    var code: String
    var message: String?
    var region: String?
    var endpoint: String?

    static func parse(_ body: [UInt8]) -> S3ErrorDocument? {
        let reader = S3XMLReader()
        guard !body.isEmpty, reader.read(body), reader.root == "Error", let code = reader.errorFields["Code"], !code.isEmpty else { return nil }
        return S3ErrorDocument(code: code, message: reader.errorFields["Message"], region: reader.errorFields["Region"],
                               endpoint: reader.errorFields["Endpoint"])
    }
}

/// Reads both documents with Foundation's XMLParser (a few hundred KB per page at most).
private final class S3XMLReader: NSObject, XMLParserDelegate {
    var root: String?
    var page = S3ListPage()
    var errorFields: [String: String] = [:]
    private var path: [String] = []
    private var text = ""
    private var object: S3ListPage.Object?

    func read(_ body: [UInt8]) -> Bool {
        let parser = XMLParser(data: Data(body))
        parser.delegate = self
        parser.shouldProcessNamespaces = true
        return parser.parse()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if root == nil { root = name }
        path.append(name)
        text = ""
        if name == "Contents", path.count == 2 { object = S3ListPage.Object(key: "") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { path.removeLast(); text = "" }
        let value = text
        switch (root, path.count >= 2 ? path[path.count - 2] : nil, name) {
        case ("Error", "Error"?, _):
            errorFields[name] = value
        case ("ListBucketResult", "ListBucketResult"?, "IsTruncated"):
            page.isTruncated = value.trimmingCharacters(in: .whitespaces) == "true"
        case ("ListBucketResult", "ListBucketResult"?, "NextContinuationToken"):
            page.nextToken = value
        case ("ListBucketResult", "ListBucketResult"?, "Contents"):
            if let object, !object.key.isEmpty { page.objects.append(object) }
            object = nil
        case ("ListBucketResult", "Contents"?, "Key"):
            object?.key = S3ListPage.decodeKey(value) ?? ""
        case ("ListBucketResult", "Contents"?, "Size"):
            object?.size = UInt64(value.trimmingCharacters(in: .whitespaces))
        case ("ListBucketResult", "Contents"?, "LastModified"):
            object?.lastModified = S3ListPage.date(value.trimmingCharacters(in: .whitespaces))
        case ("ListBucketResult", "Contents"?, "ETag"):
            object?.etag = value
        case ("ListBucketResult", "CommonPrefixes"?, "Prefix"):
            if let decoded = S3ListPage.decodeKey(value) { page.prefixes.append(decoded) }
        default:
            break
        }
    }
}
